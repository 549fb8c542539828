"""Typing on a phone belongs to the seat it was typed for (tester-131's HIGH), at 360 x 740.
Every seat's hand page has one address, /p/<share>: a phone that lost its seat (the
scorekeeper removed it, its session was lost) and joined another player's seat found the
first player's typing back in the new seat's form ("what you typed before this page was
loaded again is back in the form"), and one tap on Post posted it as the other player's; its
outbox offered "Put mine back in the form" there too. Both are kept per seat now."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from companion import access
from companion.extensions import db
from companion.models import Game
from tests.browser.conftest import phone_page
from tests.browser.table_screen import SMALL_PHONE, seed_table
from tests.browser.test_outbox_stale_token_browser import posts_12_offline
from tests.browser.test_repost_and_reload_browser import joins

pytestmark = pytest.mark.browser

KEPT = "() => Object.keys(localStorage).some(k => k.startsWith('cfc-hand-typed:'))"


@pytest.fixture()
def player(browser, live_server) -> Iterator[Page]:
    with phone_page(browser, live_server, 15_000, **SMALL_PHONE) as page:
        yield page


def removed_from_bobs_seat(app, table_id: int) -> str:
    """The scorekeeper's "Remove this phone from the seat" for Bob; the join link now."""
    with app.test_request_context():
        game = db.session.get(Game, table_id)
        assert game is not None
        bob = next(s for s in game.seats if s.player.name == "Bob")
        assert access.free_seat(game, bob.id)
        join = game.join_token
        db.session.remove()
    return join


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


def test_a_waiting_hand_of_another_seat_is_not_offered_for_this_seats_form(
    player: Page, live_server
):
    app = live_server.app
    table = seed_table(app, ["Ann", "Bob", "Cho"], 6)
    joins(player, table.join, "Bob")
    holds(player, "Bob")
    join: list[str] = []  # the join link once the scorekeeper removed the phone, offline
    posts_12_offline(
        player, live_server, lambda: join.append(removed_from_bobs_seat(app, table.id))
    )
    # sent when the connection is back: refused (the phone no longer holds Bob's seat)
    expect(player.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "refused")
    joins(player, join[0], "Cho")
    holds(player, "Cho")
    entry = player.locator("#outbox .outbox-entry")
    expect(entry).to_contain_text("12")  # Bob's hand is still on the phone, said as refused
    expect(entry.get_by_role("button", name="Put mine back in the form")).to_have_count(0)
    expect(player.get_by_label("Points left in my hand")).to_have_value("")
