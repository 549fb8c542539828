"""The scorekeeper's round form on a 360 px phone shows whose hand each row is: a name that
fits the row's free width on two lines is shown whole (testers at a real table saw "Čeněk Š…"
and "Anastasi…" cut to one line beside room to spare below), so is a name of up to 30
characters that needs three ("Wolfgang-Maximili…" was all a tester saw of "Wolfgang-Maximilian
Oberhuber", on the round form and on a round's correction); only a 60-character name is cut,
at two lines; every row's points box stays in the same column."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.conftest import LiveServer, phone_page, serve_app
from tests.browser.test_table_sizes_browser import LONG_NAME, SMALL_PHONE, seed_game

pytestmark = pytest.mark.browser

NAMES = [
    "Čeněk Šťastný",
    "Anastasiya Vasilyeva",
    "Wolfgang-Maximilian",
    "Wolfgang-Maximilian Oberhuber",  # three lines at 360 px: "Wolfgang- / Maximilian / Oberhuber"
    "Jo",
    "Eva",
    LONG_NAME,
]
#: each row's name: [text, scroll width, client width, scroll height, client height, its line
#: height, the left edge of the row's points box] (CSS px)
ROWS = """() => Array.from(document.querySelectorAll('.round-form fieldset.hand')).map(f => {
  const name = f.querySelector(':scope > legend'), box = f.querySelector('input[inputmode]');
  return [name.textContent, name.scrollWidth, name.clientWidth, name.scrollHeight,
          name.clientHeight, parseFloat(getComputedStyle(name).lineHeight),
          Math.round(box.getBoundingClientRect().left)];
})"""


@pytest.fixture(scope="module")
def names_server() -> Iterator[LiveServer]:
    """A server of this module's own (each test seeds its game there)."""
    with serve_app() as server:
        yield server


@pytest.mark.parametrize(("width", "lang"), [(360, "en"), (360, "cs"), (360, "de"), (390, "en")])
def test_each_row_shows_the_players_whole_name(browser, names_server, width, lang, shot):
    server = names_server
    # a game of its own (one round saved, to correct): its edit link keeps score on the first
    # phone that opens it
    token, _share, _night = seed_game(server.app, NAMES, 12, 1)
    phone = {**SMALL_PHONE, "viewport": {"width": width, "height": 740}}
    with phone_page(browser, server, 15_000, **phone, locale=lang) as page:
        for path, what in ((f"/g/{token}", "round-form"), (f"/g/{token}/round/1", "correction")):
            page.goto(path)
            page.wait_for_selector(".round-form fieldset.hand")
            shot(page, f"{what}-names-{width}-{lang}")
            assert_names_shown({row[0]: row[1:] for row in page.evaluate(ROWS)})


def assert_names_shown(rows: dict[str, list]) -> None:
    """Each name of up to 30 characters is whole on at most three lines, the 60-letter one is cut
    at two, and the points boxes stay in one column (``rows``: name -> the rest of ROWS' row)."""
    assert set(rows) == set(NAMES)
    for name in NAMES[:-1]:  # every word fits the name's column: the whole name is shown
        wide, shown_wide, high, shown_high, line, _left = rows[name]
        assert wide <= shown_wide and high <= shown_high + 1, (name, rows[name])
        assert shown_high <= 3 * line + 1, (name, rows[name])  # three lines at most
    # the 60-letter name is cut at two lines, not eight
    assert rows[LONG_NAME][3] <= 2 * rows[LONG_NAME][4] + 1, rows[LONG_NAME]
    assert len({row[-1] for row in rows.values()}) == 1, rows  # the boxes stay in one column
