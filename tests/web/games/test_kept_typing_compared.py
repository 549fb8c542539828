"""Kept typing of a round saved meanwhile, as static/js/kept.js posts it to the save address:
the stale form it was, with no version. A round saved since answers the usual 409 with
"On this phone:" beside the saved round and a "Forget what this phone had" link; no version
never saves anything, whatever round the form names (docs/TABLE.md "Typing of a round saved
meanwhile is never dropped unsaid")."""

from __future__ import annotations

from typing import Any

from companion.extensions import db
from companion.models import Game
from tests.web.games.test_mine_beside import listed
from tests.web.playkit import make_game, round_post, seat_ids, text


def rounds_saved(game: Game) -> int:
    db.session.expire_all()
    found = db.session.get(Game, game.id)
    assert found is not None
    return len(found.rounds)


def saved_on_another_phone(client: Any) -> Game:
    """A table of three whose 6-6 round was saved on another phone (Ann out, Bob 12, Cy 7)
    after this phone opened the game page."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    other = round_post(game, 6, totals={"Bob": 12, "Cy": 7}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=other).status_code == 303
    return game


def test_kept_typing_of_a_round_saved_since_is_compared_with_it(client):
    """Bob 5 typed and kept on the phone; the round was saved on another phone with Bob 12:
    the kept entry posted (no version, only the hand typed, the page's next round's CSRF)
    is answered 409 with Bob's 5 beside the saved 12, Put mine back and Forget."""
    game = saved_on_another_phone(client)
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
    game = saved_on_another_phone(client)
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


def test_a_correction_saved_from_put_back_names_the_kept_typing_it_resolves(client):
    """The correction "Put mine back" opened carries the kept typing's key (``kept``, which
    kept.js adds to the Put back form) to its Save, whose answer names it (data-resolved) so
    that the phone drops it then, whatever the correction holds; a Cancel never does. A key
    that is no kept typing's shape is not repeated into the page."""
    game = saved_on_another_phone(client)
    key = f"{game.id}:0:6"
    opened = client.post(
        f"/g/{game.edit_token}/round/1",
        data={
            **round_post(game, 6, totals={"Bob": 5, "Cy": 7}, out="Ann"),
            "open_picker": "",
            "kept": key,
        },
    )
    assert f'name="kept" value="{key}"' in opened.get_data(as_text=True)
    db.session.expire_all()
    version = db.session.get(Game, game.id).version
    correction = round_post(game, 6, totals={"Bob": 9, "Cy": 7}, out="Ann", version=version)
    hx = {"HX-Request": "true"}
    saved = client.post(
        f"/g/{game.edit_token}/round/1", data={**correction, "kept": key}, headers=hx
    )
    assert saved.status_code == 200
    assert f'data-resolved="{key}"' in saved.get_data(as_text=True)
    junk = client.post(
        f"/g/{game.edit_token}/round/1", data={**correction, "kept": '"><b>x'}, headers=hx
    )
    assert "data-resolved" not in junk.get_data(as_text=True)


def test_a_correction_saved_by_a_plain_post_names_the_kept_typing_on_the_next_game_page(client):
    """The outbox sends a correction as a plain post (answered by a redirect, which it cannot
    read): the game page drawn next names the kept typing it resolved, once, as an htmx Save's
    answer does; the service worker's own copy of the page (nobody sees it) does not take it."""
    game = saved_on_another_phone(client)
    key = f"{game.id}:0:6"
    db.session.expire_all()
    version = db.session.get(Game, game.id).version
    correction = round_post(game, 6, totals={"Bob": 9, "Cy": 7}, out="Ann", version=version)
    saved = client.post(f"/g/{game.edit_token}/round/1", data={**correction, "kept": key})
    assert saved.status_code == 303
    copy = client.get(f"/g/{game.edit_token}", headers={"X-Offline-Copy": "1"})
    assert "data-resolved" not in copy.get_data(as_text=True)
    assert f'data-resolved="{key}"' in client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert "data-resolved" not in client.get(f"/g/{game.edit_token}").get_data(as_text=True)
