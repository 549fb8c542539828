"""The domino set is the table's equipment, not a house rule: a double-6 game under the standard
rules has no house rule changed on any page. The game's history page said "The standard rules,
unchanged." while its rulings, just below, said "Standard ... + 1 house rule change" (the set)
and the checker's house-rules page listed the set as a house rule. A ruling's line names its
preset in the reader's language (it was shown in English on every phone)."""

from __future__ import annotations

import pytest
from flask_babel import refresh

from tests.web.playkit import make_game, text

pytestmark = pytest.mark.usefixtures("fresh_translations")

SPOKES = "6-5 on C, 6-4 on C, 6-3 on C, 6-2 on C"


def ask_on(client, game) -> None:
    """A ruling asked on the English phone of ``game`` (a double-6 game, standard rules)."""
    form = {"game": game.edit_token, "q": "move", "pos": f"6-6 centre; {SPOKES}"}
    response = client.post("/checker/ask", data={**form, "tile": "5-1", "on": "S1"})
    assert response.status_code == 303


def test_a_double_6_rulings_line_names_no_house_rule_change(client):
    game = make_game(set_size=6)
    ask_on(client, game)
    for path in (f"/checker/rulings?game={game.id}", f"/history/games/{game.id}"):
        page = text(client.get(path))
        assert "Standard (Spruce / Wikipedia defaults)" in page
        assert "house rule change" not in page, path
    assert "The standard rules, unchanged." in text(client.get(f"/history/games/{game.id}"))


def test_a_house_rule_changed_is_still_counted(client):
    game = make_game(set_size=6, foot_toes_required=2)
    ask_on(client, game)
    assert "+ 1 house rule change" in text(client.get(f"/checker/rulings?game={game.id}"))


def test_the_checkers_house_rules_page_does_not_call_the_set_a_house_rule(client):
    game = make_game(set_size=6)
    page = text(client.get(f"/checker/house-rules?game={game.id}"))
    assert "These are the standard rules." in page
    assert "Different from the standard rules" not in page
    assert "house rule" not in page.replace("House rules", "")


def test_a_rulings_line_names_its_preset_in_the_readers_language(client):
    game = make_game(set_size=6)
    ask_on(client, game)
    refresh()  # the test's requests share an app context: Babel keeps the first locale in g
    page = text(client.get(f"/checker/rulings?game={game.id}", headers={"Accept-Language": "ru"}))
    assert "Standard (Spruce / Wikipedia defaults)" not in page
    assert "Стандартные (по умолчанию Spruce / Википедия)" in page
