"""The game page links to the rules checker for that game and lists its latest rulings."""

from __future__ import annotations

from companion.engine import RuleSet
from companion.services.rulings import save_ruling
from tests.web.playkit import make_game, text


def test_game_page_links_to_the_checker_with_its_own_rules(client):
    game = make_game()
    response = client.get(f"/g/{game.edit_token}")
    page = response.get_data(as_text=True)
    # by the game's id: never a token in a query string (issue 21)
    assert f"/checker/?game={game.id}" in page
    assert f"/checker/house-rules?game={game.id}" in page
    assert f"/checker/rulings?game={game.id}" in page
    assert "No rulings yet." in text(response)


def test_game_page_lists_the_latest_three_rulings_of_that_game_only(client):
    game, other = make_game(), make_game(("Dee", "Eve"))
    rules = RuleSet().to_dict()
    for i in range(4):
        save_ruling(game, {"category": "placement"}, {"rule": "5.2"}, rules, f"Ruling number {i}")
    save_ruling(other, {"category": "placement"}, {}, rules, "Someone else's ruling")
    page = text(client.get(f"/g/{game.edit_token}"))
    assert "Ruling number 3" in page and "Ruling number 1" in page
    assert "Ruling number 0" not in page  # only the latest three
    assert "Someone else's ruling" not in page
