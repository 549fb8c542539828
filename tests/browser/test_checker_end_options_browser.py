"""A tester's finding in the rules checker's "2. The end" list at 360 x 740: the options
carrying the muted note "(not open to play yet)" had their radio buttons squeezed to about half
size by the two-line text beside them, and the two-line rows touched (small tap targets). Now
every radio button is one size and the rows are apart."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import phone_page
from tests.browser.table_screen import SMALL_PHONE

pytestmark = pytest.mark.browser

#: spokes 5, 3 and 8 from the centre, not open to play until the spoke phase is done (a
#: 9-spot set, four players), and a foot on 1-1
MOVE = (
    "/checker/?preset=standard&set=9&players=4&q=move&pos=9-9+centre;+9-5+on+C;"
    "+9-3+on+C;+9-8+on+C;+9-1+on+C;+1-1+on+S4"
)

#: each "2. The end" option's radio button and its row: [width, height, top, bottom] in px
OPTIONS = """() => [...document.querySelectorAll('label.end-option')]
  .filter(l => l.getBoundingClientRect().height > 0)
  .map(l => { const r = l.querySelector('input').getBoundingClientRect(),
                    b = l.getBoundingClientRect();
              return [r.width, r.height, b.top, b.bottom]; })"""


@pytest.fixture()
def small(browser, live_server) -> Iterator[Page]:
    with phone_page(browser, live_server, 15_000, **SMALL_PHONE) as page:
        page.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))
        yield page


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_end_options_radio_buttons_are_one_size_and_the_rows_apart(
    small: Page, lang: str
) -> None:
    small.set_extra_http_headers({"Accept-Language": lang})
    small.goto(MOVE)
    expect(small.locator("label.end-option .muted").first).to_be_visible()
    options = small.evaluate(OPTIONS)
    assert len(options) >= 4, options
    for width, height, _top, _bottom in options:
        assert width >= 23 and height >= 23, options  # 24 px, as set: none squeezed
    for above, below in zip(options, options[1:], strict=False):
        assert below[2] - above[3] >= 4, options  # a gap between two rows
