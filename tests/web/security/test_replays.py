"""Idempotency keys belong to the phone that sent them (issue 21, item 3): another phone's
replay of a key never gets the first phone's answer and still has its own entry applied;
stored answers are small (a status, a redirect; never a page with a CSRF token, never a
photo); a key replayed with other values is told that the first ones were kept."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from companion.extensions import db
from companion.models import HandPost, IdempotencyKey
from companion.services.idempotency import HEADER, REPLAY_HEADER
from tests.web.playkit import make_game, seat_ids, text

KEY = "the-first-phones-key-0001"


@pytest.fixture()
def game(client):
    game = make_game(("Ann", "Bob", "Cy"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    return game


def joined(app, game, name):
    phone = app.test_client()
    r = phone.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)[name]})
    assert r.status_code == 303
    return phone


def hands(game) -> dict[int, int | None]:
    db.session.expire_all()
    rows = db.session.scalars(select(HandPost).where(HandPost.game_id == game.id))
    return {row.seat_id: row.total for row in rows}


def test_another_phones_replay_of_a_key_is_its_own_entry(app, game):
    ann, bob = joined(app, game, "Ann"), joined(app, game, "Bob")
    share = game.share_token
    first = ann.post(f"/p/{share}", data={"double": "6", "total": "12"}, headers={HEADER: KEY})
    assert first.status_code == 303
    # Bob's phone sends Ann's key (seen on the network, or a colliding key): Bob's hand is
    # posted, and Bob is not answered with Ann's answer
    theirs = bob.post(f"/p/{share}", data={"double": "6", "total": "7"}, headers={HEADER: KEY})
    assert theirs.status_code == 303 and REPLAY_HEADER not in theirs.headers
    assert hands(game) == {seat_ids(game)["Ann"]: 12, seat_ids(game)["Bob"]: 7}


def test_a_viewer_replaying_a_key_gets_nothing_of_the_first_phone(app, client, game):
    """The first phone's answer (a page holding its CSRF token) went to a viewer that sent
    its key; now the viewer gets its own answer, however often it sends the key."""
    ann = joined(app, game, "Ann")
    first = ann.post(
        f"/p/{game.share_token}", data={"double": "6", "total": "12"}, headers={HEADER: KEY}
    )
    assert first.status_code == 303
    viewer = app.test_client()
    for _ in range(2):
        answer = viewer.post(
            f"/p/{game.share_token}", data={"double": "6", "total": "3"}, headers={HEADER: KEY}
        )
        # its own answer: the hand of a phone holding no seat refused with how to join
        assert answer.status_code == 403 and "has not joined a seat of this game" in text(answer)
        assert REPLAY_HEADER not in answer.headers
    assert hands(game) == {seat_ids(game)["Ann"]: 12}


def test_stored_answers_hold_no_page(app, client, game):
    ann, bob = joined(app, game, "Ann"), joined(app, game, "Bob")
    share = game.share_token
    ann.post(f"/p/{share}", data={"double": "6", "total": "12"}, headers={HEADER: KEY})
    refused = {"double": "6", "total": "x"}
    first = bob.post(f"/p/{share}", data=refused, headers={HEADER: KEY})
    assert first.status_code == 422
    db.session.expire_all()
    rows = list(db.session.scalars(select(IdempotencyKey)))
    # the saved hand keeps a small answer; the refusal, which changed nothing, keeps none
    assert len(rows) == 1 and rows[0].state == "done" and rows[0].status_code == 303
    assert not rows[0].body and set(rows[0].headers or {}) == {"Location"}
    assert KEY not in rows[0].key  # a digest of the phone's device and the key
    # the refused entry sent again is judged again: the form, with what was wrong, for it
    again = bob.post(f"/p/{share}", data=refused, headers={HEADER: KEY})
    assert again.status_code == 422 and REPLAY_HEADER not in again.headers
    assert text(again) == text(first)
    assert hands(game) == {seat_ids(game)["Ann"]: 12}


def test_a_replay_with_other_values_says_the_first_were_kept(app, game):
    ann = joined(app, game, "Ann")
    share = game.share_token
    first = ann.post(f"/p/{share}", data={"double": "6", "total": "12"}, headers={HEADER: KEY})
    assert first.status_code == 303
    changed = ann.post(f"/p/{share}", data={"double": "6", "total": "15"}, headers={HEADER: KEY})
    assert changed.status_code == 409
    words = text(changed)
    assert "already sent from this phone with other values" in words
    assert "The values sent first were kept; these were not saved." in words
    assert hands(game) == {seat_ids(game)["Ann"]: 12}
    # the same values again: the first answer, not a conflict
    same = ann.post(f"/p/{share}", data={"double": "6", "total": "12"}, headers={HEADER: KEY})
    assert same.status_code == 303 and same.headers[REPLAY_HEADER] == "true"
