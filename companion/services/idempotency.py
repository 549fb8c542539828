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

This module is the plain part (keys, digests, claims, stored answers, on plain values); the
request's hooks, its key and values and the answers' pages are :mod:`companion.web.idempotency`'s.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum
from typing import IO

from flask import abort, g, has_request_context
from flask_babel import gettext as _
from sqlalchemy import delete, event, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from werkzeug.datastructures import Headers

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
#: the answer's headers kept and sent again with it (where a redirect goes; never a body)
KEPT_HEADERS = ("Location", "HX-Push-Url", "HX-Redirect", "HX-Trigger")
#: form fields that are not the entry's values: not compared between a key's arrivals
REQUEST_FIELDS_SKIPPED = ("csrf_token", "idempotency_key")
#: the header on a repeated answer (for the outbox and for tests)
REPLAY_HEADER = "Idempotent-Replay"

_G_KEY = "idempotency_key"


class KeyState(StrEnum):
    """Where a claimed key stands (column ``IdempotencyKey.state``)."""

    PENDING = "pending"
    APPLIED = "applied"
    DONE = "done"


@dataclass(frozen=True)
class Answer:
    """The answer to a repeat, as plain values: ``status``, ``headers`` and ``body`` as sent;
    ``in_words``: a page in words instead (:func:`replay_words`; ``changed``: the repeat's
    values differ from the first arrival's)."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: str = ""
    in_words: bool = False
    changed: bool = False


def checked_key(key: str) -> str:
    """``key`` as sent, when it looks like a key; 400 (in words) otherwise."""
    if not KEY_PATTERN.fullmatch(key):
        abort(400, description=_("This entry's key is not valid; it was not saved."))
    return key


def scoped_key(key: str, device_token: str) -> str:
    """The row's key: a digest (64 hex characters) of the phone's device id and the key it
    sent, so one phone's key never meets another phone's."""
    return hashlib.sha256(f"{device_token}\n{key}".encode()).hexdigest()


def values_digest(
    fields: Iterable[tuple[str, str]], files: Iterable[tuple[str, str | None, IO[bytes]]] = ()
) -> str:
    """A digest (64 hex characters) of a post's form ``fields`` (name, value pairs; without
    :data:`REQUEST_FIELDS_SKIPPED`) and of its ``files`` (field name, file name, stream), each
    stream read in chunks from the start and rewound for the view. A form without files has
    the digest older versions stored."""
    kept = sorted((name, value) for name, value in fields if name not in REQUEST_FIELDS_SKIPPED)
    digest = hashlib.sha256(repr(kept).encode())
    for name, filename, stream in sorted(files, key=lambda item: item[0]):
        stream.seek(0)
        content = hashlib.file_digest(stream, "sha256").hexdigest()  # type: ignore[arg-type]
        stream.seek(0)
        digest.update(repr((name, filename, content)).encode())
    return digest.hexdigest()


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


def forget_old() -> None:
    """Delete the keys older than :data:`KEEP_FOR`."""
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


def replay_words(status: int, *, changed: bool = False) -> tuple[int, str]:
    """The status and the words of a repeat whose first answer was not a redirect: what
    happened to the first arrival. ``changed``: the repeat's values differ from the first
    arrival's, which were kept (409)."""
    if changed:
        return 409, _(
            "This entry was already sent from this phone with other values. The values sent "
            "first were kept; these were not saved. Open the page to see what is saved, then "
            "change it there if needed."
        )
    if status < 300:
        return status, _(
            "This entry was already sent from this phone and taken. Open the page to see it."
        )
    if status == 409:
        return status, _(
            "This entry was already sent from this phone and was not saved: the game had "
            "changed on another phone. Open the page to see what is saved."
        )
    return status, _(
        "This entry was already sent from this phone and was refused; nothing of it was "
        "saved. Open the page to see what is saved."
    )


