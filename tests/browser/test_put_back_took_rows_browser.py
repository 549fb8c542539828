"""The outbox's "Put mine back in the form" over a hand this phone's Save had taken from its
player's post, at 360 x 740. Bob posted 5; the scorekeeper saved offline with it (not typed);
Bob changed his hand to 8 meanwhile, so the Save was refused (the refusal's form took the 8:
"the form holds their new hand now"). Put mine back puts the 5 back in Bob's box: his earlier
post, which nobody typed over. The row said "typed over their post: 8 points"; it says what
happened: "changed on their phone: 8 points", with "Use Bob's post (8 points)", on a reload
too. A box the scorekeeper typed stays "typed over their post"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_screen import FOUR, seed_table
from tests.browser.test_entries_kept_browser import repost
from tests.browser.test_outbox_words_and_put_back_browser import offline_save, typed
from tests.browser.test_table_screen_browser import open_game, small_phone
from tests.browser.test_table_sizes_browser import hand

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def test_put_mine_back_over_a_hand_taken_from_its_post_says_it_changed_on_the_phone(
    small_phone: Page, live_server
) -> None:
    app = live_server.app
    table = seed_table(app, FOUR, 6)
    repost(app, table.id, "Bob", 5)
    repost(app, table.id, "Dee", 6)
    open_game(small_phone, table.edit)
    expect(small_phone.get_by_label("Points for Bob")).to_have_value("5")

    def meanwhile() -> None:
        repost(app, table.id, "Bob", 8)
        repost(app, table.id, "Dee", 4)

    # Bob's 5 as posted; Dee's 6 typed over with 7
    offline_save(small_phone, live_server, typed({"Ann": 9, "Dee": 7}, out="Cho"), meanwhile)
    entry = small_phone.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "conflict")
    entry.get_by_role("button", name="Put mine back in the form").click()
    bob, dee = (hand(small_phone, n).locator(".post-mark") for n in ("Bob", "Dee"))
    expect(small_phone.get_by_label("Points for Bob")).to_have_value("5")
    expect(bob).to_have_text(re.compile(r"^changed on their phone .*: 8 points$"))
    expect(hand(small_phone, "Bob").get_by_role("button", name="Use Bob's post")).to_have_text(
        "Use Bob's post\xa0(8 points)"
    )
    expect(dee).to_have_text(re.compile(r"^typed over their post .*: 4 points$"))
    small_phone.reload()
    expect(small_phone.get_by_label("Points for Bob")).to_have_value("5")
    expect(bob).to_have_text(re.compile(r"^changed on their phone .*: 8 points$"))
