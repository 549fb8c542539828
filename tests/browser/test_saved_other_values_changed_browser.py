"""A tester's finding on a player's phone at 360 x 740 (static/js/offline.js, table/hand.html):
Ann's offline post (9) came back with the round with 6-6 saved with 10 for her, and her page
showed "Saved with other values than this phone sent": "Saved: 10 … What you typed: 9 … If
the saved score is wrong, tell the scorekeeper". Then the scorekeeper

* corrected the round to her 9: the card still said "Saved: 10 … tell the scorekeeper", live
  and after a reload, while the same page said "Taken into the round with 6-6: 9 points";
* corrected it to yet another value (7): the card still said "Saved: 10";
* tapped Undo the last change: the card still said "The round with 6-6 was already saved",
  while the round's form was open again below it.

Now the card compares with the round as saved now: it leaves once the round holds what Ann
typed, shows the value saved now otherwise, and leaves once the round is undone (nothing saved
to compare with; her own form for the round is open again)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_live_table_browser import points
from tests.browser.test_saved_other_values_leaves_browser import compared, outbox

pytestmark = pytest.mark.browser


def corrects_ann(keeper: Page, to: int) -> None:
    """The scorekeeper corrects Ann's hand in the round with 6-6 (on the round's own page)."""
    keeper.goto(re.split(r"[?#]", keeper.url)[0].rstrip("/") + "/round/1")
    points(keeper, "Ann").fill(str(to))
    keeper.get_by_role("button", name="Save the correction").click()
    expect(keeper.get_by_text("Round with 6-6 corrected.")).to_be_visible()


@pytest.mark.parametrize("to", [9, 7])
def test_the_card_compares_with_the_round_as_corrected_since(
    two_phones: tuple[Page, Page], live_server, to: int
) -> None:
    keeper, ann = two_phones
    card = compared(keeper, ann, live_server, 10)
    corrects_ann(keeper, to)
    # Ann's page, live (no reload): the round as saved now
    expect(ann.locator(".taken")).to_contain_text(f"6-6: {to} points", timeout=10_000)
    for _ in range(2):  # live, then after a reload
        expect(ann.locator("#post-title")).to_contain_text("5-5")
        if to == 9:  # saved now as she typed it: nothing left to compare
            expect(ann.locator("#outbox")).to_have_count(0, timeout=10_000)
            assert outbox(ann) == []
        else:
            expect(card).to_contain_text(f"Saved: {to}", timeout=10_000)
            expect(card).not_to_contain_text("Saved: 10")
            expect(card).to_contain_text("What you typed: 9")
            assert [e["state"] for e in outbox(ann)] == ["conflict"]
        ann.reload()


def test_the_card_leaves_once_its_round_is_undone(
    two_phones: tuple[Page, Page], live_server
) -> None:
    keeper, ann = two_phones
    compared(keeper, ann, live_server, 10)
    keeper.once("dialog", lambda d: d.accept())
    keeper.get_by_role("button", name="Undo the last change").click()
    expect(keeper.locator(".flashes")).to_contain_text("Undone")
    # Ann's poll finds the round with 6-6 open again and loads her page: its form, no card
    # saying the round is saved
    expect(ann.locator("#post-title")).to_contain_text("6-6", timeout=10_000)
    expect(ann.locator("#outbox")).to_have_count(0)
    expect(ann.get_by_text("already saved")).to_have_count(0)
    assert outbox(ann) == []
    ann.reload()
    expect(ann.locator("#outbox")).to_have_count(0)
