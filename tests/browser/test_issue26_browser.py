"""On a 360 px phone (issue 26): the checker's tie and hand-score questions at the default
table, the CSV download a spreadsheet opens with a tap, and a ruling's and a posted hand's time
(and their tooltips) in the phone's own time zone."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import phone_page
from tests.browser.table_screen import FOUR, phone_posts, seed_table
from tests.browser.test_table_screen_browser import open_game
from tests.browser.test_table_sizes_browser import SMALL_PHONE

pytestmark = pytest.mark.browser


@pytest.fixture(params=["en", "de"])
def small_phone(request, browser, live_server) -> Iterator[Page]:
    """A 360 px phone in Berlin whose browser asks for ``en`` or ``de``; the CDN is away."""
    with phone_page(
        browser,
        live_server,
        15_000,
        **SMALL_PHONE,
        locale=request.param,
        timezone_id="Europe/Berlin",
    ) as page:
        page.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))
        yield page


def test_a_tie_of_two_at_the_default_table_is_judged(small_phone: Page) -> None:
    small_phone.goto("/checker/?q=tie")
    fields = small_phone.locator("input[name^='scores_']")
    expect(fields).to_have_count(4)  # the default table: four players
    fields.nth(0).fill("10, 0, 5")
    fields.nth(1).fill("5, 5, 5")
    small_phone.locator("form button.big").click()
    expect(small_phone.locator(".verdict")).to_be_visible()
    assert small_phone.locator("p.problem").count() == 0


def test_the_hand_score_question_offers_only_tiles_it_accepts(small_phone: Page) -> None:
    small_phone.goto("/checker/?q=score")
    chips = small_phone.locator("fieldset.chips input[name='hand']")
    values = chips.evaluate_all("els => els.map(e => e.value)")
    assert "9-9" not in values and len(values) == 54
    small_phone.locator("fieldset.chips label.chip:has(input[value='8-8'])").click()
    small_phone.locator("form button.big").click()
    expect(small_phone.locator(".verdict")).to_be_visible()
    assert small_phone.locator("p.problem").count() == 0


def test_a_rulings_time_is_shown_in_the_phones_time_zone(small_phone: Page) -> None:
    small_phone.goto("/checker/?q=tie")
    fields = small_phone.locator("input[name^='scores_']")
    fields.nth(0).fill("1, 0")
    fields.nth(1).fill("0, 2")
    small_phone.locator("form button.big").click()
    stamp = small_phone.locator(".verdict time[datetime]")
    shown_in_berlin(small_phone, stamp)


def shown_in_berlin(page: Page, stamp) -> None:
    """``stamp`` (a ``<time>``) is written as every time on the phone (static/js/app.js): the
    time of day in Berlin, as it is from today (the date would come first on another day),
    and its tooltip the same moment with its date, not the server's UTC text."""
    expect(stamp).to_have_attribute("data-local", "")
    expected = page.evaluate(
        """(iso) => [{timeStyle: "short"}, {dateStyle: "short", timeStyle: "short"}].map((o) =>
             new Intl.DateTimeFormat(document.documentElement.lang,
               {...o, timeZone: "Europe/Berlin"}).format(new Date(iso)))""",
        stamp.get_attribute("datetime"),
    )
    assert [stamp.inner_text(), stamp.get_attribute("title")] == expected
    assert "UTC" not in (stamp.get_attribute("title") or "")


def test_a_hands_mark_and_its_tooltip_say_the_phones_time(small_phone: Page, live_server) -> None:
    """The time a hand was posted, on the round form's mark: drawn with the page, and written
    live when a phone posts while the page is open. Its tooltip said the server's UTC time of
    day ("18:04" beside "7:04 PM"), read as the phone's."""
    table = seed_table(live_server.app, FOUR, 6)
    phone_posts(live_server.app, table.id, {1: 12})
    open_game(small_phone, table.edit)
    bob = small_phone.get_by_role("group", name="Bob", exact=True)
    shown_in_berlin(small_phone, bob.locator(".post-mark time"))
    phone_posts(live_server.app, table.id, {2: 7})  # Cho's phone, the page open
    cho = small_phone.get_by_role("group", name="Cho", exact=True)
    expect(cho.get_by_role("textbox")).to_have_value("7")
    shown_in_berlin(small_phone, cho.locator(".post-mark time"))


def test_the_csv_download_opens_with_its_bom_and_the_locales_separator(
    small_phone: Page,
) -> None:
    lang = small_phone.evaluate("navigator.language")
    small_phone.goto("/history/")
    link = small_phone.locator("a[href='/history/export.csv']")
    with small_phone.expect_download() as download:
        link.click()
    raw = open(download.value.path(), "rb").read()  # noqa: PTH123, SIM115 - a temporary file
    assert raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    separator = ";" if lang == "de" else ","
    header = next(csv.reader(io.StringIO(text), delimiter=separator))
    assert len(header) == 15, header
    assert re.search(r"\.csv$", download.value.suggested_filename)


#: the layout shifts of the page so far (PerformanceObserver, buffered), as their values
SHIFTS = """() => new Promise((done) => {
  new PerformanceObserver((list) => done(list.getEntries().map((e) => e.value)))
    .observe({type: "layout-shift", buffered: true});
  setTimeout(() => done([]), 500);
})"""


def test_the_install_hint_appearing_moves_nothing_on_the_home_page(small_phone: Page) -> None:
    small_phone.goto("/")
    small_phone.wait_for_function("() => document.readyState === 'complete'")
    before = small_phone.evaluate(SHIFTS)
    # the browser offers to install (as Chrome does once the service worker runs)
    small_phone.evaluate("window.dispatchEvent(new Event('beforeinstallprompt'))")
    expect(small_phone.locator("#install-hint")).to_be_visible()
    after = small_phone.evaluate(SHIFTS)
    assert sum(after) - sum(before) == 0, (before, after)
