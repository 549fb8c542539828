"""Typing on a phone belongs to the seat it was typed for (tester-131's HIGH), at 360 x 740.
Every seat's hand page has one address, /p/<share>: a phone that lost its seat (the
scorekeeper removed it, its session was lost) and joined another player's seat found the
first player's typing back in the new seat's form ("what you typed before this page was
loaded again is back in the form"), and one tap on Post posted it as the other player's; its
outbox offered "Put mine back in the form" there too. Both are kept per seat now."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from companion import access
from companion.extensions import db
from companion.models import Game, HandPost
from tests.browser.table_screen import seed_table
from tests.browser.test_outbox_stale_token_browser import posts_12_offline
from tests.browser.test_repost_and_reload_browser import joins

pytestmark = pytest.mark.browser

KEPT = "() => Object.keys(localStorage).some(k => k.startsWith('cfc-hand-typed:'))"
#: whose the hand is and how to send it (tester-135: "sent by itself once this phone holds
#: Bob's seat again" did not say how), as the join page says it
BOBS = (
    "Not sent: kept for Bob's seat, which this phone does not hold now. It is never posted as "
    "anyone else's hand. To send it, join Bob's seat again: scan the QR code on the "
    "scorekeeper's phone and tap Bob. If that seat still counts as another phone's, ask the "
    "scorekeeper to tap “Remove this phone from the seat” beside Bob, then scan the new QR code "
    "and tap Bob. It is sent by itself then."
)


@pytest.fixture()
def player(small_phone: Page) -> Page:
    """A player's 360 x 740 phone: conftest's ``small_phone``."""
    return small_phone


def removed_from_bobs_seat(app, table_id: int) -> str:
    """The scorekeeper's "Remove this phone from the seat" for Bob; the join link now."""
    return removed_from(app, table_id, "Bob")


def removed_from(app, table_id: int, name: str) -> str:
    """The scorekeeper's "Remove this phone from the seat" for ``name``; the join link now."""
    with app.test_request_context():
        game = db.session.get(Game, table_id)
        assert game is not None
        seat = next(s for s in game.seats if s.player.name == name)
        assert access.free_seat(game, seat.id)
        join = game.join_token
        db.session.remove()
    return join


def hands_posted(app, table_id: int) -> list[tuple[str, int | None]]:
    """Every hand posted in the game: (whose, points)."""
    with app.app_context():
        found = db.session.scalars(select(HandPost).where(HandPost.game_id == table_id))
        return [(p.seat.player.name, p.total) for p in found]


def waits_for_bobs_seat(player: Page) -> None:
    """The outbox's card on a page of a seat other than Bob's (or of no seat): Bob's 12 is
    kept for his seat, said so in words true here, offered to forget, not to put back."""
    entry = player.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "seat", timeout=20_000)
    expect(entry.locator(".outbox-state")).to_have_text(BOBS)
    expect(entry).to_contain_text("12")
    expect(entry.get_by_role("button", name="Forget what this phone had")).to_be_visible()
    expect(entry.get_by_role("button", name="Put mine back in the form")).to_have_count(0)
    expect(entry.get_by_role("button", name="Send now")).to_have_count(0)
    expect(player.locator("#outbox")).not_to_contain_text("before the phone joined")


def holds(player: Page, name: str) -> None:
    expect(player.get_by_role("heading", level=1)).to_have_text(f"{name}'s hand")


def test_typing_kept_for_one_seat_is_not_put_in_another_seats_form(player: Page, live_server):
    app = live_server.app
    table = seed_table(app, ["Ann", "Bob", "Cho"], 6)
    joins(player, table.join, "Bob")
    holds(player, "Bob")
    player.get_by_label("Points left in my hand").fill("8")  # typed, not posted: kept
    player.wait_for_function(KEPT)
    joins(player, removed_from_bobs_seat(app, table.id), "Cho")
    holds(player, "Cho")
    expect(player.get_by_label("Points left in my hand")).to_have_value("")
    expect(player.locator("main")).not_to_contain_text("is back in the form")


def test_a_hand_kept_by_a_removed_phone_waits_for_its_seat_and_is_posted_once_it_is_back(
    player: Page, live_server
):
    """Bob's 12, posted offline, is sent once the connection is back: the phone was removed
    from his seat meanwhile. Not a refusal of the hand: it waits for Bob's seat (on the removed
    page, then on Cho's page once the phone joins Cho's seat: never posted as hers, never put
    back in her form), and is posted as Bob's, once, when the phone holds his seat again."""
    app = live_server.app
    table = seed_table(app, ["Ann", "Bob", "Cho"], 6)
    joins(player, table.join, "Bob")
    holds(player, "Bob")
    join: list[str] = []  # the join link once the scorekeeper removed the phone, offline
    posts_12_offline(
        player, live_server, lambda: join.append(removed_from_bobs_seat(app, table.id))
    )
    # sent when the connection is back: the phone holds no seat now
    waits_for_bobs_seat(player)
    joins(player, join[0], "Cho")
    holds(player, "Cho")
    waits_for_bobs_seat(player)
    expect(player.get_by_label("Points left in my hand")).to_have_value("")
    assert hands_posted(app, table.id) == []
    joins(player, join[0], "Bob")  # (the phone leaves Cho's seat for Bob's)
    expect(player.locator(".post-state")).to_contain_text("Posted: 12 point", timeout=20_000)
    expect(player.locator("#outbox")).to_have_count(0)
    player.wait_for_timeout(1_000)
    assert hands_posted(app, table.id) == [("Bob", 12)]


