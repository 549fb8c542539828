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

A key is bound to the address it was first posted to: the same key on another page is refused,
so a stored answer can never be shown for another game. Rows older than :data:`KEEP_FOR` are
deleted when new keys are claimed.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta
from enum import StrEnum

from flask import Flask, Response, abort, g, has_request_context, request
from flask_babel import gettext as _
from sqlalchemy import delete, event, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..extensions import db
from ..models import IdempotencyKey, utcnow

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
#: the answer's headers kept and sent again with it
KEPT_HEADERS = ("Location", "Content-Type", "HX-Push-Url", "HX-Redirect", "HX-Trigger")
#: the header on a repeated answer (for the outbox and for tests)
REPLAY_HEADER = "Idempotent-Replay"

_G_KEY = "idempotency_key"


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


def _claim(key: str, path: str) -> bool:
    """Insert the key's row and commit: True when this request won it."""
    db.session.add(IdempotencyKey(key=key, path=path, state=str(KeyState.PENDING)))
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


def _stored_answer(
    headers: dict[str, str] | None, status: int | None, body: str | None
) -> Response:
    response = Response(body or "", status=status or 200)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    response.headers[REPLAY_HEADER] = "true"
    return response


def claim_or_answer(key: str, path: str) -> Response | None:
    """None when this request claimed ``key`` (it runs the view); otherwise the answer to give:
    the first request's, or a "try again later" while it is still running."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        if _claim(key, path):
            return None
        row = db.session.execute(
            select(
                IdempotencyKey.path,
                IdempotencyKey.state,
                IdempotencyKey.status_code,
                IdempotencyKey.headers,
                IdempotencyKey.body,
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
        if row.state == KeyState.DONE:
            return _stored_answer(row.headers, row.status_code, row.body)
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
    """Keep the winner's answer for every repeat; free the key after a server error."""
    db.session.rollback()
    if response.status_code >= 500:
        db.session.execute(
            delete(IdempotencyKey).where(
                IdempotencyKey.key == key, IdempotencyKey.state == str(KeyState.PENDING)
            )
        )
    else:
        body = "" if response.is_streamed else response.get_data(as_text=True)
        headers = {h: response.headers[h] for h in KEPT_HEADERS if h in response.headers}
        db.session.execute(
            update(IdempotencyKey)
            .where(IdempotencyKey.key == key)
            .values(
                state=str(KeyState.DONE),
                status_code=response.status_code,
                headers=headers,
                body=body,
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
        key = request_key()
        if key is None:
            return None
        _forget_old()
        answer = claim_or_answer(key, request.path)
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
