"""The plain part of applying each outbox entry once (companion/services/idempotency.py): a
key claimed once, repeats answered from the stored answer on plain values, the values'
digest, and a key freed when nothing was applied."""

from __future__ import annotations

import io

import pytest
from werkzeug.exceptions import HTTPException

from companion.extensions import db
from companion.services.idempotency import (
    REPLAY_HEADER,
    Answer,
    checked_key,
    claim_or_answer,
    mark_applied,
    replay_words,
    scoped_key,
    store_answer,
    values_digest,
)

PATH = "/g/abc/rounds"


def applied(key: str) -> None:
    """What the view's commit does: the claim moves to applied with the view's change."""
    mark_applied(key)
    db.session.commit()


@pytest.fixture()
def key(app):
    with app.test_request_context():
        yield scoped_key("the-first-phones-key-0001", "device-token")


def test_a_key_is_claimed_once_and_a_repeat_gets_the_stored_redirect(key) -> None:
    assert claim_or_answer(key, PATH, "d1") is None
    applied(key)
    store_answer(key, 303, {"Location": "/g/abc", "Set-Cookie": "s=1"})
    assert claim_or_answer(key, PATH, "d1") == Answer(
        303, {"Location": "/g/abc", REPLAY_HEADER: "true"}
    )


def test_a_repeat_with_other_values_is_told_the_first_were_kept(key) -> None:
    assert claim_or_answer(key, PATH, "d1") is None
    applied(key)
    store_answer(key, 303, {"Location": "/g/abc"})
    answer = claim_or_answer(key, PATH, "d2")
    assert answer == Answer(409, in_words=True, changed=True)
    status, words = replay_words(answer.status, changed=answer.changed)
    assert status == 409 and "The values sent first were kept" in words


def test_an_answer_that_applied_nothing_frees_the_key(key) -> None:
    assert claim_or_answer(key, PATH, "d1") is None
    store_answer(key, 422, {})  # a refused hand: nothing applied, not a redirect
    assert claim_or_answer(key, PATH, "d1") is None  # judged again


def test_an_applied_page_is_replayed_in_words_with_its_status(key) -> None:
    assert claim_or_answer(key, PATH) is None
    applied(key)
    store_answer(key, 200, {"Content-Type": "text/html"})
    assert claim_or_answer(key, PATH) == Answer(200, in_words=True)


def test_a_key_sent_to_another_page_is_refused(key) -> None:
    assert claim_or_answer(key, PATH) is None
    with pytest.raises(HTTPException) as refused:
        claim_or_answer(key, "/g/other/rounds")
    assert refused.value.code == 422


def test_keys_are_scoped_to_the_phone_and_checked(app) -> None:
    assert scoped_key("k" * 8, "phone-1") != scoped_key("k" * 8, "phone-2")
    with app.test_request_context():
        assert checked_key("abcd-1234") == "abcd-1234"
        with pytest.raises(HTTPException) as bad:
            checked_key("short")
        assert bad.value.code == 400


def test_the_digest_skips_the_token_and_compares_files_and_rewinds_them() -> None:
    fields = [("total_1", "12"), ("csrf_token", "a")]
    assert values_digest(fields) == values_digest([("csrf_token", "b"), ("total_1", "12")])
    assert values_digest(fields) != values_digest([("total_1", "13")])
    photo = io.BytesIO(b"jpeg-1")
    first = values_digest(fields, [("photo", "p.jpg", photo)])
    assert photo.tell() == 0
    assert first != values_digest(fields, [("photo", "p.jpg", io.BytesIO(b"jpeg-2"))])
    assert first == values_digest(fields, [("photo", "p.jpg", io.BytesIO(b"jpeg-1"))])
