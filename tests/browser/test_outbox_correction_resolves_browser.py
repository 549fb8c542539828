"""A fresh tester's finding in the scorekeeper's outbox (static/js/offline.js), at 360 x 740
with two scorekeeper phones: a round phone A saved without a connection, saved meanwhile on
phone B with other values, comes back as "Saved with other values than this phone sent"; its
"Put mine back in the form", then "Save the correction", resolves that entry for good (it
said "Saved: Ann: 11" after the correction had saved Ann's 10). The entry's list says who
started on its own line, not under "How the round ended", and the conflict is explained once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_screen import seed_table
from tests.browser.test_table_screen_browser import SMALL_PHONE, open_game, small_phone
from tests.browser.test_table_sizes_browser import hand
from tests.browser.test_unsaid_typing_browser import THREE, waiting

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def fill(page: Page, ann: str) -> None:
    """Ann ``ann``, Bob 4, Cho went out, Bob started."""
    hand(page, "Ann").get_by_role("textbox").fill(ann)
    hand(page, "Bob").get_by_role("textbox").fill("4")
    hand(page, "Cho").locator("input[name^=out_]").check()
    page.locator("select[name=starter]").select_option(label="Bob")


def test_the_correction_put_back_from_the_outbox_resolves_its_entry(
    small_phone: Page, browser, live_server
) -> None:
    table = seed_table(live_server.app, THREE, 6)
    open_game(small_phone, table.edit)
    # phone B: the same scorekeeper's cookies and storage, in a context of its own
    other = browser.new_context(
        **SMALL_PHONE, base_url=live_server.url, storage_state=small_phone.context.storage_state()
    )
    other.set_default_timeout(15_000)
    try:
        live_server.wifi.cut = True
        small_phone.context.set_offline(True)
        fill(small_phone, "10")
        small_phone.locator("#round-form .actions button[type=submit]").click()
        expect(small_phone.locator("#outbox .outbox-entry")).to_have_attribute(
            "data-state", "waiting"
        )
        own = small_phone.locator("#outbox .outbox-own li")
        expect(own).to_have_count(4)
        expect(own.nth(3)).to_have_text("Who started: Bob")
        live_server.wifi.cut = False  # phone A still offline: phone B saves first
        phone_b = other.new_page()
        open_game(phone_b, table.edit)
        fill(phone_b, "11")
        phone_b.locator("#round-form .actions button[type=submit]").click()
        expect(phone_b.locator("#scoreboard")).to_contain_text("11")
    finally:
        live_server.wifi.cut = False
        small_phone.context.set_offline(False)
        other.close()
    # (back online: the outbox sends it, set_offline's "online" event)
    entry = small_phone.locator("#outbox .outbox-entry")
    expect(small_phone.locator("#outbox")).to_contain_text(
        "Saved with other values than this phone sent"
    )
    expect(entry.locator(".outbox-answer")).to_contain_text("Ann")
    # the conflict said once (the entry's own words, not also the server's red box)
    expect(small_phone.get_by_text("already saved on another phone")).to_have_count(0)
    small_phone.wait_for_load_state("networkidle")
    entry.get_by_role("button", name="Put mine back in the form").click()
    expect(small_phone.locator("#round-title")).to_contain_text("Correct the round with 6-6")
    expect(hand(small_phone, "Ann").get_by_role("textbox")).to_have_value("10")
    small_phone.get_by_role("button", name="Save the correction").click()
    expect(small_phone.locator("#round-area .flash.success")).to_contain_text("corrected")
    expect(small_phone.locator("#scoreboard")).to_contain_text("10")
    expect(small_phone.locator("#outbox")).to_have_count(0)
    small_phone.reload()
    expect(small_phone.locator("#round-area form.round-form")).to_be_visible()
    small_phone.wait_for_load_state("networkidle")
    expect(small_phone.locator("#outbox")).to_have_count(0)
    assert small_phone.evaluate("() => localStorage.getItem('cfc-outbox')") == "[]"
    assert waiting(small_phone) == 0
    expect(small_phone.locator("ul.saved-hands.mine")).to_have_count(0)
