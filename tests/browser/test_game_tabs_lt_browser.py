"""A tester's finding on the scorekeeper's page at 360 x 740 in Lithuanian: the
"Rezultatų lentelė" tab wrapped onto two lines flush against its left border (the tabs had no
padding, and a wrapped line is not centred by the flex box). Now its text keeps off both
borders and sits centred, as "Raundas" beside it does."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_screen import FOUR, seed_table
from tests.browser.test_table_screen_browser import open_game, small_phone

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser

#: each tab: its box's left and right, its text's left and right (px)
TABS = """() => [...document.querySelectorAll('nav.game-tabs a')].map(a => {
  const box = a.getBoundingClientRect(), range = document.createRange();
  range.selectNodeContents(a);
  const rects = [...range.getClientRects()];
  return [box.left, box.right,
          Math.min(...rects.map(r => r.left)), Math.max(...rects.map(r => r.right))];
})"""


def test_the_lithuanian_tabs_text_keeps_off_the_border_and_is_centred(
    small_phone: Page, live_server
) -> None:
    table = seed_table(live_server.app, FOUR, 9)
    small_phone.set_extra_http_headers({"Accept-Language": "lt"})
    open_game(small_phone, table.edit)
    expect(small_phone.locator("nav.game-tabs a[data-tab=board]")).to_have_text("Rezultatų lentelė")
    for left, right, text_left, text_right in small_phone.evaluate(TABS):
        assert text_left - left >= 6 and right - text_right >= 6, (left, right, text_left)
        assert abs((text_left - left) - (right - text_right)) <= 2, (left, right, text_left)
