"""The keys a phone keeps typing under (companion/web/kept_keys.py, their one home): their
format is what phones hold in localStorage and their outbox, so it is spelled out here
literally, and the pages name exactly what the builders write."""

from __future__ import annotations

import re

import pytest

from companion.web.kept_keys import RoundKey, hand_key, parse_round_key, round_key
from tests.web.playkit import add_scored_rounds, make_game, round_post, seat_ids


def attribute(html: str, name: str, tag: str = "") -> str:
    """The value of the attribute ``name`` on the one element whose tag starts with ``tag``."""
    found = re.findall(rf'<{tag}[^>]*?\s{name}="([^"]*)"', html)
    assert len(found) == 1, found
    return found[0]


def test_a_rounds_key_is_game_rounds_before_double_and_reads_back() -> None:
    assert round_key(12, 3, 9) == "12:3:9"
    assert parse_round_key("12:3:9") == RoundKey(12, 3, 9)
    for key in (RoundKey(1, 0, 0), RoundKey(999_999_999, 9999, 18)):
        assert parse_round_key(round_key(*key)) == key


def test_a_finished_games_key_has_no_double_and_names_no_round() -> None:
    assert round_key(12, 10, None) == "12:10:"
    assert parse_round_key("12:10:") is None


@pytest.mark.parametrize(
    "posted", ["", "12:3", "12:3:9:1", "a:3:9", "12:3:123", "1234567890:3:9", " 12:3:9", "12:3:9\n"]
)
def test_anything_else_posted_is_no_rounds_key(posted: str) -> None:
    assert parse_round_key(posted) is None


def test_a_hands_key_is_its_page_and_double() -> None:
    assert hand_key("/p/abc", 9) == "hand:/p/abc:9"


def test_the_round_forms_draft_is_the_builders_key(client) -> None:
    """Two rounds entered in a double-9 game: the round form (the 7-7 round's) names the key
    its typing is kept under, as the correction's Save resolves it (play._kept_key_of)."""
    game = make_game(("Ann", "Bob", "Cy"), set_size=9)
    add_scored_rounds(game, [{"Ann": 0, "Bob": 12, "Cy": 30}] * 2)
    html = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    draft = attribute(html, "data-draft", "form")
    assert draft == round_key(game.id, 2, 7) == f"{game.id}:2:7"


def test_a_finished_games_kept_typing_form_names_the_builders_key(client) -> None:
    """Its last round saved on another phone meanwhile, the typing kept of it is compared from
    the finished game's page: its hidden form names the game and the rounds entered."""
    game = make_game(("Ann", "Bob"))
    add_scored_rounds(game, [{"Ann": 0, "Bob": 12}] * 7)  # 6-6 down to 0-0
    html = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert "Game over" in html
    assert attribute(html, "data-draft", "form") == round_key(game.id, 7, None)
    assert round_key(game.id, 7, None) == f"{game.id}:7:"


def test_the_hand_page_names_the_builders_key(app, client) -> None:
    """The hand form's key, and the answer's mark once its round was saved before the post."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")  # this phone keeps score
    bob = app.test_client()
    bob.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]})
    page = f"/p/{game.share_token}"
    html = bob.get(page).get_data(as_text=True)
    assert attribute(html, "data-draft", "form") == hand_key(page, 6) == f"hand:{page}:6"
    saved = round_post(game, 6, totals={"Bob": 14, "Cy": 3}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=saved).status_code == 303
    late = bob.post(page, data={"double": "6", "total": "20"})
    assert late.status_code == 409
    html = late.get_data(as_text=True)
    assert attribute(html, "data-resolved") == hand_key(page, 6)
    assert attribute(html, "data-draft", "form") == hand_key(page, 5)
