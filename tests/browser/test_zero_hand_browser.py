"""A fresh tester's finding at 360 x 740: Bob's phone, without a connection, posts 0 with "I
went out" unticked. The phone kept it ("Waiting to be sent: kept on this phone and sent by
itself when the connection is back") and the server refused it when the connection came back,
while online the same post was refused at once. The hand page (static/js/hand.js, the
form's data-zero: round_check's rule for this round) refuses it at once, in the server's
words, online or not, and keeps nothing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_screen import Table, seed_table
from tests.browser.test_repost_and_reload_browser import joins
from tests.browser.test_seat_typing_browser import hands_posted

pytestmark = pytest.mark.browser

#: the server's refusal of a 0 without "I went out" (round_check.score_entry, own=True)
ZERO = "Bob: 0 points means no tiles left; tick “I went out”, or type the points left in your hand."


def refused_at_once(phone: Page, typed: str, posts: list[str], words: str = ZERO) -> None:
    """Bob types ``typed`` and taps Post: the points box says the server's ``words``, nothing
    is sent (``posts``: the POSTs the phone made) nor kept on the phone."""
    box = phone.get_by_label("Points left in my hand")
    box.fill(typed)
    phone.get_by_role("button", name="Post my hand").click()
    expect(box).to_be_focused()
    assert box.evaluate("b => b.validationMessage") == words
    # said on the page, where the server's refusals show (a bubble vanished and was missed)
    expect(phone.locator("main > h1 + p.flash.error")).to_have_text(words)
    expect(box).to_have_value(typed)
    phone.wait_for_timeout(500)  # (a kept entry is drawn at once: none comes)
    expect(phone.locator("#outbox")).to_have_count(0)
    expect(phone.get_by_text("Waiting to be sent")).to_have_count(0)
    assert "total" not in (phone.evaluate("() => localStorage.getItem('cfc-outbox')") or "")
    assert posts == []


def bob_joined(phone: Page, live_server) -> tuple[Table, list[str]]:
    """A new double-6 game of Ann, Bob and Cho, Bob's seat joined on ``phone``: the game and
    the addresses of the POSTs the phone makes from now on."""
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    joins(phone, table.join, "Bob")
    posts: list[str] = []
    phone.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    return table, posts


def refused_offline_then_posted(
    phone: Page, live_server, posts: list[str], refused: list[tuple[str, str]], kept: str
) -> None:
    """Without a connection, each ``refused`` (typed, the server's words) is refused at once
    (:func:`refused_at_once`); ``kept`` typed instead is kept on the phone and posted when the
    connection is back."""
    try:
        live_server.wifi.cut = True
        phone.context.set_offline(True)
        for typed, words in refused:
            refused_at_once(phone, typed, posts, words)
        phone.get_by_label("Points left in my hand").fill(kept)
        phone.get_by_role("button", name="Post my hand").click()
        expect(phone.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
    finally:
        live_server.wifi.cut = False
    phone.context.set_offline(False)
    expect(phone.locator(".post-state")).to_contain_text("Posted", timeout=20_000)


def test_a_0_without_going_out_is_refused_at_once_offline_and_never_kept(
    small_phone: Page, live_server
) -> None:
    phone = small_phone
    table, posts = bob_joined(phone, live_server)
    # the points typed instead: kept, as any hand without a connection
    refused_offline_then_posted(phone, live_server, posts, [("0", ZERO), ("00", ZERO)], "5")
    expect(phone.locator(".post-state")).to_contain_text("Posted: 5 points")
    assert hands_posted(live_server.app, table.id) == [("Bob", 5)]


def test_a_0_without_going_out_is_refused_at_once_online_and_posted_with_the_tick(
    small_phone: Page, live_server
) -> None:
    """Online the same words, at once, without a round trip; "I went out" ticked, it posts."""
    phone = small_phone
    table, posts = bob_joined(phone, live_server)
    refused_at_once(phone, "0", posts)
    phone.get_by_label("I went out").check()
    phone.get_by_role("button", name="Post my hand").click()
    expect(phone.locator(".post-state")).to_contain_text(re.compile("went out", re.I))
    assert hands_posted(live_server.app, table.id) == [("Bob", None)]


def test_a_total_beside_tiles_of_other_points_is_refused_at_once_offline_and_never_kept(
    small_phone: Page, live_server
) -> None:
    """The same tester's 0 typed beside tapped tiles, without a connection: kept on the phone,
    then refused by the server in other words ("Your tapped tiles add up to…"). The phone
    refuses it at once in those words (the server's refusal of a total beside tiles of other
    points: data-beside), a 0 or any other number; the tiles with their own sum are posted."""
    phone = small_phone
    table, posts = bob_joined(phone, live_server)
    phone.get_by_role("button", name="Tap the tiles").click()  # the picker comes from the server
    phone.get_by_label("6-4", exact=True).check()
    phone.get_by_label("3-2", exact=True).check()
    beside = (
        "Your tapped tiles add up to 15 points, but you typed {0}. To post {0}, untick the "
        "tiles; to post the tiles, empty “Points left in my hand”."
    )
    offline = [(typed, beside.format(int(typed))) for typed in ("0", "00", "12")]
    # their own sum beside them: the tiles, kept as any hand without a connection
    refused_offline_then_posted(phone, live_server, posts, offline, "15")
    expect(phone.locator(".post-state")).to_contain_text("2 tiles: 3-2 6-4")
    assert hands_posted(live_server.app, table.id) == [("Bob", None)]
