"""The last testers' findings on the player's hand page (static/js/hand.js), at 360 x 740:

* the phone's own refusals of a hand (a total typed beside tapped tiles of other points, a 0
  without "I went out", a total above the most a hand may hold) showed only as the browser's
  validation bubble, which vanished at the next touch and was missed: they are said on the
  page, where the server's refusals of a hand show (under the heading, the same notice),
  online and offline, the typing kept;
* "add up to 1 points": each language's plural form of the tiles' sum ("1 point", "2 очка"),
  and which to clear said (the typed total or the tiles);
* a total above the most a hand may hold, typed beside tiles, got the "add up to" words where
  the server says the limit: the phone says what the server would;
* "I went out" ticked beside a typed total other than 0, or beside tapped tiles, was kept as
  "Waiting to be sent" offline and refused only once back online, by the server: the phone
  refuses it at once, in the server's words (round_check's), kept nowhere, the typing kept;
* "Tap the tiles" without a connection said "Could not reach the server… What is shown may be
  out of date" and logged "undefined": it says why the tiles cannot come and what to do."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from companion.extensions import db
from companion.models import Game
from companion.services.round_check import (
    score_bound,
    too_many_points,
    went_out_scores,
    went_out_with_tiles,
)
from tests.browser.test_languages_browser import choose_language
from tests.browser.test_seat_typing_browser import hands_posted
from tests.browser.test_zero_hand_browser import bob_joined

pytestmark = pytest.mark.browser

#: where the server's refusal of a post shows on the hand page (table/hand.html's problem)
REFUSAL = "main > h1 + p.flash.error[role=alert]"
#: the hand page's box for the points left (its label)
BOX = "Points left in my hand"


def beside(points: int, typed: int) -> str:
    """The refusal of ``typed`` beside tapped tiles of ``points`` points, in English."""
    unit = "point" if points == 1 else "points"
    return (
        f"Your tapped tiles add up to {points} {unit}, but you typed {typed}. To post {typed}, "
        "untick the tiles; to post the tiles, empty “Points left in my hand”."
    )


def offline(phone: Page, live_server, cut: bool) -> None:
    """The phone's connection cut (``cut``) or back."""
    live_server.wifi.cut = cut
    phone.context.set_offline(cut)


def test_a_total_beside_tapped_tiles_is_refused_on_the_page_offline_where_the_server_says(
    small_phone: Page, live_server
) -> None:
    """Bob taps 1-0 and types 3 without a connection: the refusal is on the page in words
    (not a bubble), under the heading, in view, and stays at the next touch; the 3 stays in
    its box; nothing is sent or kept. It follows the typing: gone once the total is the tiles'
    sum. Back online, the server's refusal of another post shows in that same place."""
    phone = small_phone
    table, posts = bob_joined(phone, live_server)
    phone.get_by_role("button", name="Tap the tiles").click()
    phone.get_by_label("1-0", exact=True).check()
    box = phone.get_by_label(BOX)
    note = phone.locator(REFUSAL)
    try:
        offline(phone, live_server, True)
        box.fill("3")
        phone.get_by_role("button", name="Post my hand").click()
        expect(note).to_have_text(beside(1, 3))
        expect(note).to_be_in_viewport()
        expect(box).to_be_focused()
        expect(box).to_have_value("3")
        phone.locator("main h1").click()  # the next touch: a bubble went, the words stay
        expect(note).to_have_text(beside(1, 3))
        box.fill("30")
        expect(note).to_have_text(beside(1, 30))
        box.fill("1")
        expect(note).to_be_hidden()
        phone.wait_for_timeout(300)
        expect(phone.locator("#outbox")).to_have_count(0)
        assert posts == []
    finally:
        offline(phone, live_server, False)
    # the server's own refusal (a total that is no number: the phone leaves it to the server)
    box.fill("1x")
    phone.get_by_role("button", name="Post my hand").click()
    expect(note).to_have_text("Bob: type the points as a whole number (digits only).")
    expect(phone.locator("main p.flash.error")).to_have_count(1)
    # and the phone's again, in that same notice
    phone.get_by_label("1-0", exact=True).check()
    box.fill("0")
    phone.get_by_role("button", name="Post my hand").click()
    expect(note).to_have_text(beside(1, 0))
    expect(phone.locator("main p.flash.error")).to_have_count(1)
    assert hands_posted(live_server.app, table.id) == []


def test_a_0_without_going_out_is_refused_on_the_page_online(
    small_phone: Page, live_server
) -> None:
    phone = small_phone
    _table, posts = bob_joined(phone, live_server)
    phone.get_by_label(BOX).fill("0")
    phone.get_by_role("button", name="Post my hand").click()
    expect(phone.locator(REFUSAL)).to_have_text(
        "Bob: 0 points means no tiles left; tick “I went out”, or type the points left in "
        "your hand."
    )
    expect(phone.get_by_label(BOX)).to_have_value("0")
    assert posts == []