def test_a_hand_kept_by_a_phone_that_lost_its_session_waits_for_its_seat_elsewhere(
    player: Page, live_server
):
    """Bob's 12 waits offline while the phone loses its session; it joins Cho's seat (a new
    phone to the server) and the hand is sent from her page: refused as not hers, it waits
    for Bob's seat, said so there (and again on her page loaded again), not as the server's
    words for another page. The scorekeeper frees Bob's seat (his old phone's) and the phone
    joins it: the hand is sent by itself and posted as Bob's, once."""
    app = live_server.app
    table = seed_table(app, ["Ann", "Bob", "Cho"], 6)
    joins(player, table.join, "Bob")
    posts_12_offline(player, live_server, player.context.clear_cookies)
    player.wait_for_url(re.compile(r"/j/[\w-]+$"), timeout=20_000)  # "holds no seat"
    joins(player, table.join, "Cho")
    holds(player, "Cho")
    waits_for_bobs_seat(player)
    player.reload()
    waits_for_bobs_seat(player)
    assert hands_posted(app, table.id) == []
    joins(player, removed_from(app, table.id, "Bob"), "Bob")
    expect(player.locator(".post-state")).to_contain_text("Posted: 12 point", timeout=20_000)
    expect(player.locator("#outbox")).to_have_count(0)
    player.wait_for_timeout(1_000)
    assert hands_posted(app, table.id) == [("Bob", 12)]


def test_a_hand_posted_after_the_phone_lost_its_seat_is_kept_for_it(player: Page, live_server):
    """Bob's page is open while the scorekeeper removes the phone from his seat; Bob types 12
    and taps Post (online). Refused only because the phone holds no seat now: the hand is not
    shown once and dropped, it stays on the phone for Bob's seat and is posted as his once the
    phone joins it again."""
    app = live_server.app
    table = seed_table(app, ["Ann", "Bob", "Cho"], 6)
    joins(player, table.join, "Bob")
    join = removed_from_bobs_seat(app, table.id)
    player.get_by_label("Points left in my hand").fill("12")
    player.get_by_role("button", name="Post my hand").click()
    expect(player.get_by_role("heading", level=1)).to_have_text(
        "The scorekeeper removed this phone from the seat"
    )
    waits_for_bobs_seat(player)
    assert hands_posted(app, table.id) == []
    joins(player, join, "Bob")
    expect(player.locator(".post-state")).to_contain_text("Posted: 12 point", timeout=20_000)
    expect(player.locator("#outbox")).to_have_count(0)
    assert hands_posted(app, table.id) == [("Bob", 12)]


@pytest.mark.parametrize("where", ["removed page", "Cho's page"])
def test_forget_on_a_page_without_the_seat_forgets_the_kept_typing_too(
    player: Page, live_server, where: str
):
    """Bob's 12, refused because the phone was removed from his seat, is forgotten on a page
    that does not hold his seat (the removed page; Cho's hand page): the entry and the form's
    kept typing go together (tester-135: the 12 came back in Bob's form, "is back in the
    form", once the phone held his seat again), as the join and home pages' Forget does."""
    app = live_server.app
    table = seed_table(app, ["Ann", "Bob", "Cho"], 6)
    joins(player, table.join, "Bob")
    join = removed_from_bobs_seat(app, table.id)
    player.get_by_label("Points left in my hand").fill("12")
    player.wait_for_function(KEPT)
    player.get_by_role("button", name="Post my hand").click()
    waits_for_bobs_seat(player)
    if where == "Cho's page":
        joins(player, join, "Cho")
        holds(player, "Cho")
        waits_for_bobs_seat(player)
    player.once("dialog", lambda dialog: dialog.accept())
    player.locator("#outbox").get_by_role("button", name="Forget what this phone had").click()
    expect(player.locator("#outbox")).to_have_count(0)
    assert not player.evaluate(KEPT)
    joins(player, join, "Bob")
    holds(player, "Bob")
    expect(player.get_by_label("Points left in my hand")).to_have_value("")
    expect(player.locator("main")).not_to_contain_text("is back in the form")
    assert hands_posted(app, table.id) == []
