"""A form sent with an expired or missing CSRF token loses nothing: the same form comes back
with everything typed still in it and a sentence saying why, and one more tap sends it.

The token goes stale when a page stays open too long (``WTF_CSRF_TIME_LIMIT``), the browser
dropped its session cookie, or the server's secret changed. Flask-WTF refuses such a post
before the view runs. Instead of a bare error page, :func:`init_stale_forms` answers it by
running the view once more *as a replay*: the stale token is removed from the posted fields,
so every form the view validates fails on its token and is shown again as typed (rendering a
form puts a fresh token in it); and any attempt to commit to the database during the replay is
stopped, so nothing is saved whatever the view does. A view that tries to save without
validating a form gets the plain "nothing was saved" page instead. Every such answer carries
:data:`STALE_HEADER`, so the phone's outbox (static/js/offline.js) never takes it for a save.
"""

from __future__ import annotations

from typing import Any

from flask import (
    Flask,
    current_app,
    flash,
    g,
    has_request_context,
    render_template,
    request,
    session,
)
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy import event
from sqlalchemy.orm import Session
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import HTTPException

from .htmx import is_htmx

#: ``g`` attribute set while a view runs as a replay of a stale form
REPLAY_FLAG = "stale_form_replay"
#: the flash category of the "page open too long" notice
CATEGORY = "error"
#: the response header of every answer to a form refused for its token, whatever its status
#: (the form shown again, or a refusal page): static/js/offline.js never takes such an answer
#: for a save, keeps the entry and sends it again with the token of its page loaded again
STALE_HEADER = "X-Stale-Form"


class ReplayWouldSave(RuntimeError):
    """A view tried to commit while replaying a stale form: nothing may be saved."""


def stale_form() -> bool:
    """True while the current request replays a form whose CSRF token was stale."""
    return has_request_context() and bool(g.get(REPLAY_FLAG))


def stale_message() -> str:
    """The notice shown above a form sent back because its token was stale."""
    return _(
        "This page was open too long, so nothing was saved yet. Everything you typed is still "
        "here: check it and tap the button again."
    )


def _refuse_commit_in_replay(_session: Session) -> None:
    if stale_form():
        raise ReplayWouldSave("a stale form's replay tried to save")


def _refusal_page() -> Any:
    return render_template(
        "error.html",
        code=400,
        title=_("This form could not be accepted"),
        description=_(
            "This page was open too long. Nothing was saved: go back, reload the page and "
            "try again."
        ),
    ), 400


def _replay(app: Flask) -> Any:
    """Run the request's view again with the stale token removed. Its answer when it shows a
    page (the form again, as typed); None when it has none for this request, tried to save,
    or answered with a redirect (a one-button form: nothing typed to keep)."""
    view = app.view_functions.get(request.endpoint or "")
    if view is None or request.method != "POST":
        return None
    # A phone whose session was lost is a new device: record it now, before the replay (which
    # may not commit), so the view can tell it that it no longer keeps score, with what it typed.
    from ..access import current_device

    try:
        current_device()
    except HTTPException as refused:  # 429: too many new phones from this address
        return refused.get_response()
    fields = request.form.copy()
    fields.pop("csrf_token", None)
    request.form = ImmutableMultiDict(fields)  # werkzeug allows it
    mark = len(session.get("_flashes", []))
    setattr(g, REPLAY_FLAG, True)
    flash(stale_message(), CATEGORY)
    try:
        answer = app.ensure_sync(view)(**(request.view_args or {}))
    except HTTPException as exc:  # the view's own refusal (404, 429, ...): as usual
        _forget_flashes(mark)
        return app.handle_user_exception(exc)
    except ReplayWouldSave:
        from ..extensions import db

        db.session.rollback()
        _forget_flashes(mark)
        return None
    finally:
        setattr(g, REPLAY_FLAG, False)
    response = app.make_response(answer)
    if 300 <= response.status_code < 400 or "HX-Redirect" in response.headers:
        _forget_flashes(mark)
        return None
    if response.status_code == 200 and not is_htmx():
        response.status_code = 400  # shown again, not accepted (htmx swaps only 2xx)
    return response


def _forget_flashes(mark: int) -> None:
    """Drop the messages flashed since there were ``mark`` of them (the replay's own)."""
    flashes = session.get("_flashes")
    if flashes and len(flashes) > mark:
        session["_flashes"] = flashes[:mark]


def init_stale_forms(app: Flask) -> None:
    """Answer every CSRF refusal of a form by showing the form again as it was typed."""
    if not event.contains(Session, "before_commit", _refuse_commit_in_replay):
        event.listen(Session, "before_commit", _refuse_commit_in_replay)

    @app.errorhandler(CSRFError)
    def _csrf_error(exc: CSRFError) -> Any:
        if stale_form():  # the view checks the token itself (a photo upload): no second replay
            answer = _refusal_page()
        else:
            current_app.logger.info("stale form replayed: %s", exc.description)
            answer = _replay(app) or _refusal_page()
        response = app.make_response(answer)
        response.headers[STALE_HEADER] = "1"
        return response
