"""A tester's finding in the rules checker at 360 px: an end chip broke a tile's name at its
hyphen, "Stein anlegen: Mittelpasch 9-" on one line and "9" on the next (German; Russian too,
on the tester's phone). Now a tile's name in an end chip, and in the "Which tile was laid on
…?" heading below it, stays on one line; its text is unchanged ("9-9", for screen readers
and tests: companion/web/languages.py ``tiles_unbroken``).

Where a line breaks depends on the font. This machine's system font (DejaVu Sans) splits the
German centre chip; a phone's (Roboto, near enough Arial's widths: Liberation Sans here)
splits the Russian chip of a third toe ("… (третий палец лапки на 5-" / "5)"). Both are
checked, in both languages."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import Page

from tests.browser.test_table_screen_browser import small_phone

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser

#: a foot on 5-5 with three toes (open ends on 3, 2 and 1), the third toe's end selected
TOES = (
    "9-9 centre; 9-5 on C; 9-4 on C; 9-3 on C; 9-2 on C; 5-5 on S1; 5-3 on D1; 5-2 on D1; 5-1 on D1"
)
#: the system's font, then one with a phone's widths
FONTS = ("", "Liberation Sans")

#: every tile's name ("9-9", "12-12") in the end chips and the tile picker's heading, with
#: how far apart its first and last line box are (0: one line)
SPLIT = r"""font => {
  document.documentElement.style.fontFamily = font;
  const found = [];
  for (const box of document.querySelectorAll('nav.ends a.end-chip, #tile-picker h3')) {
    const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    const text = box.innerText;
    let node;
    while ((node = walk.nextNode())) {
      for (const m of node.data.matchAll(/\d+-\d+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = [...range.getClientRects()].map(r => r.top);
        found.push([text, m[0], Math.round(Math.max(...tops) - Math.min(...tops))]);
      }
    }
  }
  return found;
}"""


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_a_tile_name_in_an_end_chip_stays_on_one_line(small_phone: Page, lang: str) -> None:
    page = small_phone
    page.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))
    page.set_extra_http_headers({"Accept-Language": lang})
    split = []
    # the centre's chip; the three toes' chips and the third toe's heading
    for path, count in (("/checker/", 1), (f"/checker/?pos={quote(TOES)}&sel=T3", 4)):
        page.goto(path)
        for font in FONTS:
            names = page.evaluate(SPLIT, font)
            assert len(names) == count, names
            # a line is 24.65 px: anything near that is a second line
            split += [(font, *name) for name in names if name[2] > 8]
    assert split == [], split
    # the text as it was: a screen reader hears the tile's name as before
    page.goto("/checker/")
    assert (
        page.locator("nav.ends a.end-chip").first.text_content()
        == (
            {"de": "Stein anlegen: Mittelpasch 9-9", "ru": "Положить кость: центральный дубль 9-9"}[
                lang
            ]
        )
    )
