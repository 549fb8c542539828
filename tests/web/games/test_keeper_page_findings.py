"""Three small things a fresh tester found on the scorekeeper's page, as its markup says them
(the behaviour at 360 px: tests/browser/test_keeper_page_findings_browser.py):

* "Put mine back in the form" opens the correction at the round (``#round-area``), not at the
  page's top (the join panel).
* A hand that went out reads "Cho (went out)" in the saved round's summary, as the outbox's
  list of this phone's values says it (one home: templates/_hand_words.html, which base.html
  hands to static/js/offline.js), and the outbox's button for forgetting this phone's typing
  has the round area's name, "Forget what this phone had".
* The last round saved with htmx takes away what only a game in play shows (the join panel,
  the table box, phones asking to keep score); a plain post's redirect draws the finished
  page without them."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask_babel import refresh

from companion.models import Game
from tests.web.playkit import add_scored_rounds, make_game, round_post, text

pytestmark = pytest.mark.usefixtures("fresh_translations")

HX = {"HX-Request": "true"}
DE = {"Accept-Language": "de"}


def saved_list(response) -> list[str]:
    """The saved round's hands as its summary lists them ("Saved: the round with …")."""
    found = re.search(r'<ul class="saved-hands">(.*?)</ul>', response.get_data(as_text=True), re.S)
    assert found, "no saved round shown"
    lines = re.findall(r"<li>(.*?)</li>", found.group(1), re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", line)).split()) for line in lines]


def saved_elsewhere_then_mine(client, game: Game, headers: dict | None = None, **saved) -> Any:
    """Another scorekeeper phone saves the round with 6-6 (``saved``: round_post's arguments),
    then this phone's Save of Ann 3, Bob 12, Cy 7 is refused with it: the 409 (a whole page,
    asked with ``headers``)."""
    client.get(f"/g/{game.edit_token}")  # this phone keeps score
    other = round_post(game, 6, **saved)
    assert client.post(f"/g/{game.edit_token}/round", data=other).status_code == 303
    mine = round_post(game, 6, totals={"Ann": 3, "Bob": 12, "Cy": 7}, version=game.version - 1)
    refresh()  # Flask-Babel keeps the first request's locale in the test's app context
    r = client.post(f"/g/{game.edit_token}/round", data=mine, headers=headers or {})
    assert r.status_code == 409
    return r


def test_put_mine_back_opens_the_correction_at_the_round(app, client):
    game = make_game()
    r = saved_elsewhere_then_mine(client, game, None, totals={"Bob": 12, "Cy": 7}, out="Ann")
    page = r.get_data(as_text=True)
    action = f"/g/{game.edit_token}/round/1#round-area"
    assert f'<form method="post" action="{action}">' in page
    assert "Put mine back in the form" in page
    # the fragment names the part of the correction's page that holds the form
    correction = client.get(f"/g/{game.edit_token}/round/1").get_data(as_text=True)
    assert re.search(r'<div id="round-area">.*id="round-form"', correction, re.S)


def test_a_hand_that_went_out_reads_as_the_outbox_says_it(app, client):
    game = make_game()
    r = saved_elsewhere_then_mine(client, game, None, totals={"Bob": 12, "Cy": 7}, out="Ann")
    assert saved_list(r) == ["Ann (went out)", "Bob: 12", "Cy: 7"]  # was "Ann: 0 (went out)"
    # the outbox's own list is worded by the same macro, "{name}" for the player's name
    page = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert 'data-went-out="{name} (went out)"' in page
    refresh()
    german = client.get(f"/g/{game.edit_token}", headers=DE).get_data(as_text=True)
    assert 'data-went-out="{name} (alle abgelegt)"' in german


def test_going_out_on_a_double_keeps_its_points(app, client):
    """Under the house rule that costs 50 points, the summary says them."""
    game = make_game(going_out_on_double="penalty_50")
    r = saved_elsewhere_then_mine(
        client, game, None, totals={"Bob": 12, "Cy": 7}, out="Ann", out_on_double="y"
    )
    assert saved_list(r)[0] == "Ann: 50 (went out)"


def test_the_outbox_forgets_with_the_round_areas_words(app, client):
    for headers in ({}, DE):
        game = make_game()
        r = saved_elsewhere_then_mine(client, game, headers, totals={"Bob": 9, "Cy": 7}, out="Ann")
        page = r.get_data(as_text=True)
        (forget,) = re.findall(r'data-dismiss="([^"]*)"', page)  # the outbox's button
        assert f"data-forget>{forget}</a>" in page  # the round area's link
    assert forget == "Werte dieses Handys verwerfen"


def last_round(game: Game) -> dict:
    """The round with 0-0 (the game's last) as its form posts it: Ann 1, Bob out, Cy 2."""
    add_scored_rounds(game, [{"Ann": 0, "Bob": 3, "Cy": 4}] * 6)
    return round_post(game, 0, totals={"Ann": 1, "Cy": 2}, out="Bob")


def deleted(response) -> list[str]:
    """The selectors an htmx answer deletes out of band."""
    found = re.findall(r'hx-swap-oob="delete:([^"]*)"', response.get_data(as_text=True))
    return [selector for each in found for selector in each.split(",")]


def test_the_last_round_saved_with_htmx_takes_away_what_a_game_in_play_shows(app, client):
    game = make_game()
    page = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert 'id="join-panel"' in page  # nobody joined with a phone of their own
    r = client.post(f"/g/{game.edit_token}/round", data=last_round(game), headers=HX)
    assert r.status_code == 200 and "Game over" in text(r)
    assert set(deleted(r)) == {"#join-panel", "#game>.requests-banner", "#game>.table-box"}


def test_a_round_that_does_not_end_the_game_deletes_nothing(app, client):
    """(A delete whose target is not on the page is an htmx error in the console.)"""
    game = make_game()
    client.get(f"/g/{game.edit_token}")
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 7}, out="Ann")
    r = client.post(f"/g/{game.edit_token}/round", data=data, headers=HX)
    assert r.status_code == 200 and deleted(r) == []


def test_without_javascript_the_finished_page_has_no_join_panel(app, client):
    game = make_game()
    client.get(f"/g/{game.edit_token}")
    r = client.post(f"/g/{game.edit_token}/round", data=last_round(game))
    assert r.status_code == 303
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Game over" in page
    assert 'id="join-panel"' not in page and "table-box" not in page
