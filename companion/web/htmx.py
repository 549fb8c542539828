"""htmx in one place: which requests get a fragment, and the answers that steer htmx.

Every view asks :func:`is_htmx` instead of reading ``HX-Request`` itself, because that header
alone is not enough: when the Back button lands on an address htmx pushed (``HX-Push-Url``) and
the page is not in htmx's history cache, htmx fetches it again with both ``HX-Request`` and
``HX-History-Restore-Request`` and puts the answer in place of the whole ``<body>``. That answer
must be the whole page (navigation included), not the fragment an htmx swap would get (htmx
PR #2013). Whether a page is a fragment depends on a request header, so every answer that asked
says ``Vary: HX-Request``: a browser or proxy cache then never serves the fragment for a
full-page load of the same address, nor the reverse.

Validation refusals keep their real status (409 conflict, 422 cannot be saved as typed): the
``responseHandling`` entry in ``templates/base.html``'s htmx config swaps those two like a 200.
"""

from __future__ import annotations

from flask import Flask, Response, g, request

#: the request headers htmx sends (https://htmx.org/reference/#request_headers)
REQUEST = "HX-Request"
HISTORY_RESTORE = "HX-History-Restore-Request"
TARGET = "HX-Target"

_ASKED = "_htmx_asked"  # flask.g flag: this request's answer depends on REQUEST


def is_htmx() -> bool:
    """True when the answer should be an htmx fragment: an htmx request that is not a history
    restore (which replaces the whole body, so it needs the whole page)."""
    setattr(g, _ASKED, True)
    return request.headers.get(REQUEST) == "true" and not is_history_restore()


def is_history_restore() -> bool:
    """True for htmx reloading a pushed address after a history cache miss (Back button)."""
    return request.headers.get(HISTORY_RESTORE) == "true"


def targets(element_id: str) -> bool:
    """True for an htmx request that swaps only the element with id ``element_id``."""
    return is_htmx() and request.headers.get(TARGET) == element_id


def navigate(target: str) -> Response:
    """Ask htmx to load ``target`` as a whole page (instead of swapping an answer into a
    fragment): 204 with ``HX-Redirect``."""
    return Response(status=204, headers={"HX-Redirect": target})


def reload_page() -> Response:
    """Ask htmx to reload the current page as a whole: 204 with ``HX-Refresh``."""
    return Response(status=204, headers={"HX-Refresh": "true"})


def retarget(selector: str) -> dict[str, str]:
    """Response headers that swap an htmx answer over ``selector`` (its outer HTML) instead of
    the requesting element's target: an answer that redraws more than was asked for."""
    return {"HX-Retarget": selector, "HX-Reswap": "outerHTML"}


def push_url(url: str) -> dict[str, str]:
    """Response headers that point the address bar at ``url`` after an htmx swap."""
    return {"HX-Push-Url": url}


def keep_url() -> dict[str, str]:
    """Response headers that leave the address bar as it is after an htmx swap. A refused POST
    in a boosted part of the page needs it: htmx would otherwise push the POST's own address,
    which a reload then asks for with GET (405) and the typed entry is lost."""
    return {"HX-Push-Url": "false"}


def _vary(response: Response) -> Response:
    if getattr(g, _ASKED, False):
        response.vary.add(REQUEST)
    return response


def init_htmx(app: Flask) -> None:
    """Add ``Vary: HX-Request`` to every answer whose shape depended on :func:`is_htmx`."""
    app.after_request(_vary)
