"""A 60-character name with a long word in it (names may be 60 characters) on the history pages
of a 360 px phone: the night's standings stayed 390-417 px wide (the word could not wrap, the
page scrolled sideways in every language), and the chart's key split the player's total under
the name ("3" over "5")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import PAGE_FITS, LiveServer, phone_page, serve_app
from tests.browser.test_table_sizes_browser import SMALL_PHONE
from tests.browser.test_tables_360_browser import SPLIT_CELLS
from tests.web.playkit import add_scored_rounds, make_game

pytestmark = pytest.mark.browser

LONG = "Maximiliana Alexandrova-Papadopoulou-Wolfeschlegelsteinhause"[:60]
LANGUAGES = ("en", "de")


@pytest.fixture(scope="module")
def history_server() -> Iterator[tuple[LiveServer, int, int]]:
    """A server with one finished double-6 game of a night: (server, night id, game id)."""
    with serve_app() as server:
        with server.app.app_context():
            game = make_game(("Anna", LONG, "Jiří Novák", "Ирина"), set_size=6)
            add_scored_rounds(game, [{"Anna": 5, LONG: 5, "Jiří Novák": 0, "Ирина": 20}] * 7)
            ids = (game.night_id, game.id)
        yield server, *ids


@pytest.fixture(params=LANGUAGES)
def phone_in(request, browser, history_server) -> Iterator[Page]:
    with phone_page(
        browser, history_server[0], 15_000, **SMALL_PHONE, locale=request.param
    ) as page:
        yield page


def test_the_nights_standings_fit_a_360_px_phone(phone_in: Page, history_server, shot):
    _server, night, _game = history_server
    response = phone_in.goto(f"/history/nights/{night}")
    assert response is not None and response.status == 200
    shot(phone_in, "long-name-night-360")
    assert phone_in.locator("table.standings").first.is_visible()
    assert phone_in.evaluate(PAGE_FITS)
    assert phone_in.evaluate(SPLIT_CELLS, "table.standings td") == []  # the figures stay whole


def test_the_charts_key_keeps_each_total_whole(phone_in: Page, history_server):
    _server, _night, game = history_server
    response = phone_in.goto(f"/history/games/{game}")
    assert response is not None and response.status == 200
    assert phone_in.locator(".chart-legend").first.is_visible()
    assert phone_in.evaluate(SPLIT_CELLS, ".chart-legend .muted") == []
    assert phone_in.evaluate(PAGE_FITS)
