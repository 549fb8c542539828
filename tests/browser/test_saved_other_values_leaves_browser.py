"""A tester's finding at a real table, on a player's phone at 360 x 740 (static/js/offline.js):
Ann posted her hand (9) without a connection, the scorekeeper saved the round with 6-6 with 8
for her meanwhile, and back online her outbox sent it and came back with the card "Saved with
other values than this phone sent". The card then stayed at the top of her page round after
round, until she tapped "Forget what this phone had": noise once the game had moved on.

Now the card shows while it matters: while the round it concerns is the round saved last and
Ann has posted nothing for the next one (the scorekeeper can still correct it, and her 9 is on
screen to say so). It leaves by itself, with its outbox entry, once she posts her next hand
(she has seen it and moved on) or the next round is saved (the game has moved on)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from companion.pips.synth import scene
from tests.browser.test_post_for_a_saved_round_browser import at_round_one, saves_round_one
from tests.browser.test_table_sizes_browser import hand

pytestmark = pytest.mark.browser

TITLE = "Saved with other values than this phone sent"


def outbox(page: Page) -> list[dict]:
    """The phone's outbox as kept in localStorage (cfc-outbox)."""
    return json.loads(page.evaluate("() => localStorage.getItem('cfc-outbox') || '[]'"))


def stored(page: Page) -> dict[str, str]:
    """Everything the phone keeps in localStorage, by key."""
    return page.evaluate("() => Object.assign({}, localStorage)")


def saves_round_two(keeper: Page) -> None:
    expect(keeper.locator("#round-title")).to_have_text(re.compile(r"^Round 2 of"))
    hand(keeper, "Ann").get_by_role("textbox").fill("3")
    hand(keeper, "Bob").get_by_role("textbox").fill("4")
    hand(keeper, "Cho").get_by_label("Went out").check()
    keeper.get_by_role("button", name="Save round").last.click()
    expect(keeper.locator("#round-title")).to_have_text(re.compile(r"^Round 3 of"))


def compared(keeper: Page, ann: Page, live_server, saved: int):
    """Ann posted 9 offline; the round with 6-6 was saved with ``saved`` for her meanwhile;
    back online her page shows the card comparing the two (returned)."""
    at_round_one(keeper, ann, live_server)
    try:
        live_server.wifi.cut = True
        ann.context.set_offline(True)
        ann.get_by_label("Points left in my hand").fill("9")
        ann.get_by_role("button", name="Post my hand").click()
        expect(ann.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
    finally:
        live_server.wifi.cut = False
    saves_round_one(keeper, saved)
    ann.context.set_offline(False)
    expect(ann.locator("#post-title")).to_contain_text("5-5", timeout=20_000)
    card = ann.locator("#outbox .outbox-group.saved")
    expect(card.locator("h2")).to_have_text(TITLE)
    expect(card).to_contain_text(f"Saved: {saved}")
    expect(card).to_contain_text("What you typed: 9")
    return card


@pytest.mark.parametrize("moved_on", ["next round saved", "next hand posted"])
def test_the_saved_with_other_values_card_leaves_once_the_game_moves_on(
    two_phones: tuple[Page, Page], live_server, moved_on: str
) -> None:
    keeper, ann = two_phones
    card = compared(keeper, ann, live_server, 8)  # Ann's 8, as the scorekeeper heard it

    # while the round with 6-6 is the round saved last and Ann has posted nothing since, it
    # stays: a page loaded again still shows it
    ann.reload()
    expect(ann.locator("#post-title")).to_contain_text("5-5")
    expect(card.locator("h2")).to_have_text(TITLE)
    assert [e["state"] for e in outbox(ann)] == ["conflict"]

    if moved_on == "next round saved":
        saves_round_two(keeper)  # Ann's poll sees it and loads her page again
        expect(ann.locator("#post-title")).to_contain_text("4-4", timeout=10_000)
    else:
        ann.get_by_label("Points left in my hand").fill("3")
        ann.get_by_role("button", name="Post my hand").click()
        expect(ann.locator(".post-state")).to_contain_text("Posted: 3 points")
        expect(ann.locator("#post-title")).to_contain_text("5-5")
    # gone by itself, and its entry with it (no card comes back at the next load)
    expect(ann.locator("#outbox")).to_have_count(0)
    assert outbox(ann) == []
    assert not [k for k in stored(ann) if k.startswith("cfc-hand-typed")]  # nor kept elsewhere
    ann.reload()
    expect(ann.locator("#outbox")).to_have_count(0)


def test_a_photos_saved_with_other_values_card_leaves_once_the_next_round_is_saved(
    two_phones: tuple[Page, Page], live_server
) -> None:
    """The same card for a photo's Confirm (sent without a connection, the round with 6-6
    saved meanwhile with 8 for Ann) stayed on her hand page round after round until she
    forgot it: its entry is sent to the photo's address, which no saved round names. It
    leaves with the game moving on, as the hand's does."""
    keeper, ann = two_phones
    at_round_one(keeper, ann, live_server)
    hand_page = ann.url
    ann.get_by_role("button", name="Count my pips from a photo").click()
    ann.wait_for_url(re.compile(r"/p/[\w-]+/photo$"))
    photo = scene([(6, 5), (3, 1)], angle=0.5)
    ann.get_by_label("Photo of the tiles, face up and apart").set_input_files(
        files=[{"name": "hand.jpg", "mimeType": "image/jpeg", "buffer": photo.data}]
    )
    ann.get_by_role("button", name="Count the pips").click()
    expect(ann.get_by_role("heading", name="Points to post: 15")).to_be_visible()
    try:
        live_server.wifi.cut = True
        ann.context.set_offline(True)
        ann.get_by_role("button", name="Confirm these tiles").click()
        expect(ann.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
    finally:
        live_server.wifi.cut = False
    saves_round_one(keeper, 8)
    ann.context.set_offline(False)
    expect(ann.locator("#outbox .outbox-entry")).to_have_attribute(
        "data-state", "conflict", timeout=20_000
    )
    ann.goto(hand_page)
    card = ann.locator("#outbox .outbox-group.saved")
    expect(card.locator("h2")).to_have_text(TITLE)
    expect(card).to_contain_text("Saved: 8")

    saves_round_two(keeper)  # Ann's poll sees it and loads her page again
    expect(ann.locator("#post-title")).to_contain_text("4-4", timeout=10_000)
    expect(ann.locator("#outbox")).to_have_count(0)
    assert outbox(ann) == []
