"""A fresh tester's finding on a player's hand page at 360 x 740, in English and Lithuanian:
tiles tapped (4-3) and their own sum typed beside them (7), then Post. The page said "Hand
posted." and "Posted: 1 tile: 4-3", yet also "Not posted yet: what you typed … is back in the
form", and kept saying it on every reload until the round was saved. The server keeps only the
tiles (their sum beside them says nothing more), while the phone kept the typing as "tiles and
a 7", never equal to the post. A total typed beside tiles that is their sum is now no typing of
its own (static/js/hand.js): the post is what was typed, nothing is kept; a different hand
still is kept and said "Not posted yet"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_screen import seed_table
from tests.browser.test_repost_and_reload_browser import joins

pytestmark = pytest.mark.browser

#: the phone's kept typing (static/js/hand.js: "cfc-hand-typed:<form address>")
KEPT_KEYS = "Object.keys(localStorage).filter(k => k.startsWith('cfc-hand'))"


def taps(phone: Page, tiles: list[str]) -> None:
    """Open the tile picker (it comes from the server) and tap ``tiles``."""
    if not phone.locator('#hand-form input[name="tiles"]').count():
        phone.locator("#hand-form button.picker-open").click()
    for tile in tiles:
        phone.locator(f'#hand-form input[name="tiles"][value="{tile}"]').check()


def post(phone: Page) -> None:
    phone.locator('#hand-form button[type="submit"]:not([name])').click()


@pytest.mark.parametrize("language", ["en", "lt"])
def test_tiles_posted_with_their_sum_typed_are_posted_not_kept(
    small_phone: Page, live_server, language: str
) -> None:
    phone = small_phone
    phone.set_extra_http_headers({"Accept-Language": language})
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    joins(phone, table.join, "Bob")
    taps(phone, ["4-3"])
    phone.locator("#total").fill("7")
    post(phone)
    expect(phone.locator(".post-state")).to_contain_text("4-3")
    expect(phone.locator("#flashes")).not_to_be_empty()  # "Hand posted."
    expect(phone.locator(".kept-hand")).to_have_count(0)
    assert phone.evaluate(KEPT_KEYS) == []
    phone.reload()
    expect(phone.locator(".post-state")).to_contain_text("4-3")
    phone.wait_for_timeout(300)  # (hand.js has run: a kept hand is put back at once)
    expect(phone.locator(".kept-hand")).to_have_count(0)
    assert phone.evaluate(KEPT_KEYS) == []

    # a genuinely different hand (another tile, its sum typed) is kept and said not posted
    taps(phone, ["2-1"])
    phone.locator("#total").fill("10")
    phone.reload()
    expect(phone.locator(".kept-hand")).to_have_count(1)
    expect(phone.locator('#hand-form input[name="tiles"][value="2-1"]')).to_be_checked()
    post(phone)
    expect(phone.locator(".post-state")).to_contain_text("2-1 4-3")
    phone.reload()
    phone.wait_for_timeout(300)
    expect(phone.locator(".kept-hand")).to_have_count(0)
    assert phone.evaluate(KEPT_KEYS) == []
