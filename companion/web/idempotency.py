"""The request-level half of applying each outbox entry once (the plain half, and the whole
story, is :mod:`companion.services.idempotency`): the hooks that claim a POST's key before its
view and store its answer after (:func:`init_idempotency`), the key and the values of the
request at hand, the deferred claim of a view that bounds its own upload
(:func:`compares_upload`, :func:`claim_upload`), and the answer a repeat gets, rendered for
this phone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (
    Flask,
    Response,
    abort,
    current_app,
    g,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.exceptions import HTTPException

from ..access import DEVICE_KEY
from ..services.idempotency import (
    FIELD,
    HEADER,
    REPLAY_HEADER,
    Answer,
    checked_key,
    claim_or_answer,
    forget_old,
    hold_key,
    listen_for_commits,
    release_key,
    replay_words,
    scoped_key,
    store_answer,
    values_digest,
)
from . import query
from .htmx import is_htmx

_G_DEFERRED = "idempotency_deferred_key"
_UPLOAD_MARK = "compares_upload"


def request_key() -> str | None:
    """The key of the current POST, None when it carries none; 400 for a malformed one."""
    if request.method != "POST":
        return None
    key = request.headers.get(HEADER)
    if key is None and request.mimetype == "application/x-www-form-urlencoded":
        # (never an upload: a view may bound its size before anything reads the body)
        key = query.posted().get(FIELD)
    if key is None:
        return None
    return checked_key(key)


def request_digest() -> str | None:
    """A digest of this POST's values (:func:`posted_digest`), urlencoded or multipart (a
    multipart replay with other values was answered as a replay). None for a multipart body
    larger than the app's ``MAX_CONTENT_LENGTH`` (a photo or an import): its body is never
    read before its view sets its own size bound; a view that takes such an upload compares
    it once it has read it (:func:`compares_upload`, :func:`claim_upload`)."""
    if request.mimetype == "multipart/form-data":
        if _larger_than_a_form():
            return None
    elif request.mimetype != "application/x-www-form-urlencoded":
        return None
    return posted_digest()


def _larger_than_a_form() -> bool:
    """True for a body of unknown size or over the app's ``MAX_CONTENT_LENGTH``."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    return request.content_length is None or bool(limit and request.content_length > limit)


def posted_digest() -> str:
    """:func:`companion.services.idempotency.values_digest` of this request's form fields and
    files (each read from where the form parser put it: memory, or a temporary file)."""
    fields = ((name, value) for name, values in query.posted().lists() for value in values)
    files = ((name, upload.filename, upload.stream) for name, upload in query.uploads())
    return values_digest(fields, files)


def compares_upload(view: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a view that takes an upload larger than ``MAX_CONTENT_LENGTH`` (it raises its own
    bound): a keyed request's claim waits until the view has read the upload and calls
    :func:`claim_upload`, so a repeat with another file is compared, not taken as the first.
    (Put it nearest the function: the other decorators keep its mark.)"""
    setattr(view, _UPLOAD_MARK, True)
    return view


def claim_upload() -> None:
    """Claim this request's key once its view has read the upload within its own bound
    (a :func:`compares_upload` view, before it changes anything); a repeat is answered here
    with the first arrival's answer, or "the values sent first were kept" (409) when its
    files or fields differ. Nothing to do for a request without a deferred key."""
    key = g.pop(_G_DEFERRED, None)
    if key is None:
        return
    answer = claim_or_answer(key, request.path, posted_digest())
    if answer is not None:
        abort(answer_for(answer, request.path))
    hold_key(key)


def _defers_its_claim() -> bool:
    """True for a large multipart body sent to a :func:`compares_upload` view."""
    if request.mimetype != "multipart/form-data" or not _larger_than_a_form():
        return False
    view = current_app.view_functions.get(request.endpoint or "")
    return bool(getattr(view, _UPLOAD_MARK, False))


def _page_of(path: str) -> str:
    """``path`` when it is a page a GET opens, else the start page: where a repeat's answer
    sends the player to see what is saved."""
    try:
        current_app.url_map.bind("").match(path, method="GET")
    except HTTPException:
        return url_for("games.index")
    return path


def _replayed(status: int, path: str, *, changed: bool = False) -> Response:
    """The answer to a repeat whose first answer was not a redirect: the same status, and
    words saying what happened to the first arrival and where to see what is saved (rendered
    now, for this phone: no page of the first answer is kept). htmx reloads the page
    instead."""
    status, words = replay_words(status, changed=changed)
    body = render_template("replayed.html", code=status, words=words, page=_page_of(path))
    response = Response(body, status=status)
    if is_htmx() and status < 300:
        response.headers["HX-Refresh"] = "true"
    response.headers[REPLAY_HEADER] = "true"
    return response


def answer_for(answer: Answer, path: str) -> Response:
    """The response of a repeat sent to ``path``, from its plain :class:`Answer`."""
    if answer.in_words:
        return _replayed(answer.status, path, changed=answer.changed)
    return Response(answer.body or None, status=answer.status, headers=answer.headers)


def init_idempotency(app: Flask) -> None:
    """Apply every POST that carries an ``Idempotency-Key`` exactly once (see
    :mod:`companion.services.idempotency`). Registered after CSRF protection, so a refused
    form never claims a key."""
    listen_for_commits()

    @app.before_request
    def _claim_key() -> Response | None:
        sent = request_key()
        if sent is None:
            return None
        forget_old()
        # the phone's device id from its signed cookie, without making one; a phone without
        # one has no entry of its own to repeat (an outbox lives on a page that made it one),
        # and cookieless phones must not share one scope
        device = session.get(DEVICE_KEY)
        if not isinstance(device, str):
            return None
        key = scoped_key(sent, device)
        if _defers_its_claim():
            g.setdefault(_G_DEFERRED, key)
            return None
        answer = claim_or_answer(key, request.path, request_digest())
        if answer is None:
            hold_key(key)
            return None
        return answer_for(answer, request.path)

    @app.after_request
    def _store(response: Response) -> Response:
        key = release_key()
        if key is not None:
            store_answer(key, response.status_code, response.headers)
        return response

    @app.teardown_request
    def _free(exc: BaseException | None) -> None:
        key = release_key()
        if key is not None:  # the view raised and no answer was made: nothing was applied
            store_answer(key, 500, {})
