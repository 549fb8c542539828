"""A fresh tester's findings on entries kept on a phone (static/js/offline.js, waiting.js), at
360 x 740: a hand kept for its seat in a game that ended since says it was not counted (not
"sent by itself"); a refused hand is listed on the join and home pages too; the scorekeeper's
old "Round saved." goes once a later Save is kept offline."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect
from sqlalchemy import select

from companion.extensions import db
from companion.models import Game
from tests.browser.test_entries_kept_browser import keeper_saves
from tests.browser.test_offline_browser import (
    fill_round,
    last_round_saved_and_rematch,
    last_round_to_play,
    new_game,
    offline,
    other_posts,
)
from tests.browser.test_outbox_stale_token_browser import posts_12_offline
from tests.browser.test_repost_and_reload_browser import joins
from tests.browser.test_seat_typing_browser import hands_posted, removed_from, waits_for_bobs_seat

pytestmark = pytest.mark.browser

#: what a hand kept for its seat says once its game ended (its last round saved): not counted,
#: and what to do if it should have been (table/hand.html's data-over)
NOT_COUNTED = (
    "Not counted: the game ended before this hand was sent, so it can no longer be posted. "
    "If the saved score is wrong, tell the scorekeeper: they can correct the round."
)


def test_a_hand_kept_for_its_seat_in_a_game_that_ended_says_it_was_not_counted(
    small_phone: Page, live_server
) -> None:
    """Bob's 12 for the last round waits for his seat (the scorekeeper removed the phone);
    the scorekeeper saves that round and starts a rematch; the phone joins Bob's seat of the
    rematch. The hand can never be sent now (its game is over), yet it said "It is sent by
    itself then" for ever. It says it was not counted and what to do, with its values and
    Forget."""
    player = small_phone
    app = live_server.app
    game, other = last_round_to_play(live_server)
    joins(player, game["join"], "Bob")
    join = removed_from(app, game["id"], "Bob")
    player.get_by_label("Points left in my hand").fill("12")
    player.get_by_role("button", name="Post my hand").click()
    waits_for_bobs_seat(player)
    last_round_saved_and_rematch(live_server, game, other)
    joins(player, join, "Bob")  # the old join link leads to the rematch's seats
    expect(player.get_by_role("heading", level=1)).to_have_text("Bob's hand")
    assert game["share"] not in player.url
    entry = player.locator("#outbox .outbox-entry")
    expect(entry.locator(".outbox-state")).to_have_text(NOT_COUNTED, timeout=20_000)
    expect(player.locator("#outbox")).not_to_contain_text("sent by itself")
    expect(player.locator("#outbox h2")).to_have_text("Not saved: check these")
    expect(entry.locator(".outbox-own")).to_contain_text("12")
    expect(entry.get_by_role("button", name="Send now")).to_have_count(0)
    player.once("dialog", lambda dialog: dialog.accept())
    entry.get_by_role("button", name="Forget what this phone had").click()
    expect(player.locator("#outbox")).to_have_count(0)
    assert ("Bob", 12) not in hands_posted(app, game["id"])


def bobs_last_12_refused_as_stale(player: Page, live_server) -> tuple[dict[str, Any], Any]:
    """Bob's 12 for the last round waits offline and the phone loses its session meanwhile, so
    back online the hand is refused as stale (its token is no longer the phone's): the phone is
    on the game's join page. The game and the scorekeeper's phone (``last_round_to_play``)."""
    game, other = last_round_to_play(live_server)
    joins(player, game["join"], "Bob")
    posts_12_offline(player, live_server, player.context.clear_cookies)
    player.wait_for_url(re.compile(r"/j/[\w-]+$"), timeout=20_000)
    return game, other


def test_a_stale_hand_of_a_game_that_ended_says_it_was_not_counted_in_the_rematch(
    small_phone: Page, live_server
) -> None:
    """Bob's 12 for the last round waits offline; the phone loses its session, so back online
    the hand is refused as stale (its token is no longer the phone's). The scorekeeper saves
    that round and starts a rematch; the phone joins Bob's seat of it. The rematch's page has
    no token for the old game's page: it said "reload the page to send it", with only Send
    now, for ever. It says the hand was not counted, with its values and Forget, and nothing
    is posted into the rematch."""
    player = small_phone
    app = live_server.app
    game, other = bobs_last_12_refused_as_stale(player, live_server)
    join = removed_from(app, game["id"], "Bob")
    last_round_saved_and_rematch(live_server, game, other)
    posted: list[str] = []
    player.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    joins(player, join, "Bob")
    expect(player.get_by_role("heading", level=1)).to_have_text("Bob's hand")
    rematch = player.url
    assert game["share"] not in rematch
    entry = player.locator("#outbox .outbox-entry")
    for _ in range(2):  # and again after a reload
        expect(entry.locator(".outbox-state")).to_have_text(NOT_COUNTED, timeout=20_000)
        expect(player.locator("#outbox h2")).to_have_text("Not saved: check these")
        expect(entry.locator(".outbox-own")).to_contain_text("12")
        expect(entry.get_by_role("button", name="Send now")).to_have_count(0)
        player.reload()
    player.once("dialog", lambda dialog: dialog.accept())
    entry.get_by_role("button", name="Forget what this phone had").click()
    expect(player.locator("#outbox")).to_have_count(0)
    assert [url for url in posted if url.startswith(rematch)] == []
    with app.app_context():
        rematch_id = db.session.scalar(
            select(Game.id).where(Game.share_token == rematch.rsplit("/", 1)[1])
        )
    assert hands_posted(app, rematch_id) == []
    assert ("Bob", 12) not in hands_posted(app, game["id"])


def test_a_removed_phones_hand_kept_for_its_seat_in_a_game_that_ended_says_it_was_not_counted(
    small_phone: Page, live_server
) -> None:
    """Bob's 12 for the last round waits for his seat (the scorekeeper removed the phone); the
    scorekeeper saves that round: the game is over. The removed page still said "To join
    again" and its outbox "It is sent by itself then": neither can happen now. It says the
    hand was not counted, with its values and Forget; so does the home page's list of hands
    not sent yet (which said "It is sent by itself then" too)."""
    player = small_phone
    app = live_server.app
    game, other = last_round_to_play(live_server)
    joins(player, game["join"], "Bob")
    removed_from(app, game["id"], "Bob")
    player.get_by_label("Points left in my hand").fill("12")
    player.get_by_role("button", name="Post my hand").click()
    waits_for_bobs_seat(player)
    assert other_posts(other, game, f"/g/{game['edit']}/round", game["last"]) == 303
    player.reload()
    expect(player.get_by_role("heading", level=1)).to_have_text(
        "The scorekeeper removed this phone from the seat"
    )
    expect(player.locator("main")).not_to_contain_text("To join again")
    entry = player.locator("#outbox .outbox-entry")
    expect(entry.locator(".outbox-state")).to_have_text(NOT_COUNTED, timeout=20_000)
    expect(entry.locator(".outbox-own")).to_contain_text("12")
    player.goto("/")
    forgets_it_not_counted(player)
    assert ("Bob", 12) not in hands_posted(app, game["id"])


def not_counted_listed(player: Page) -> Locator:
    """The join or home page lists Bob's 12 as its hand page lists it: under "Not saved: check
    these" (never "Not sent yet"), not counted, its values, Forget and no Send now."""
    listed = player.locator("#refused-hands .outbox-entry")
    expect(listed.locator(".outbox-state")).to_have_text(NOT_COUNTED, timeout=20_000)
    expect(player.locator("#refused-hands h2")).to_have_text("Not saved: check these")
    expect(player.locator("#waiting-hands")).to_be_hidden()
    expect(player.locator("main")).not_to_contain_text("sent by itself")
    expect(listed.locator(".outbox-own")).to_contain_text("12")
    expect(listed.get_by_role("button", name="Send now")).to_have_count(0)
    return listed


def forgets_it_not_counted(player: Page) -> None:
    """Bob's 12 listed as not counted (:func:`not_counted_listed`), then forgotten."""
    listed = not_counted_listed(player)
    player.once("dialog", lambda dialog: dialog.accept())
    listed.get_by_role("button", name="Forget what this phone had").click()
    expect(listed).to_have_count(0)
    expect(player.locator("#refused-hands")).to_be_hidden()
    assert player.evaluate("() => localStorage.getItem('cfc-outbox')") in (None, "[]")


#: a page's watch: window.promised once it said a kept hand "is sent by itself then"
PROMISED = """
window.promised = false;
new MutationObserver(function () {
  if (/sent by itself/.test(document.body.innerText)) { window.promised = true; }
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""


def test_a_hand_kept_by_a_phone_that_lost_its_session_says_so_once_its_game_ended(
    small_phone: Page, live_server
) -> None:
    """Bob's 12 for the last round waits offline; the phone loses its session (its cookie
    gone: the server knows none of its games), so back online the hand is refused as stale.
    The scorekeeper saves that round: the game is over. The home page and the game's join
    page said "It is sent by itself then": they say it was not counted, as its hand page
    would, and nothing is posted."""
    player = small_phone
    app = live_server.app
    game, other = bobs_last_12_refused_as_stale(player, live_server)
    assert other_posts(other, game, f"/g/{game['edit']}/round", game["last"]) == 303
    player.add_init_script(PROMISED)
    player.goto("/")
    not_counted_listed(player)
    assert not player.evaluate("window.promised")  # not even until the server answered
    player.goto(f"/p/{game['share']}")  # "Open the game": its join page
    player.wait_for_url(re.compile(r"/j/[\w-]+$"))
    forgets_it_not_counted(player)
    assert not player.evaluate("window.promised")
    assert ("Bob", 12) not in hands_posted(app, game["id"])


def test_a_refused_hand_is_listed_on_the_join_and_home_pages(small_phone: Page, live_server):
    """Bob's 12 waits offline while the scorekeeper saves the round with his 20: sent, it is
    refused ("already saved") on his hand page. Then the phone loses its session: it lands
    on the join page, where the hand page's card is no longer shown. The join page and the
    home page list it, with the refusal's words as the hand page shows them, and Forget."""
    player = small_phone
    app = live_server.app
    game = new_game(live_server)
    joins(player, game["join"], "Bob")
    bobs_20 = {"Ann": None, "Bob": 20, "Cy": 5}
    posts_12_offline(player, live_server, lambda: keeper_saves(app, game["id"], bobs_20))
    entry = player.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "conflict", timeout=20_000)
    player.context.clear_cookies()
    player.goto(f"/p/{game['share']}")
    player.wait_for_url(re.compile(r"/j/[\w-]+$"))
    for where in ("join page", "home page"):
        if where == "home page":
            player.goto("/")
        listed = player.locator("#refused-hands .outbox-entry")
        expect(listed).to_have_count(1)
        expect(listed).to_contain_text("The round with 6-6 was already saved")
        expect(listed).to_contain_text("Saved: 20")
        expect(listed).to_contain_text("What you typed: 12")
        expect(listed).to_contain_text("If the saved score is wrong, tell the scorekeeper")
    player.once("dialog", lambda dialog: dialog.accept())
    listed.get_by_role("button", name="Forget what this phone had").click()
    expect(listed).to_have_count(0)
    expect(player.locator("#refused-hands")).to_be_hidden()
    assert player.evaluate("() => localStorage.getItem('cfc-outbox')") in (None, "[]")


