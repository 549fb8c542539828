"""A hand kept on the phone, not sent yet, said where the phone comes back (a fresh tester's
findings at 360 x 740).

* Bob posted 12 without a connection, and meanwhile the phone lost its session (its cookie
  gone: the server no longer knows it). Back online the hand cannot be sent and the phone is
  sent to the join page; the hand page, the one place that said a hand was waiting, no longer
  opens. The join page of the game and the home page now say it: Bob's hand for the round,
  its value, kept on this phone and not sent yet, and what to do (join Bob's seat again: it is
  sent by itself then; or forget it). Nothing is posted from those pages.
* A green "Hand posted" from the last post online stayed above the "Not sent yet" card of a
  later hand kept offline: the page said both. The old notice goes when the newer hand is kept.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from companion.extensions import db
from companion.models import HandPost
from tests.browser.table_screen import seed_table
from tests.browser.test_outbox_stale_token_browser import posts_12_offline
from tests.browser.test_repost_and_reload_browser import joins, posts
from tests.browser.test_seat_typing_browser import removed_from_bobs_seat

pytestmark = pytest.mark.browser

FOR_BOB = "Kept on this phone for Bob, not sent yet."


def posted(live_server, game_id: int) -> list[int | None]:
    with live_server.app.app_context():
        rows = db.session.scalars(select(HandPost).where(HandPost.game_id == game_id))
        return [p.total for p in rows]


def bobs_12_kept_by_a_phone_that_lost_its_session(player: Page, live_server):
    """Bob joined, posted 12 offline, the session lost meanwhile; back online, the phone is on
    the game's join page (the scoreboard link's: "This phone holds no seat of this game now")."""
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    joins(player, table.join, "Bob")
    posts_12_offline(player, live_server, player.context.clear_cookies)
    player.wait_for_url(re.compile(r"/j/[\w-]+$"), timeout=20_000)
    return table


def waiting(player: Page):
    card = player.locator("#waiting-hands")
    expect(card).to_be_visible()
    expect(card.get_by_role("heading", level=2)).to_have_text("Not sent yet")
    return card.locator(".outbox-entry")


def test_the_join_page_says_whose_hand_waits_on_this_phone_and_how_to_send_it(
    small_phone: Page, live_server
) -> None:
    table = bobs_12_kept_by_a_phone_that_lost_its_session(small_phone, live_server)
    entry = waiting(small_phone)
    expect(entry).to_have_count(1)
    expect(entry.get_by_role("heading")).to_have_text("Bob's hand for the round with 6-6")
    expect(entry).to_contain_text("Points left in my hand: 12")
    # the scoreboard link's page lists no seats: where the join code is
    expect(entry.locator(".outbox-state")).to_have_text(
        f"{FOR_BOB} To send it, join Bob's seat again: scan the QR code on the scorekeeper's "
        "phone and tap Bob. It is sent by itself then."
    )

    # the join link: Bob's seat still counts as the lost phone's
    small_phone.goto(f"/j/{table.join}")
    expect(waiting(small_phone).locator(".outbox-state")).to_have_text(
        f"{FOR_BOB} To send it, this phone must join Bob's seat again, which still counts as "
        "another phone's: ask the scorekeeper to tap “Remove this phone from the seat” beside "
        "Bob, then scan the new QR code and tap Bob. It is sent by itself then."
    )  # (freeing the seat makes a new join link: "tap Bob here" led to a replaced link)
    assert posted(live_server, table.id) == []  # nothing posted from the join page

    # the scorekeeper freed it: tap Bob, and the hand is posted as typed
    join = removed_from_bobs_seat(live_server.app, table.id)
    small_phone.goto(f"/j/{join}")
    expect(waiting(small_phone).locator(".outbox-state")).to_have_text(
        f"{FOR_BOB} To send it, tap Bob below: this phone joins that seat again and sends it "
        "by itself."
    )
    joins(small_phone, join, "Bob")
    expect(small_phone.locator(".post-state")).to_contain_text("Posted: 12 point", timeout=20_000)
    assert posted(live_server, table.id) == [12]
    small_phone.goto(f"/j/{join}")
    expect(small_phone.locator("#waiting-hands")).to_be_hidden()


def test_the_home_page_says_a_hand_waits_and_it_can_be_forgotten(
    small_phone: Page, live_server
) -> None:
    table = bobs_12_kept_by_a_phone_that_lost_its_session(small_phone, live_server)
    small_phone.goto("/")
    entry = waiting(small_phone)
    expect(entry.get_by_role("heading")).to_have_text("Bob's hand for the round with 6-6")
    expect(entry).to_contain_text("Points left in my hand: 12")
    expect(entry.locator(".outbox-state")).to_have_text(
        "Kept on this phone, not sent yet. To send it, open the game: if this phone is asked "
        "to join, scan the QR code on the scorekeeper's phone and tap your name again. It is "
        "sent by itself then."
    )
    expect(entry.get_by_role("link", name="Open the game")).to_have_attribute(
        "href", f"/p/{table.share}"
    )
    small_phone.once("dialog", lambda dialog: dialog.accept())
    entry.get_by_role("button", name="Forget what this phone had").click()
    expect(small_phone.locator("#waiting-hands")).to_be_hidden()
    kept = small_phone.evaluate("() => localStorage.getItem('cfc-outbox')")
    assert "12" not in (kept or ""), kept
    assert posted(live_server, table.id) == []  # nothing posted from the home page


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
