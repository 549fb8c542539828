"""Each entry a phone's outbox sends is applied exactly once, however many times it arrives.

A phone that lost the Wi-Fi keeps a round, a correction or a posted hand in its outbox
(static/js/offline.js) and sends it again when the connection returns; a request whose answer
was lost on the way back is sent again too. Each entry carries a key of its own in the
``Idempotency-Key`` header. For any POST with that header:

1. Before the view, the request *claims* the key: it inserts an :class:`IdempotencyKey` row
   and commits. The key is the primary key, so the database lets exactly one request win, on
   any app server and under any concurrency (a unique constraint, not a check-then-insert).
2. The winner runs the view as usual. Whatever the view commits is committed together with the
   row's move to ``applied`` (a ``before_commit`` hook), so a change never lands without its
   key saying so. After the view, the answer (status, body, a few headers) is stored: ``done``.
3. A losing request waits (polling, at most :data:`WAIT_SECONDS`) for the winner's answer and
   gets exactly that answer: the same redirect, or the same "saved on another phone" page.
   A server error frees the key (nothing was applied), so the next try runs the view again.

A key belongs to the phone that sent it: the row is keyed by a digest of the phone's device id
and the key (:func:`scoped_key`), so another phone sending the same key claims a key of its own
(its own entry is applied, and it never gets the first phone's answer). A key is bound to the
address it was first posted to: the same key on another page is refused, so a stored answer can
never be shown for another game. Stored answers are small: the status and, for a redirect, where
to; never a page (which would hold the phone's CSRF token, or a photo). A repeat is answered from
them: the same redirect, or the same status with words that say the entry was already answered
(:func:`_replayed`). An answer that applied nothing and is not a redirect (a refused hand, the
form with what was wrong in it) frees the key: a repeat is judged again and gets that page,
rendered for it. A repeat whose form (fields and files) differs from the first is not applied
and is told that the first values were kept (:data:`REQUEST_FIELDS_SKIPPED` are not compared);
an upload larger than the app's body limit (an import) is compared once its view has read it
within its own bound (:func:`compares_upload`), never read before. Rows older than
:data:`KEEP_FOR` are deleted when new keys are claimed.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from datetime import timedelta
from enum import StrEnum
from typing import Any

from flask import (
    Flask,
    Response,
    abort,
    current_app,
    g,
    has_request_context,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from sqlalchemy import delete, event, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from werkzeug.exceptions import HTTPException

from ..access import DEVICE_KEY
from ..extensions import db
from ..models import IdempotencyKey, utcnow
from ..web.htmx import is_htmx

#: the request header that carries an outbox entry's key
HEADER = "Idempotency-Key"
#: the form field that carries it instead, when offline.js lets the browser post the form itself
FIELD = "idempotency_key"
#: what a key may look like: a UUID or any 8 to 64 URL-safe characters
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: seconds a repeat waits for the first request's answer before asking to be sent again later
WAIT_SECONDS = 15.0
#: seconds between two looks at the first request's answer while waiting
POLL_SECONDS = 0.05
#: a claim still pending after this long belongs to a request that died: the next one takes over
STALE_AFTER = timedelta(minutes=2)
#: how long a key and its answer are kept (an outbox older than this is long gone)
KEEP_FOR = timedelta(days=30)
#: the answer's headers kept and sent again with it (where a redirect goes; never a body)
KEPT_HEADERS = ("Location", "HX-Push-Url", "HX-Redirect", "HX-Trigger")
#: form fields that are not the entry's values: not compared between a key's arrivals
REQUEST_FIELDS_SKIPPED = ("csrf_token", "idempotency_key")
#: the header on a repeated answer (for the outbox and for tests)
REPLAY_HEADER = "Idempotent-Replay"

_G_KEY = "idempotency_key"
_G_DEFERRED = "idempotency_deferred_key"
_UPLOAD_MARK = "compares_upload"


class KeyState(StrEnum):
    """Where a claimed key stands (column ``IdempotencyKey.state``)."""

    PENDING = "pending"
    APPLIED = "applied"
    DONE = "done"


def request_key() -> str | None:
    """The key of the current POST, None when it carries none; 400 for a malformed one."""
    if request.method != "POST":
        return None
    key = request.headers.get(HEADER)
    if key is None and request.mimetype == "application/x-www-form-urlencoded":
        # (never an upload: a view may bound its size before anything reads the body)
        key = request.form.get(FIELD)
    if key is None:
        return None
    if not KEY_PATTERN.fullmatch(key):
        abort(400, description=_("This entry's key is not valid; it was not saved."))
    return key


def scoped_key(key: str, device_token: str) -> str:
    """The row's key: a digest (64 hex characters) of the phone's device id and the key it
    sent, so one phone's key never meets another phone's."""
    return hashlib.sha256(f"{device_token}\n{key}".encode()).hexdigest()


def request_digest() -> str | None:
    """A digest of this POST's values (:func:`values_digest`), urlencoded or multipart (a
    multipart replay with other values was answered as a replay). None for a multipart body
    larger than the app's ``MAX_CONTENT_LENGTH`` (a photo or an import): its body is never
    read before its view sets its own size bound; a view that takes such an upload compares
    it once it has read it (:func:`compares_upload`, :func:`claim_upload`)."""
    if request.mimetype == "multipart/form-data":
        if _larger_than_a_form():
            return None
    elif request.mimetype != "application/x-www-form-urlencoded":
        return None
    return values_digest()


def _larger_than_a_form() -> bool:
    """True for a body of unknown size or over the app's ``MAX_CONTENT_LENGTH``."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    return request.content_length is None or bool(limit and request.content_length > limit)


