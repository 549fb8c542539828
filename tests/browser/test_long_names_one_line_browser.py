"""A player's name over 30 characters on the scorekeeper's page of a 360 px phone: its row of
the round form took two lines (the others one), and the final standings' name line two or
three. Now such a name takes one line, cut with an ellipsis, its full name the title (and the
round form's group name); a shorter name is shown whole, as before."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.table_screen import seed_table
from tests.browser.test_table_screen_browser import open_game
from tests.browser.test_table_sizes_browser import hand
from tests.web.playkit import add_scored_rounds, make_game

pytestmark = pytest.mark.browser

SHORT = "Ann"
THIRTY = "Wolfgang-Maximilian Oberhuber"  # 29 characters: may wrap, shown whole
LONG_31 = "Bob Marley Junior The Third Esq"
LONG_60 = "Maximiliana Alexandrova-Papadopoulou-Wolfeschlegelsteinhause"
NAMES = [SHORT, THIRTY, LONG_31, LONG_60]

#: an element's height in lines of its own line height; whether its text is cut; its title
LINES = """(e) => { const s = getComputedStyle(e);
  return [Math.round(e.getBoundingClientRect().height / parseFloat(s.lineHeight)),
          e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight + 1,
          e.title]; }"""


def test_a_long_name_takes_one_line_of_the_round_form(small_phone: Page, live_server):
    table = seed_table(live_server.app, NAMES, 6)
    open_game(small_phone, table.edit)
    legends = {n: hand(small_phone, n).locator("legend").evaluate(LINES) for n in NAMES}
    assert legends[SHORT] == [1, False, SHORT]
    assert legends[THIRTY][1:] == [False, THIRTY]  # whole, on as many lines as it needs
    assert legends[LONG_31] == [1, True, LONG_31]
    assert legends[LONG_60] == [1, True, LONG_60]
    rows = {n: hand(small_phone, n).bounding_box()["height"] for n in (SHORT, LONG_31, LONG_60)}
    assert rows[LONG_31] == rows[SHORT] and rows[LONG_60] == rows[SHORT], rows


def test_a_long_name_takes_one_line_of_the_final_standings(small_phone: Page, live_server):
    with live_server.app.app_context():
        game = make_game(tuple(NAMES), set_size=6)
        add_scored_rounds(game, [{SHORT: 5, THIRTY: 0, LONG_31: 5, LONG_60: 20}] * 7)
        edit = game.edit_token
    small_phone.goto(f"/g/{edit}")
    names = small_phone.locator("table.summary tbody th")
    assert names.count() == 4
    seen = {}  # name (its title) -> the cell's lines, whether the name is cut
    for k in range(4):
        cell = names.nth(k)
        _lines, cut, who = cell.locator("span").evaluate(LINES)
        seen[who] = (cell.evaluate(LINES)[0], cut)
    assert seen[SHORT] == (1, False)
    assert not seen[THIRTY][1]  # whole, on as many lines as it needs
    assert seen[LONG_31] == (1, True) and seen[LONG_60] == (1, True), seen
    assert small_phone.evaluate("() => document.documentElement.scrollWidth") <= 360