def stored_answer(headers: Mapping[str, str] | None, status: int | None) -> Answer:
    """A finished first arrival's answer for a repeat: the same redirect (its kept headers,
    marked :data:`REPLAY_HEADER`), or the same status in words."""
    if status is not None and 300 <= status < 400:
        return Answer(status, {**(headers or {}), REPLAY_HEADER: "true"})
    return Answer(status or 200, in_words=True)


def claim_or_answer(key: str, path: str, digest: str | None = None) -> Answer | None:
    """None when this request claimed ``key`` (a :func:`scoped_key`: it runs the view);
    otherwise the answer to give: the first request's, "the first values were kept" when
    ``digest`` (:func:`values_digest`) differs from the first's, or a "try again later"
    while the first is still running. 422 (in words) when ``key`` was sent to another
    ``path``."""
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
            return Answer(409, in_words=True, changed=True)
        if row.state == KeyState.DONE:
            return stored_answer(row.headers, row.status_code)
        stale = row.created_at < utcnow() - STALE_AFTER
        if stale and row.state == KeyState.PENDING and _take_over(key, row.created_at):
            return None
        if stale:  # applied, but its answer was never stored: say it is saved
            return Answer(303, {"Location": path})
        if time.monotonic() > deadline:
            return Answer(
                503,
                {"Retry-After": "5"},
                body=_("Still being saved; this phone will send it again."),
            )
        time.sleep(POLL_SECONDS)


def mark_applied(key: str) -> None:
    """Move the claim of ``key`` to ``applied`` in the session's transaction (committed with
    whatever the view commits)."""
    db.session.execute(
        update(IdempotencyKey)
        .where(IdempotencyKey.key == key, IdempotencyKey.state == str(KeyState.PENDING))
        .values(state=str(KeyState.APPLIED))
    )


def hold_key(key: str) -> None:
    """Make ``key`` (claimed) the one this request's commits apply (:func:`listen_for_commits`)."""
    g.setdefault(_G_KEY, key)


def release_key() -> str | None:
    """The key this request held (no longer held), or None."""
    key: str | None = g.pop(_G_KEY, None)
    return key


def _mark_applied(session: Session) -> None:
    """Commit the held claim's move to ``applied`` with whatever the view commits."""
    if not has_request_context():
        return
    key = g.get(_G_KEY)
    if key is not None:
        mark_applied(key)


def listen_for_commits() -> None:
    """Move a held key's claim to ``applied`` with every commit (a ``before_commit`` hook, once
    per process), so a change never lands without its key saying so."""
    if not event.contains(Session, "before_commit", _mark_applied):
        event.listen(Session, "before_commit", _mark_applied)


def store_answer(key: str, status: int, headers: Headers | Mapping[str, str]) -> None:
    """Keep the winner's answer (its ``status`` and response ``headers``) for every repeat,
    small (a status, where a redirect goes). Free the key instead when nothing was applied
    (the claim is still ``pending``) and the answer is not a redirect: a server error, or a
    refusal or a page (the hand form with what was wrong in it) that changed nothing. A repeat
    is then judged again and answered with the page itself, rendered for it; no page is ever
    kept."""
    db.session.rollback()
    freed = 0
    if status >= 500 or not 300 <= status < 400:
        freed = getattr(
            db.session.execute(
                delete(IdempotencyKey).where(
                    IdempotencyKey.key == key, IdempotencyKey.state == str(KeyState.PENDING)
                )
            ),
            "rowcount",
            0,
        )
    if status < 500 and not freed:
        # Small: the status and where a redirect goes. Never the page itself: it holds this
        # phone's CSRF token (or a photo), and a repeat is answered in words instead.
        kept = {h: headers[h] for h in KEPT_HEADERS if h in headers}
        db.session.execute(
            update(IdempotencyKey)
            .where(IdempotencyKey.key == key)
            .values(state=str(KeyState.DONE), status_code=status, headers=kept, body=None)
        )
    db.session.commit()
