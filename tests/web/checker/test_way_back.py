"""The checker's way back to its game: the score sheet only on the scorekeeper's phone.

Found by a fresh tester (2026-12-06): with no passcode set every phone counts as host, and the
checker names a game by its id, so any phone on the network could open
``/checker/?game=1``, follow "Back to the score sheet" to the edit link and take over the
game's scorekeeping with "Take over now". A player's phone reached the edit link the same way
on a passcode instance. The top bar's Rules link on a player's page opened the checker under
the standard rules, not the game's house rules."""

from __future__ import annotations

import pytest

from tests.web.playkit import make_game

PAGES = ("/checker/", "/checker/house-rules", "/checker/rulings", "/checker/rules")


@pytest.fixture
def game(client):
    """A game whose scorekeeper is ``client`` (it opened the edit link first)."""
    made = make_game()
    assert client.get(f"/g/{made.edit_token}").status_code == 200
    return made


@pytest.mark.parametrize("page", PAGES)
def test_a_phone_at_no_seat_is_shown_the_scoreboard_not_the_edit_link(app, game, page):
    stranger = app.test_client()
    body = stranger.get(f"{page}?game={game.id}").get_data(as_text=True)
    assert game.edit_token not in body and game.join_token not in body
    assert f"/s/{game.share_token}" in body


@pytest.mark.parametrize("page", PAGES)
def test_a_joined_player_is_sent_back_to_their_own_page(app, game, page):
    player = app.test_client()
    player.post(f"/j/{game.join_token}", data={"seat": game.seats[1].id})
    body = player.get(f"{page}?game={game.id}").get_data(as_text=True)
    assert game.edit_token not in body
    assert f"/p/{game.share_token}" in body and "Back to the game" in body


@pytest.mark.parametrize("page", PAGES)
def test_the_scorekeepers_phone_goes_back_to_the_score_sheet(client, game, page):
    body = client.get(f"{page}?game={game.id}").get_data(as_text=True)
    assert f"/g/{game.edit_token}" in body and "Back to the score sheet" in body


def test_a_players_rules_link_opens_the_checker_for_their_game(app, game):
    player = app.test_client()
    player.post(f"/j/{game.join_token}", data={"seat": game.seats[1].id})
    body = player.get(f"/p/{game.share_token}").get_data(as_text=True)
    assert f'href="/checker/?game={game.id}"' in body


@pytest.mark.parametrize("page", PAGES)
def test_the_top_bars_rules_link_stays_on_the_checkers_game(client, game, page):
    body = client.get(f"{page}?game={game.id}").get_data(as_text=True)
    nav = body[body.index('<nav aria-label="Main">') : body.index("</nav>")]
    assert f'href="/checker/?game={game.id}"' in nav