def values_digest() -> str:
    """A digest (64 hex characters) of this request's form fields (without
    :data:`REQUEST_FIELDS_SKIPPED`) and of its files' names and contents, each file read in
    chunks from where the form parser put it (memory, or a temporary file for a large one)
    and rewound for the view. A form without files has the digest older versions stored."""
    fields = sorted(
        (name, value)
        for name, values in request.form.lists()
        if name not in REQUEST_FIELDS_SKIPPED
        for value in values
    )
    digest = hashlib.sha256(repr(fields).encode())
    for name, upload in sorted(request.files.items(multi=True), key=lambda item: item[0]):
        upload.stream.seek(0)
        content = hashlib.file_digest(upload.stream, "sha256").hexdigest()  # type: ignore[arg-type]
        upload.stream.seek(0)
        digest.update(repr((name, upload.filename, content)).encode())
    return digest.hexdigest()


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
    answer = claim_or_answer(key, request.path, values_digest())
    if answer is not None:
        abort(answer)
    g.setdefault(_G_KEY, key)


def _defers_its_claim() -> bool:
    """True for a large multipart body sent to a :func:`compares_upload` view."""
    if request.mimetype != "multipart/form-data" or not _larger_than_a_form():
        return False
    view = current_app.view_functions.get(request.endpoint or "")
    return bool(getattr(view, _UPLOAD_MARK, False))


def _claim(key: str, path: str, digest: str | None) -> bool:
    """Insert the key's row and commit: True when this request won it."""
    db.session.add(
        IdempotencyKey(key=key, path=path, state=str(KeyState.PENDING), request_digest=digest)
    )
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return False
    return True


def _forget_old() -> None:
    db.session.execute(
        delete(IdempotencyKey).where(IdempotencyKey.created_at < utcnow() - KEEP_FOR)
    )
    db.session.commit()


def _take_over(key: str, since: object) -> bool:
    """Claim a key whose first request died before it applied anything (True when won)."""
    taken = db.session.execute(
        update(IdempotencyKey)
        .where(
            IdempotencyKey.key == key,
            IdempotencyKey.state == str(KeyState.PENDING),
            IdempotencyKey.created_at == since,
        )
        .values(created_at=utcnow())
    )
    db.session.commit()
    return bool(getattr(taken, "rowcount", 0))


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
    now, for this phone: no page of the first answer is kept). ``changed``: the repeat's
    values differ from the first arrival's, which were kept. htmx reloads the page instead."""
    if changed:
        status = 409
        words = _(
            "This entry was already sent from this phone with other values. The values sent "
            "first were kept; these were not saved. Open the page to see what is saved, then "
            "change it there if needed."
        )
    elif status < 300:
        words = _("This entry was already sent from this phone and taken. Open the page to see it.")
    elif status == 409:
        words = _(
            "This entry was already sent from this phone and was not saved: the game had "
            "changed on another phone. Open the page to see what is saved."
        )
    else:
        words = _(
            "This entry was already sent from this phone and was refused; nothing of it was "
            "saved. Open the page to see what is saved."
        )
    body = render_template("replayed.html", code=status, words=words, page=_page_of(path))
    response = Response(body, status=status)
    if is_htmx() and status < 300:
        response.headers["HX-Refresh"] = "true"
    response.headers[REPLAY_HEADER] = "true"
    return response


