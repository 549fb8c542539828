"""The new game night's date starts at the phone's own date: a US table at 9 PM on a server
whose clock runs on UTC got tomorrow's date (the server's "today"), and the night was filed
under the wrong day unless someone noticed. A date the player picked, or one sent back with a
refusal, is never changed."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import phone_page

pytestmark = pytest.mark.browser


def a_zone_on_another_day() -> tuple[str, date]:
    """A time zone whose date differs from the server's now, and that date: UTC-12 is a day
    behind UTC before noon UTC, UTC+14 a day ahead from 10:00 UTC."""
    now = datetime.now(UTC)
    zone = "Etc/GMT+12" if now.hour < 12 else "Pacific/Kiritimati"
    return zone, now.astimezone(ZoneInfo(zone)).date()


@pytest.fixture()
def far_phone(browser, live_server) -> tuple[Page, date]:
    zone, its_date = a_zone_on_another_day()
    with phone_page(browser, live_server, 10_000, timezone_id=zone, is_mobile=True) as page:
        yield page, its_date


def test_a_new_night_starts_at_the_phones_date(far_phone):
    page, its_date = far_phone
    assert its_date != date.today()  # the server's today (this process runs the live server)
    page.goto("/nights/new")
    page.wait_for_load_state("load")
    assert page.input_value("#played_on") == its_date.isoformat()


def test_a_date_sent_back_with_a_refusal_is_kept(far_phone):
    page, _its_date = far_phone
    page.goto("/nights/new")
    page.wait_for_load_state("load")
    page.fill("#played_on", "2026-01-31")
    page.fill("#place", "x" * 200)  # refused: the place has at most 120 characters
    page.evaluate("document.getElementById('place').removeAttribute('maxlength')")
    page.fill("#place", "x" * 200)
    page.click("#submit")
    page.wait_for_load_state("load")
    assert "/nights/new" in page.url
    assert page.input_value("#played_on") == "2026-01-31"
