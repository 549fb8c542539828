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
        assert answer.status_code == 303 and f"/j/{game.share_token}" in answer.location
        assert REPLAY_HEADER not in answer.headers
    assert hands(game) == {seat_ids(game)["Ann"]: 12}


def test_stored_answers_hold_no_page(app, client, game):
    ann = joined(app, game, "Ann")
    ann.post(f"/p/{game.share_token}", data={"double": "6", "total": "x"}, headers={HEADER: KEY})
    client.post(f"/g/{game.edit_token}/round", data={"double": "6"}, headers={HEADER: KEY + "2"})
    db.session.expire_all()
    rows = list(db.session.scalars(select(IdempotencyKey)))
    assert len(rows) == 2 and {r.state for r in rows} == {"done"}
    for row in rows:
        assert not row.body
        assert set(row.headers or {}) <= {"Location", "HX-Push-Url", "HX-Redirect", "HX-Trigger"}
        assert KEY not in row.key  # a digest of the phone's device and the key
    # the refused entry's repeat: the same status, in words, no page of the first answer
    again = ann.post(
        f"/p/{game.share_token}", data={"double": "6", "total": "x"}, headers={HEADER: KEY}
    )
    assert again.status_code == 422 and again.headers[REPLAY_HEADER] == "true"
    assert "already sent from this phone and was refused" in text(again)


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
