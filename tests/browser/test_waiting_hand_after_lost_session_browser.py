"""A hand kept on the phone, not sent yet (a fresh tester's findings at 360 x 740).

A green "Hand posted" from the last post online stayed above the "Not sent yet" card of a
later hand kept offline: the page said both. The old notice goes when the newer hand is kept.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_screen import seed_table
from tests.browser.test_outbox_stale_token_browser import posts_12_offline
from tests.browser.test_repost_and_reload_browser import joins, posts

pytestmark = pytest.mark.browser


def test_a_hand_kept_offline_takes_the_last_posts_notice_away(
    small_phone: Page, live_server
) -> None:
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    joins(small_phone, table.join, "Bob")
    posts(small_phone, 8)
    flashes = small_phone.locator("#flashes .flash")
    expect(flashes).to_contain_text(["Hand posted."])
    # a later hand kept offline: not "Hand posted" above "Not sent yet"
    posts_12_offline(small_phone, live_server, lambda: expect(flashes).to_have_count(0))
    expect(small_phone.locator(".post-state")).to_contain_text("Posted: 12 point", timeout=20_000)
    expect(flashes).to_contain_text(["Hand posted."])  # the new post's own notice
