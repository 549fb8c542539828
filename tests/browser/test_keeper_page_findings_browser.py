"""Three small things a fresh tester found on the scorekeeper's page at 360 x 740 (docs/TABLE.md,
docs/OFFLINE.md):

* "Put mine back in the form" (the round area's comparison, or the outbox's entry of a round
  saved meanwhile) opened the correction scrolled to the page's top (the join panel), the
  form a screen or more below: it lands on the round now (its action's ``#round-area``).
* The outbox's entry of a round saved meanwhile said a hand that went out two ways ("Ann: 0
  (went out)" in what was saved, "Ann (went out)" in this phone's list), named the round twice
  (its title, then "Saved: the round with 6-6") and called the round area's "Forget what this
  phone had" "Remove from this phone": one phrasing, the round named once, one button name.
* The last round saved (Game over) left the join panel at the top, and the table box below
  the scoreboard, until a reload: the Save's answer takes them away out of band."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.table_screen import seed_table
from tests.browser.test_auto_saved_typing_browser import THREE
from tests.browser.test_entries_kept_browser import keeper_saves
from tests.browser.test_live_table_browser import console_errors, points
from tests.browser.test_outbox_words_and_put_back_browser import saved_meanwhile
from tests.browser.test_put_back_browser import compared_with_bob_5
from tests.browser.test_table_screen_browser import open_game, small_phone
from tests.browser.test_table_sizes_browser import hand

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def at_the_top(element: Locator) -> bool:
    """Whether ``element``'s top is within the first 200 px of the 740 px screen as the page
    stands scrolled (the join panel alone is taller)."""
    box = element.bounding_box()
    assert box is not None
    return 0 <= box["y"] < 200


def test_the_round_areas_put_mine_back_lands_on_the_correction(
    small_phone: Page, live_server
) -> None:
    app = live_server.app
    table, errors, area = compared_with_bob_5(small_phone, app)
    # the join panel (nobody joined with a phone of their own) stands above the round
    expect(small_phone.locator("#join-panel")).to_be_visible()

    area.get_by_role("button", name="Put mine back in the form").click()
    title = small_phone.locator("#round-title")
    expect(title).to_have_text("Correct the round with 9-9")
    expect(points(small_phone, "Bob")).to_have_value("5")
    assert at_the_top(title), title.bounding_box()
    assert small_phone.evaluate("() => window.scrollY") > 0  # not the page's top
    assert errors == []


def test_the_outboxs_put_mine_back_lands_on_the_correction(small_phone: Page, live_server) -> None:
    saved_meanwhile(small_phone, live_server)
    entry = small_phone.locator("#outbox .outbox-entry")
    entry.get_by_role("button", name="Put mine back in the form").click()
    title = small_phone.locator("#round-title")
    expect(title).to_have_text("Correct the round with 6-6")
    expect(points(small_phone, "Bob")).to_have_value("4")
    assert at_the_top(title), title.bounding_box()
    assert small_phone.evaluate("() => window.scrollY") > 0


def test_the_outbox_says_a_round_saved_meanwhile_in_the_round_areas_words_once(
    small_phone: Page, live_server
) -> None:
    saved_meanwhile(small_phone, live_server)  # Ann went out on both phones
    entry = small_phone.locator("#outbox .outbox-entry")
    # a hand that went out, said one way in what was saved and in this phone's list
    expect(entry.locator(".outbox-answer li").first).to_have_text("Ann (went out)")
    expect(entry.locator(".outbox-own li").first).to_have_text("Ann (went out)")
    expect(entry).not_to_contain_text("Ann: 0")
    # the round named once: the entry's title says it is saved, its lists say the rest
    expect(entry.locator("h3")).to_have_text("Saved: the round with 6-6")
    expect(entry.get_by_text("the round with 6-6")).to_have_count(1)
    # the round area's name for forgetting this phone's typing of the round
    expect(entry.get_by_role("button", name="Forget what this phone had")).to_be_visible()
    expect(small_phone.get_by_text("Remove from this phone")).to_have_count(0)


def test_the_last_round_saved_takes_the_join_panel_away_without_a_reload(
    small_phone: Page, live_server
) -> None:
    app = live_server.app
    table = seed_table(app, THREE, 6)
    for _ in range(6):  # 6-6 down to 1-1: the round with 0-0 is the last
        keeper_saves(app, table.id, {"Ann": None, "Bob": 3, "Cho": 4})
    errors = console_errors(small_phone)
    open_game(small_phone, table.edit)
    expect(small_phone.locator("#join-panel")).to_be_visible()
    expect(small_phone.locator("section.table-box")).to_have_count(2)  # the panel, the box

    points(small_phone, "Ann").fill("1")
    hand(small_phone, "Bob").get_by_label("Went out").check()
    points(small_phone, "Cho").fill("2")
    small_phone.get_by_role("button", name="Save round").click()
    expect(small_phone.locator("#finish-title")).to_have_text("Game over")
    # as the finished game's page is drawn: no join panel, no table box, no phones asking
    expect(small_phone.locator("#join-panel")).to_have_count(0)
    expect(small_phone.locator("section.table-box")).to_have_count(0)
    expect(small_phone.locator("#game > .requests-banner")).to_have_count(0)
    expect(small_phone.locator("#round-area")).to_be_visible()
    assert at_the_top(small_phone.locator("#finish-title"))
    small_phone.reload()
    expect(small_phone.locator("#finish-title")).to_have_text("Game over")
    expect(small_phone.locator("section.table-box")).to_have_count(0)
    assert errors == []
