"""Kept typing of a round saved meanwhile, as static/js/kept.js posts it to the save address:
the stale form it was, with no version. A round saved since answers the usual 409 with
"On this phone:" beside the saved round and a "Forget what this phone had" link; no version
never saves anything, whatever round the form names (docs/TABLE.md "Typing of a round saved
meanwhile is never dropped unsaid")."""

from __future__ import annotations

from companion.extensions import db
from companion.models import Game
from tests.web.games.test_mine_beside import listed
from tests.web.playkit import make_game, round_post, seat_ids, text


def rounds_saved(game: Game) -> int:
    db.session.expire_all()
    found = db.session.get(Game, game.id)
    assert found is not None
    return len(found.rounds)


def test_kept_typing_of_a_round_saved_since_is_compared_with_it(client):
    """Bob 5 typed and kept on the phone; the round was saved on another phone with Bob 12:
    the kept entry posted (no version, only the hand typed, the page's next round's CSRF)
    is answered 409 with Bob's 5 beside the saved 12, Put mine back and Forget."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    other = round_post(game, 6, totals={"Bob": 12, "Cy": 7}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=other).status_code == 303
    ids = seat_ids(game)
    kept = {"version": "", "double": "6", f"total_{ids['Bob']}": "5"}
    r = client.post(f"/g/{game.edit_token}/round", data=kept, headers={"HX-Request": "true"})
    assert r.status_code == 409
    assert listed(r) == ["Bob: 5 points (saved: 12 points)"]
    words = text(r)
    assert "Put mine back in the form" in words and "Forget what this phone had" in words
    assert f'href="/g/{game.edit_token}" data-forget' in r.get_data(as_text=True)
    assert rounds_saved(game) == 1


def test_kept_typing_that_matches_the_saved_round_is_no_comparison(client):
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    other = round_post(game, 6, totals={"Bob": 12, "Cy": 7}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=other).status_code == 303
    ids = seat_ids(game)
    kept = {"version": "", "double": "6", f"total_{ids['Bob']}": "12"}
    r = client.post(f"/g/{game.edit_token}/round", data=kept)
    assert r.status_code == 409
    assert listed(r) == [] and "Forget what this phone had" not in text(r)


def test_a_form_with_no_version_never_saves(client):
    """A whole valid round for the round to be entered, or for one never reached, with no
    version (kept typing of a round that was not saved: a double burned, an undo): nothing is
    saved, nothing compared."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    for double in (6, 5):
        kept = round_post(game, double, totals={"Bob": 12, "Cy": 7}, out="Ann", version=0)
        kept["version"] = ""
        r = client.post(f"/g/{game.edit_token}/round", data=kept)
        assert r.status_code in (409, 422), r.status_code
        assert listed(r) == []
    assert rounds_saved(game) == 0
