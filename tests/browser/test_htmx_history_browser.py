"""The Back button onto an address htmx pushed, when the page is not in htmx's history cache:
htmx fetches it again (``HX-History-Restore-Request``) and must get the whole page, navigation
included, never the bare fragment of a swap (companion/web/htmx.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from .seeding import fill_round, open_new_game

pytestmark = pytest.mark.browser

OPEN_FOOT = "9-5 on C; 9-4 on C; 9-3 on C; 9-2 on C; 5-5 on S1"
LOCAL_HTMX = Path(__file__).resolve().parents[2] / "static" / "vendor" / "htmx.min.js"


@pytest.fixture(autouse=True)
def _cdn_from_the_local_copy(phone: Page) -> None:
    """The CDN's htmx served from the same release's local copy (no network here): htmx then
    starts as it does in production, history handling (its popstate listener) included."""

    def serve(route: Route) -> None:
        route.fulfill(
            path=LOCAL_HTMX,
            content_type="application/javascript",
            headers={"Access-Control-Allow-Origin": "*"},
        )

    phone.route("https://cdn.jsdelivr.net/**", serve)


def without_history_cache(page: Page) -> None:
    """Make every Back a cache miss: htmx keeps no snapshots and the stored ones are gone."""
    page.wait_for_function("() => window.htmx !== undefined")
    page.evaluate(
        "() => { htmx.config.historyCacheSize = 0; sessionStorage.clear(); localStorage.clear(); }"
    )


def go_back_to_a_cache_miss(page: Page) -> None:
    """Press Back and wait until htmx has put the server's answer in place of the body."""
    page.evaluate(
        """() => document.body.addEventListener('htmx:historyRestore',
             (e) => { window.restoredFromServer = e.detail.cacheMiss === true; }, {once: true})"""
    )
    with page.expect_request(lambda r: r.headers.get("hx-history-restore-request") == "true"):
        page.go_back()
    page.wait_for_function("() => window.restoredFromServer === true")


def expect_whole_page(page: Page) -> None:
    expect(page.get_by_role("navigation", name="Main")).to_have_count(1)
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    expect(page.locator("header.topbar")).to_have_count(1)


def test_back_after_an_htmx_pushed_checker_verdict_shows_the_whole_page(phone: Page) -> None:
    phone.goto(f"/checker/?q=move&pos={OPEN_FOOT}")
    without_history_cache(phone)
    phone.locator("label.chip:has(input[value='6-4'])").click()
    phone.locator('svg.layout a.end-link[data-on="S2"]').click()
    expect(phone.locator("#verdict")).to_contain_text("No, it cannot go there.")
    verdict_url = phone.url
    assert "ruling=" in verdict_url  # pushed by htmx, no page load
    go_back_to_a_cache_miss(phone)
    expect(phone.locator("#checker")).to_have_count(1)
    expect(phone.locator("#verdict")).to_have_count(0)
    expect_whole_page(phone)


def test_back_after_an_htmx_round_save_shows_the_whole_page(phone: Page, live_server) -> None:
    token = open_new_game(phone, live_server)
    without_history_cache(phone)
    fill_round(phone)
    phone.evaluate("window.notReloaded = true")
    phone.get_by_role("button", name="Save round").click()
    expect(phone.locator("#round-area > .flash.success")).to_have_text("Round saved.")
    assert phone.evaluate("window.notReloaded") is True  # saved by an htmx swap
    go_back_to_a_cache_miss(phone)
    assert phone.url.endswith(f"/g/{token}")
    expect(phone.locator("#round-title")).to_have_text("Round 2 of 7")
    expect(phone.locator("#scoreboard")).to_have_count(1)
    expect_whole_page(phone)


def test_back_after_a_pushed_verdict_with_the_local_htmx_copy(phone: Page) -> None:
    """The CDN is unreachable, so static/js/htmx-fallback.js started the local copy after the
    page was parsed, when htmx no longer sets up its own Back-button handling: Back must still
    show the page of the address it lands on (here by loading it), not the verdict."""
    page = phone
    # registered last, so it wins over the autouse fixture's route
    page.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))
    page.goto(f"/checker/?q=move&pos={OPEN_FOOT}")
    without_history_cache(page)
    page.locator("label.chip:has(input[value='6-4'])").click()
    page.locator('svg.layout a.end-link[data-on="S2"]').click()
    expect(page.locator("#verdict")).to_contain_text("No, it cannot go there.")
    assert "ruling=" in page.url
    page.go_back()
    expect(page).not_to_have_url(re.compile("ruling="))
    expect(page.locator("#verdict")).to_have_count(0)
    expect(page.locator("#checker")).to_have_count(1)
    expect_whole_page(page)