def test_the_tiles_sum_takes_the_languages_plural_form(small_phone: Page, live_server) -> None:
    """In Russian, 2 points is "2 очка" and 5 "5 очков" (the words per plural form the page
    gives, picked by the sum): "add up to 1 points" was said in every language."""
    phone = small_phone
    table, posts = bob_joined(phone, live_server)
    choose_language(phone, "ru")
    phone.goto(f"/p/{table.share}")
    phone.locator("#hand-form button.picker-open").click()
    phone.get_by_label("1-1", exact=True).check()
    box = phone.locator("#total")
    box.fill("7")
    phone.locator("#hand-form .actions button").click()
    note = phone.locator(REFUSAL)
    expect(note).to_contain_text("Отмеченные кости дают в сумме 2 очка, а введено 7.")
    phone.get_by_label("1-1", exact=True).uncheck()
    phone.get_by_label("1-0", exact=True).check()
    expect(note).to_contain_text("в сумме 1 очко, а введено 7.")
    phone.get_by_label("4-1", exact=True).check()
    expect(note).to_contain_text("в сумме 6 очков, а введено 7.")
    assert [url for url in posts if "/p/" in url] == []  # (the language's POST aside)


def test_a_total_above_the_most_a_hand_holds_beside_tiles_gets_the_servers_words(
    small_phone: Page, live_server
) -> None:
    """9999 beside tapped tiles: the server says the limit first; so does the phone (it said
    the tiles "add up to" 1 point), online or not."""
    phone = small_phone
    table, posts = bob_joined(phone, live_server)
    app = live_server.app
    with app.test_request_context():
        game = db.session.get(Game, table.id)
        assert game is not None
        words = too_many_points("Bob", "9999", score_bound(game, 6))
        db.session.remove()
    assert "(at most" in words
    phone.get_by_role("button", name="Tap the tiles").click()
    phone.get_by_label("1-0", exact=True).check()
    try:
        offline(phone, live_server, True)
        phone.get_by_label(BOX).fill("9999")
        phone.get_by_role("button", name="Post my hand").click()
        expect(phone.locator(REFUSAL)).to_have_text(words)
    finally:
        offline(phone, live_server, False)
    assert posts == []


def test_went_out_beside_a_total_or_tiles_is_refused_on_the_page_offline(
    small_phone: Page, live_server
) -> None:
    """Offline, Bob ticks "I went out" and types 12: the server's refusal is on the page at
    once, nothing kept in the outbox, the 12 and the tick in the form; the same with a tile
    tapped (and no total). It follows the typing: gone at 0 or the tiles unticked, and that
    went-out post is then kept and sent once the connection is back."""
    phone = small_phone
    table, posts = bob_joined(phone, live_server)
    with live_server.app.test_request_context():
        total_words = went_out_scores("Bob", 0, 12)
        tiles_words = str(went_out_with_tiles("Bob"))
    assert total_words == "Bob went out, so Bob scores 0 points, not 12."
    phone.get_by_role("button", name="Tap the tiles").click()
    box, out = phone.get_by_label(BOX), phone.get_by_label("I went out")
    tile = phone.get_by_label("1-0", exact=True)
    note = phone.locator(REFUSAL)
    post = phone.get_by_role("button", name="Post my hand")
    try:
        offline(phone, live_server, True)
        out.check()
        box.fill("12")
        post.click()
        expect(note).to_have_text(total_words)
        expect(note).to_be_in_viewport()
        expect(box).to_have_value("12")
        expect(out).to_be_checked()
        phone.wait_for_timeout(300)
        expect(phone.locator("#outbox")).to_have_count(0)
        box.fill("0")
        expect(note).to_be_hidden()
        box.fill("")
        tile.check()
        post.click()
        expect(note).to_have_text(tiles_words)
        expect(tile).to_be_checked()
        phone.wait_for_timeout(300)
        expect(phone.locator("#outbox")).to_have_count(0)
        assert posts == []
        tile.uncheck()
        expect(note).to_be_hidden()
        post.click()  # "I went out" alone: kept, sent when back online
        expect(phone.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
    finally:
        offline(phone, live_server, False)
    expect(phone.locator(".post-state")).to_contain_text("Posted", timeout=20_000)
    assert hands_posted(live_server.app, table.id) != []


def test_tap_the_tiles_without_a_connection_says_why_in_plain_words(
    small_phone: Page, live_server
) -> None:
    phone = small_phone
    bob_joined(phone, live_server)
    logged: list[str] = []
    phone.on("console", lambda message: logged.append(message.text))
    phone.on("pageerror", lambda error: logged.append(str(error)))
    opener = phone.get_by_role("button", name="Tap the tiles")
    try:
        offline(phone, live_server, True)
        opener.click()
        said = phone.locator("#hand-form .picker-offline")
        expect(said).to_have_text(
            "The tiles to tap come from the server, so they can’t be shown without a "
            "connection. Type the points left in your hand instead, or tap “Tap the tiles” "
            "again once the phone is online."
        )
        expect(said).to_be_in_viewport()
        phone.wait_for_timeout(500)
        expect(phone.get_by_text("Could not reach the server")).to_have_count(0)
        assert not [line for line in logged if "undefined" in line], logged
        expect(opener).to_be_enabled()
    finally:
        offline(phone, live_server, False)
    opener.click()  # online again: the picker comes, the words go
    expect(phone.get_by_label("1-0", exact=True)).to_be_visible()
    expect(phone.locator("#hand-form .picker-offline")).to_have_count(0)
