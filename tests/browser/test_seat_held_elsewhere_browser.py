"""A player whose old session still holds their seat (a rematch on another phone, a phone that
lost its cookie), at 360 x 740. The join page said only "taken by another phone" beside their
name, with no way forward. Now it says what to do, naming the scorekeeper's own button; the
scorekeeper taps it, and the old join link says what happened (a phone was removed from a
seat, not "changed on purpose"), and the new QR code's link gives the seat back."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from companion.extensions import db
from companion.models import Game
from tests.browser.table_screen import seed_table

pytestmark = pytest.mark.browser

#: the scorekeeper's button that frees a seat (templates/games/_seat_phones.html)
REMOVE_BUTTON = "Remove this phone from the seat"


def join_link(app, game_id: int) -> str:
    """The game's join secret now (the one its scorekeeper's QR code shows)."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        token = game.join_token
        db.session.remove()
        return token


def narrow(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, width


def test_a_seat_held_by_an_old_session_says_how_to_get_it_back(
    two_phones: tuple[Page, Page], live_server
):
    keeper, player = two_phones
    app = live_server.app
    table = seed_table(app, ["Ann", "Bob", "Cho"], 6)
    keeper.goto(f"/g/{table.edit}")
    player.goto(f"/j/{table.join}")
    player.get_by_role("button", name="Bob", exact=True).click()
    expect(player.get_by_role("heading", level=1)).to_have_text("Bob's hand")
    player.context.clear_cookies()  # the phone lost its saved data: the old session holds Bob
    player.goto(f"/j/{table.join}")
    seats = player.locator("ul.seats")
    expect(seats.get_by_role("button", name="Bob", exact=True)).to_be_disabled()
    expect(seats).to_contain_text("taken by another phone")
    expect(player.locator("#seat-taken-help")).to_have_text(
        "Is your name taken, but this is your phone? An old session (the phone you used "
        "before, or this one before it lost its saved data) still holds your seat. Ask the "
        f"scorekeeper to tap “{REMOVE_BUTTON}” beside your name, below the scoreboard on the "
        "scorekeeper's phone. That gives the game a new join link: scan the new QR code, then "
        "tap your name again."
    )
    narrow(player)
    # the scorekeeper finds that very button beside Bob, and taps it
    keeper.reload()
    bob_line = keeper.locator("ul.joined li", has_text="Bob:")
    bob_line.get_by_role("button", name=REMOVE_BUTTON).click()
    expect(keeper.locator("ul.joined li", has_text="Bob:")).to_contain_text("not joined")
    # the page the player still has: its link no longer opens the seats, and says why
    player.reload()
    main = player.locator("main")
    expect(main).to_contain_text(
        "This join link no longer opens the seats: the scorekeeper removed a phone from a seat"
    )
    expect(main).not_to_contain_text("changed it on purpose")
    narrow(player)
    # the new QR code's link: Bob's name, tapped again
    player.goto(f"/j/{join_link(app, table.id)}")
    expect(player.locator("#seat-taken-help")).to_have_count(0)
    player.get_by_role("button", name="Bob", exact=True).click()
    expect(player.get_by_role("heading", level=1)).to_have_text("Bob's hand")
