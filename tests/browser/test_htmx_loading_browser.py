"""htmx never holds up the page (issue 8, setup): the CDN copy is deferred, and when the CDN
stalls (a phone on weak Wi-Fi) the page is painted and usable at once, then htmx from the local
fallback copy starts and works. (A CDN that fails at once: test_scorekeeper_browser.py.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from companion.extensions import db
from tests.browser.seeding import fill_round, seed_game

pytestmark = pytest.mark.browser

FIRST_PAINT = "() => performance.getEntriesByName('first-contentful-paint').length > 0"


def test_a_stalled_cdn_neither_blanks_the_page_nor_stops_htmx(
    phone: Page, live_server, csp_refusals: list[str]
) -> None:
    stalled: list[str] = []
    # a CDN that never answers: the request is held, neither fulfilled nor aborted
    phone.route("https://cdn.jsdelivr.net/**", lambda route: stalled.append(route.request.url))
    with live_server.app.app_context():
        token = seed_game(("Ann", "Bob", "Cy"))
        db.session.remove()
    phone.goto(f"/g/{token}", wait_until="commit")  # "load" never comes while the CDN stalls
    # painted and usable at once, while the CDN request is still open
    phone.wait_for_function(FIRST_PAINT)
    expect(phone.get_by_role("heading", level=1)).to_be_visible()
    fill_round(phone)
    expect(phone.get_by_label("Points for Ann")).to_have_value("12")
    assert stalled and all("htmx.org@" in url for url in stalled)
    # the local copy arrives and starts: saving is an htmx swap, not a page load
    phone.wait_for_function("() => window.htmx !== undefined && !!window.htmx.version")
    phone.evaluate("window.__sameDocument = true")
    posts: list[dict[str, str]] = []
    phone.on("request", lambda r: posts.append(r.headers) if r.method == "POST" else None)
    phone.get_by_role("button", name="Save round").click()
    expect(phone.locator("#round-area > .flash.success")).to_have_text("Round saved.")
    assert phone.evaluate("window.__sameDocument") is True
    assert posts and posts[-1].get("hx-request") == "true"
    # the values typed before htmx started were the ones saved
    expect(phone.locator("#scoreboard")).to_contain_text("12")
    assert csp_refusals == []  # the fallback needs no inline script
