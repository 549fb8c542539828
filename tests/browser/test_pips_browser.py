"""Pips from a photo in a real browser at phone size: in the round form a scorekeeper presses
a hand's photo button, uploads a photo of the tiles, sees it with every pip marked and each
tile outlined with its reading, taps a misread tile on the photo and picks the right one,
confirms, and finds the hand's tiles and total filled in (what was typed before is still
there), then saves the round."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from companion.pips.synth import scene

from .test_scorekeeper_browser import create_game, hand, start_night

pytestmark = pytest.mark.browser


def read_hand_photo(page: Page, who: str = "Bo") -> None:
    """From the round form, ``who``'s photo button, a photo of 6-5, 3-1 and 2-2 (19 points)
    sent and read."""
    page.get_by_role("button", name=f"Count {who}'s pips from a photo").click()
    page.wait_for_url(re.compile(r"/photo/\d+\?double=\d+$"))  # the address names its round
    photo = scene([(6, 5), (3, 1), (2, 2)], angle=0.5)
    page.get_by_label("Photo of the tiles, face up and apart").set_input_files(
        files=[{"name": "hand.jpg", "mimeType": "image/jpeg", "buffer": photo.data}]
    )
    page.get_by_role("button", name="Count the pips").click()
    expect(page.get_by_role("heading", name="Points to post: 19")).to_be_visible()


def test_photo_of_a_hand_fills_the_round_form(phone: Page, shot, axe_violations):
    page = phone
    start_night(page)
    create_game(page, ["Ana", "Bo", "Cy"])
    page.get_by_label("Points for Ana").fill("7")
    read_hand_photo(page)
    marked = page.locator("svg.marked-photo")
    expect(marked.locator("polygon")).to_have_count(3)
    expect(marked.locator("a.tile-mark circle")).to_have_count(19)  # the pips
    expect(marked.locator("a.tile-hit circle")).to_have_count(3)  # a tap circle per tile
    shot(page, "pips-marked-photo")
    assert axe_violations(page) == []

    # The player sees the 3-1 is really a 4-1 (say a pip hid under glare): tap it, fix it.
    misread = marked.locator("a.tile-mark", has_text="3-1")
    misread.click()
    # photo.js focuses the tile's picker instead of following the link (no #fragment)
    target = (misread.get_attribute("href") or "#").lstrip("#")
    picker = page.locator(f"#{target} select")
    expect(picker).to_be_focused()
    expect(picker).to_have_value("3-1")
    picker.select_option("4-1")
    # the headline is what will be posted, updated as the tile is corrected (photo.js)
    expect(page.get_by_role("heading", name="Points to post: 20")).to_be_visible()
    page.get_by_role("button", name="Confirm these tiles").click()

    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    expect(page.get_by_text("Bo: 3 tiles from the photo, 20 points")).to_be_visible()
    bo = hand(page, "Bo")
    for tile in ("6-5", "4-1", "2-2"):
        expect(bo.get_by_role("checkbox", name=tile, exact=True)).to_be_checked()
    expect(bo.get_by_role("checkbox", name="3-1", exact=True)).not_to_be_checked()
    expect(bo.locator("output.picked-sum")).to_contain_text("20")
    expect(page.get_by_label("Points for Ana")).to_have_value("7")
    shot(page, "pips-round-form-filled")

    hand(page, "Cy").get_by_label("Went out").check()
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_text("Round saved.")).to_be_visible()
    row = page.locator("#scoreboard tbody.player", has_text="Bo")
    expect(row).to_contain_text("20")


def test_photo_flow_without_javascript(browser, playwright, live_server, shot):
    context = browser.new_context(
        java_script_enabled=False, base_url=live_server.url, **playwright.devices["Pixel 7"]
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        start_night(page)
        create_game(page, ["Eva", "Finn", "Gus"])
        page.get_by_label("Points for Gus").fill("11")
        page.get_by_role("button", name="Count Finn's pips from a photo").click()
        page.wait_for_url(re.compile(r"/photo/\d+\?double=\d+$"))  # the address names its round
        photo = scene([(5, 5), (4, 0)], angle=1.2)
        page.get_by_label("Photo of the tiles, face up and apart").set_input_files(
            files=[{"name": "hand.jpg", "mimeType": "image/jpeg", "buffer": photo.data}]
        )
        page.get_by_role("button", name="Count the pips").click()
        expect(page.get_by_role("heading", name="Points to post: 14")).to_be_visible()
        # the 4-0 was a 4-1: without JS, "Add up my picks" draws the page again with the pick
        pickers = page.locator("select[name='tile'][data-read]")
        index = pickers.evaluate_all("all => all.findIndex(s => s.value === '4-0')")
        pickers.nth(index).select_option("4-1")
        page.get_by_role("button", name="Add up my picks").click()
        expect(page.get_by_role("heading", name="Points to post: 15")).to_be_visible()
        expect(page.locator("svg.marked-photo text", has_text=f"{index + 1}: 4-1")).to_be_visible()
        page.get_by_role("button", name="Confirm these tiles").click()
        page.wait_for_url(re.compile(r"/g/[^/]+$"))
        finn = hand(page, "Finn")
        for tile in ("5-5", "4-1"):
            expect(finn.get_by_role("checkbox", name=tile, exact=True)).to_be_checked()
        expect(page.get_by_label("Points for Gus")).to_have_value("11")
        hand(page, "Eva").get_by_label("Went out").check()
        page.get_by_role("button", name="Save round").click()
        expect(page.get_by_text("Round saved.")).to_be_visible()
        expect(page.locator("#scoreboard tbody.player", has_text="Finn")).to_contain_text("15")
    finally:
        context.close()


def test_points_typed_before_the_photo_do_not_come_back_over_its_tiles(phone: Page):
    """The scorekeeper typed 17 for Bo, then counted Bo's hand from a photo: the page came
    back with the photo's tiles, then the phone's kept typing put 17 back over them and the
    round was saved with 17. The form the server kept while the photo was taken is newer."""
    page = phone
    start_night(page)
    create_game(page, ["Ana", "Bo", "Cy"])
    page.get_by_label("Points for Ana").fill("7")
    page.get_by_label("Points for Bo").fill("17")
    read_hand_photo(page)
    page.get_by_role("button", name="Confirm these tiles").click()

    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    bo = hand(page, "Bo")
    for tile in ("6-5", "3-1", "2-2"):
        expect(bo.get_by_role("checkbox", name=tile, exact=True)).to_be_checked()
    expect(page.get_by_label("Points for Bo")).to_have_value("")
    hand(page, "Cy").get_by_label("Went out").check()
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_text("Round saved.")).to_be_visible()
    expect(page.locator("#scoreboard tbody.player", has_text="Bo")).to_contain_text("19")


def test_typing_stays_when_another_tab_corrects_an_earlier_round_during_the_photo(phone: Page):
    """Tester-60, at 360 px: Ana's 7 and Cy's 9 typed in round 2, Bo's photo read, and another
    tab of the scorekeeper corrected round 1 meanwhile. The Confirm filled Bo's tiles into an
    empty form of round 2: Ana's 7 and Cy's 9 were gone without a word."""
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    start_night(page)
    create_game(page, ["Ana", "Bo", "Cy"])
    page.get_by_label("Points for Ana").fill("5")
    page.get_by_label("Points for Bo").fill("6")
    hand(page, "Cy").get_by_label("Went out").check()
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_text("Round saved.")).to_be_visible()
    page.get_by_label("Points for Ana").fill("7")
    page.get_by_label("Points for Cy").fill("9")
    read_hand_photo(page)

    other = page.context.new_page()  # the scorekeeper's other tab
    other.goto(page.url.split("/photo/")[0])
    other.locator("#correct-rounds a").first.click()
    other.get_by_label("Points for Ana").fill("15")
    other.get_by_role("button", name="Save the correction").click()
    expect(other.get_by_text("Round with 9-9 corrected.", exact=True)).to_be_visible()
    other.close()

    page.get_by_role("button", name="Confirm these tiles").click()
    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    expect(page.get_by_text("Bo: 3 tiles from the photo, 19 points")).to_be_visible()
    for tile in ("6-5", "3-1", "2-2"):
        expect(hand(page, "Bo").get_by_role("checkbox", name=tile, exact=True)).to_be_checked()
    expect(page.get_by_label("Points for Ana")).to_have_value("7")
    expect(page.get_by_label("Points for Cy")).to_have_value("9")
    page.get_by_label("Nobody went out: the round was blocked").check()
    page.get_by_role("button", name="Save round").click()  # not refused as stale
    expect(page.get_by_text("Round saved.")).to_be_visible()
    expect(page.locator("#scoreboard tbody.player", has_text="Bo")).to_contain_text("25")