def _stored_answer(headers: dict[str, str] | None, status: int | None, path: str) -> Response:
    if status is not None and 300 <= status < 400:
        response = Response(status=status)
        for name, value in (headers or {}).items():
            response.headers[name] = value
        response.headers[REPLAY_HEADER] = "true"
        return response
    return _replayed(status or 200, path)


def claim_or_answer(key: str, path: str, digest: str | None = None) -> Response | None:
    """None when this request claimed ``key`` (a :func:`scoped_key`: it runs the view);
    otherwise the answer to give: the first request's, "the first values were kept" when
    ``digest`` (:func:`request_digest`) differs from the first's, or a "try again later"
    while the first is still running."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        if _claim(key, path, digest):
            return None
        row = db.session.execute(
            select(
                IdempotencyKey.path,
                IdempotencyKey.state,
                IdempotencyKey.status_code,
                IdempotencyKey.headers,
                IdempotencyKey.request_digest,
                IdempotencyKey.created_at,
            ).where(IdempotencyKey.key == key)
        ).one_or_none()
        # a fresh snapshot at the next look (SQLite keeps one per transaction)
        db.session.rollback()
        if row is None:
            continue  # the first request failed and freed the key: claim it again
        if row.path != path:
            abort(
                422, description=_("This entry was already sent to another page; it was not saved.")
            )
        if digest and row.request_digest and digest != row.request_digest:
            return _replayed(409, path, changed=True)
        if row.state == KeyState.DONE:
            return _stored_answer(row.headers, row.status_code, path)
        stale = row.created_at < utcnow() - STALE_AFTER
        if stale and row.state == KeyState.PENDING and _take_over(key, row.created_at):
            return None
        if stale:  # applied, but its answer was never stored: say it is saved
            return Response(status=303, headers={"Location": path})
        if time.monotonic() > deadline:
            busy = Response(_("Still being saved; this phone will send it again."), status=503)
            busy.headers["Retry-After"] = "5"
            return busy
        time.sleep(POLL_SECONDS)


def _mark_applied(session: Session) -> None:
    """Commit the claim's move to ``applied`` with whatever the view commits."""
    if not has_request_context():
        return
    key = g.get(_G_KEY)
    if key is None:
        return
    session.execute(
        update(IdempotencyKey)
        .where(IdempotencyKey.key == key, IdempotencyKey.state == str(KeyState.PENDING))
        .values(state=str(KeyState.APPLIED))
    )


def store_answer(key: str, response: Response) -> None:
    """Keep the winner's answer for every repeat, small (a status, where a redirect goes).
    Free the key instead when nothing was applied (the claim is still ``pending``) and the
    answer is not a redirect: a server error, or a refusal or a page (the hand form with what
    was wrong in it) that changed nothing. A repeat is then judged again and answered with the
    page itself, rendered for it; no page is ever kept."""
    db.session.rollback()
    freed = 0
    if response.status_code >= 500 or not 300 <= response.status_code < 400:
        freed = getattr(
            db.session.execute(
                delete(IdempotencyKey).where(
                    IdempotencyKey.key == key, IdempotencyKey.state == str(KeyState.PENDING)
                )
            ),
            "rowcount",
            0,
        )
    if response.status_code < 500 and not freed:
        # Small: the status and where a redirect goes. Never the page itself: it holds this
        # phone's CSRF token (or a photo), and a repeat is answered in words instead.
        headers = {h: response.headers[h] for h in KEPT_HEADERS if h in response.headers}
        db.session.execute(
            update(IdempotencyKey)
            .where(IdempotencyKey.key == key)
            .values(
                state=str(KeyState.DONE),
                status_code=response.status_code,
                headers=headers,
                body=None,
            )
        )
    db.session.commit()


def init_idempotency(app: Flask) -> None:
    """Apply every POST that carries an ``Idempotency-Key`` exactly once (see the module doc).
    Registered after CSRF protection, so a refused form never claims a key."""
    if not event.contains(Session, "before_commit", _mark_applied):
        event.listen(Session, "before_commit", _mark_applied)

    @app.before_request
    def _claim_key() -> Response | None:
        sent = request_key()
        if sent is None:
            return None
        _forget_old()
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
            g.setdefault(_G_KEY, key)
        return answer

    @app.after_request
    def _store(response: Response) -> Response:
        key = g.pop(_G_KEY, None)
        if key is not None:
            store_answer(key, response)
        return response

    @app.teardown_request
    def _free(exc: BaseException | None) -> None:
        key = g.pop(_G_KEY, None)
        if key is not None:  # the view raised and no answer was made: nothing was applied
            store_answer(key, Response(status=500))
