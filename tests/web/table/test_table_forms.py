"""The players' hand post is read by its Flask-WTF form (companion/table/forms.py): what cannot
be read whole is refused in the player's words, never cut short into another hand; a stale
page's hand comes back as typed (issue 23, item 2)."""

from __future__ import annotations

import re
import time

import itsdangerous.timed
import pytest
from flask import g

from companion.engine.limits import MAX_TILES
from tests.web.playkit import make_game, seat_ids
from tests.web.table.test_table import hand_post, post, table  # noqa: F401 (the fixture)

NOT_POINTS = "Type the points as a whole number (digits only)."
NOT_TILES = "These are not tiles of the set: tap the tiles again."


def test_a_long_total_is_refused_not_cut_to_another_number(table):  # noqa: F811
    game, phone = table
    # read by hand, the first 20 characters ("12" and spaces) were posted as 12 points
    typed = "12" + " " * 18 + "3"
    answer = post(phone("Ann"), game, total=typed)
    assert answer.status_code == 422
    assert NOT_POINTS in answer.text
    assert hand_post(game, "Ann") is None


def test_a_long_tile_text_is_refused_not_cut_to_a_tile(table):  # noqa: F811
    game, phone = table
    answer = post(phone("Ann"), game, tiles=["6-5" + " " * 17 + "x"])
    assert answer.status_code == 422
    assert NOT_TILES in answer.text
    assert hand_post(game, "Ann") is None


def test_more_tiles_than_the_largest_set_are_refused(table):  # noqa: F811
    game, phone = table
    answer = post(phone("Ann"), game, tiles=["6-5"] * (MAX_TILES + 1))
    assert answer.status_code == 422
    assert NOT_TILES in answer.text
    assert hand_post(game, "Ann") is None


@pytest.mark.parametrize("double", ["x", "", "-1", "６", "123"])
def test_a_post_whose_round_cannot_be_read_says_so(table, double):  # noqa: F811
    game, phone = table
    # read by hand, each was the round "-1" and the phone read "The round with -1--1 ..."
    answer = post(phone("Ann"), game, double=double, total="5")
    assert answer.status_code == 422
    assert "This form does not say which round it is for; reload the page." in answer.text
    assert "-1--1" not in answer.text
    assert re.search(r'name="total"[^>]*value="5"', answer.text)
    assert hand_post(game, "Ann") is None


def test_a_photo_confirmation_whose_round_cannot_be_read_posts_nothing(table):  # noqa: F811
    game, phone = table
    ann = phone("Ann")
    answer = ann.post(f"/p/{game.share_token}/photo/confirm?double=x&seen=0", data={"tile": "6-5"})
    assert answer.status_code == 422
    assert "This form does not say which round it is for" in answer.text
    assert "-1--1" not in answer.text
    assert hand_post(game, "Ann") is None


def test_a_hand_within_the_bounds_is_posted_as_typed(table):  # noqa: F811
    game, phone = table
    assert post(phone("Ann"), game, total=" 12 ").status_code == 303
    assert hand_post(game, "Ann").total == 12
    assert post(phone("Bob"), game, tiles=["6-5", "4-1"]).status_code == 303
    assert sorted(hand_post(game, "Bob").tiles) == ["4-1", "6-5"]
    assert post(phone("Cy"), game, went_out="y").status_code == 303
    assert hand_post(game, "Cy").went_out


def test_tap_the_tiles_without_javascript_keeps_what_was_typed(table):  # noqa: F811
    game, phone = table
    answer = post(phone("Ann"), game, total="9", open_picker="")
    assert answer.status_code == 200
    assert re.search(r'name="total"[^>]*value="9"', answer.text)
    assert hand_post(game, "Ann") is None


@pytest.fixture()
def csrf_settings():
    return {"WTF_CSRF_TIME_LIMIT": 3600}


def _token(page: str) -> str:
    # The test requests share the fixture's app context, so Flask-WTF's per-request token
    # cache would outlive the request that made it.
    g.pop("csrf_token", None)
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert found, page
    return found.group(1)


def test_a_stale_hand_post_comes_back_as_typed(csrf_app, monkeypatch):
    game = make_game(("Ann", "Bob", "Cy"))
    ann = csrf_app.test_client()
    join = f"/j/{game.join_token}"
    with monkeypatch.context() as m:  # the phone opened the game two hours ago
        m.setattr(
            itsdangerous.timed.TimestampSigner,
            "get_timestamp",
            lambda self: int(time.time()) - 7200,
        )
        stale = _token(ann.get(join).text)
    seat = seat_ids(game)["Ann"]
    joined = ann.post(join, data={"seat": seat, "csrf_token": _token(ann.get(join).text)})
    assert joined.location.endswith(f"/p/{game.share_token}")
    hand = f"/p/{game.share_token}"
    g.pop("csrf_valid", None)  # the join's "token checked" mark, kept in the shared context
    answer = ann.post(hand, data={"double": "6", "total": "12", "csrf_token": stale})
    assert answer.status_code == 400
    assert "This page was open too long, so nothing was saved yet." in answer.text
    assert re.search(r'name="total"[^>]*value="12"', answer.text)
    assert hand_post(game, "Ann") is None
    again = ann.post(hand, data={"double": "6", "total": "12", "csrf_token": _token(answer.text)})
    assert again.status_code == 303
    assert hand_post(game, "Ann").total == 12