def test_a_save_kept_offline_takes_the_old_round_saved_notice_away(
    small_phone: Page, live_server
) -> None:
    """Round 1 saved ("Round saved."), then the next round's Save is kept offline: the old
    "Round saved." stayed above it, as if this Save had gone through."""
    keeper = small_phone
    game = new_game(live_server)
    keeper.goto(f"/g/{game['edit']}")
    keeper.wait_for_function("() => window.htmx !== undefined")
    fill_round(keeper)
    keeper.get_by_role("button", name="Save round", exact=True).click()
    expect(keeper.locator("#round-area .flash.success")).to_have_text("Round saved.")
    expect(keeper.locator("#round-title")).to_have_text(re.compile("Round 2 of"))
    try:
        offline(keeper.context, live_server, True)
        keeper.get_by_label("Points for Ann").fill("4")
        keeper.get_by_label("Points for Cy").fill("3")
        keeper.locator("fieldset.hand").filter(has_text="Bob").get_by_label("Went out").check()
        keeper.get_by_role("button", name="Save round", exact=True).click()
        expect(keeper.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
        expect(keeper.get_by_text("Round saved.")).to_have_count(0)
    finally:
        offline(keeper.context, live_server, False)


def test_a_hand_still_waiting_when_the_rematch_opens_stays_there_once_refused_as_stale(
    small_phone: Page, live_server
) -> None:
    """Bob's 12 for the last round is kept (its post never arrived) and is still plain
    "waiting" when the phone, which lost its session meanwhile, opens the rematch's hand
    page. Sent once from there, it is refused as stale (its token was the lost session's):
    the phone stays on the rematch's page (the old game's page, loaded for a fresh token,
    can never send it: that game is over) and the hand says it was not counted."""
    player = small_phone
    app = live_server.app
    game, other = last_round_to_play(live_server)
    joins(player, game["join"], "Bob")
    old_post = re.compile(re.escape(f"/p/{game['share']}") + r"\?seat=\d+$")

    def lost(route) -> None:
        route.abort() if route.request.method == "POST" else route.continue_()

    player.route(old_post, lost)  # the post never arrives: kept, "waiting"
    player.get_by_label("Points left in my hand").fill("12")
    player.get_by_role("button", name="Post my hand").click()
    entry = player.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting", timeout=20_000)
    player.context.clear_cookies()
    join = removed_from(app, game["id"], "Bob")
    last_round_saved_and_rematch(live_server, game, other)
    joins(player, join, "Bob")
    rematch = player.url
    assert game["share"] not in rematch
    expect(entry).to_have_attribute("data-state", "waiting")
    opened: list[str] = []
    player.on("request", lambda r: opened.append(r.url) if r.is_navigation_request() else None)
    player.unroute(old_post)
    entry.get_by_role("button", name="Send now").click()
    expect(entry.locator(".outbox-state")).to_have_text(NOT_COUNTED, timeout=20_000)
    expect(entry.get_by_role("button", name="Send now")).to_have_count(0)
    player.wait_for_timeout(1_000)
    assert opened == [], opened  # stayed on the rematch's page: the old one never opened
    assert player.url == rematch
    assert ("Bob", 12) not in hands_posted(app, game["id"])


def test_a_finished_games_join_link_lists_the_hand_kept_for_it_as_not_counted(
    small_phone: Page, live_server
) -> None:
    """Bob's 12 for the last round waits on the phone (its session lost); the scorekeeper
    saves that round: the game is over. Its join link (a QR code scanned again) said "Page
    gone" and nothing else: it lists the kept hand as not counted, with Forget."""
    player = small_phone
    game, other = bobs_last_12_refused_as_stale(player, live_server)
    assert other_posts(other, game, f"/g/{game['edit']}/round", game["last"]) == 303
    player.add_init_script(PROMISED)
    response = player.goto(f"/j/{game['join']}")
    assert response is not None and response.status == 410
    expect(player.locator("main")).to_contain_text("This game is over")
    forgets_it_not_counted(player)
    assert not player.evaluate("window.promised")
    width = player.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, width
    assert ("Bob", 12) not in hands_posted(live_server.app, game["id"])
