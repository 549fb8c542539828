"""A phone the scorekeeper removed from its seat is told so (issue 22 leftovers), at 360 x 740:
its open hand page's live poll lands on "The scorekeeper removed this phone from the seat" with
how to join again, not on the join page's "this is the scoreboard link"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from companion import access
from companion.extensions import db
from companion.models import Game
from tests.browser.table_screen import seed_table

pytestmark = pytest.mark.browser


@pytest.fixture()
def player(small_phone: Page) -> Page:
    """A player's 360 x 740 phone: conftest's ``small_phone``."""
    return small_phone


def test_an_open_hand_page_says_the_scorekeeper_removed_this_phone(player: Page, live_server):
    app = live_server.app
    table = seed_table(app, ["Ann", "Bob", "Cho"], 6)
    player.goto(f"/j/{table.join}")
    player.get_by_role("button", name="Bob", exact=True).click()
    expect(player.get_by_role("heading", level=1)).to_have_text("Bob's hand")
    with app.test_request_context():
        game = db.session.get(Game, table.id)
        assert game is not None
        bob = next(s for s in game.seats if s.player.name == "Bob")
        assert access.free_seat(game, bob.id)  # "Remove this phone from the seat"
        db.session.remove()
    # the page's own poll takes it there: no tap, no reload
    expect(player.get_by_role("heading", level=1)).to_have_text(
        "The scorekeeper removed this phone from the seat"
    )
    expect(player.locator("main")).to_contain_text("To join again, scan the QR code")
    assert "/p/" in player.url
    width = player.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, width
