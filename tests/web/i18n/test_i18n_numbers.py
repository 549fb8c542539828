"""The running-totals chart's numbers (its axis, legend and text alternative) and the
scoreboard's totals are formatted for the page's language (issue 13: "dates and numbers
formatted per locale")."""

from __future__ import annotations

import re

import pytest
from flask_babel import refresh

from tests.web.playkit import add_scored_rounds, make_game

pytestmark = pytest.mark.usefixtures("fresh_translations")


def chart(client, game_id: int, language: str) -> str:
    refresh()  # the test's requests share one app context (and Flask-Babel's cached locale)
    body = client.get(f"/history/games/{game_id}", headers={"Accept-Language": language}).text
    return re.search(r'<figure class="chart".*?</figure>', body, re.S).group(0)


def test_the_charts_totals_are_numbers_in_the_pages_language(client):
    game = make_game(("Ann", "Bob"), set_size=6)
    add_scored_rounds(game, [{"Ann": 0, "Bob": 200}] * 7)  # Bob ends on 1,400 points
    german = chart(client, game.id, "de")
    assert re.search(r"<desc [^>]*>[^<]*Bob 1\.400\.</desc>", german), german
    assert ">1.400</span>" in german  # the legend
    assert "1400" not in german
    assert "Bob 1,400." in chart(client, game.id, "en")


def test_the_scoreboards_totals_are_numbers_in_the_pages_language(client):
    game = make_game(("Ann", "Bob"), set_size=6)
    add_scored_rounds(game, [{"Ann": 0, "Bob": 250}] * 6)  # still on: Bob on 1,500 points
    refresh()
    page = client.get(f"/g/{game.edit_token}", headers={"Accept-Language": "de"}).text
    assert re.search(r'<td class="tot"[^>]*>1\.500<', page)
