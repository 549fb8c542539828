"""Two scorekeeper pages of one phone-sized browser (360 x 740, JavaScript on): the round saves
itself while page A's form holds Bob 5 typed over his post, A shows the comparison; page B
then corrects Ann's hand; A's comparison catches up with the round as saved now (Ann 9, the
live poll's redraw: docs/OFFLINE.md), and its "Put mine back in the form" opens the correction
of the round as saved now with A's 5 in it, whose Save keeps B's correction (docs/TABLE.md,
"The comparison"). A tap made before the comparison caught up is told that the round changed
since: tests/web/games/test_mine_beside.py (the page cannot be held back from its poll here,
so which of the two a browser sees was a race)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Locator, Page, expect

from companion.extensions import db
from companion.models import Game
from tests.browser.table_screen import phone_posts
from tests.browser.test_auto_saved_typing_browser import auto_save_on, round_saves_itself
from tests.browser.test_live_table_browser import game_row, points
from tests.browser.test_table_screen_browser import small_phone

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def saved_points(app: Flask, game_id: int) -> dict[str, int]:
    """Player name -> points in the game's first saved round."""
    with app.test_request_context():
        game = db.session.get(Game, game_id)
        names = {s.id: s.player.name for s in game.seats}
        found = {names[h.seat_id]: h.points for h in game.rounds[0].hands}
        db.session.remove()
    return found


def compared_with_bob_5(page: Page, app: Flask) -> tuple[Any, list[str], Locator]:
    """Auto-save on, Bob 5 typed over his post of 12, and the round saved itself from the
    posts (Ann 7, Bob 12, Cho went out): the table, its console errors and the round area
    showing the comparison."""
    table, errors = auto_save_on(page, app)
    points(page, "Bob").fill("5")
    phone_posts(app, table.id, {0: 7, 1: 12, 2: None})
    round_saves_itself(app, table.id)
    area = page.locator("#round-area")
    expect(area.locator("ul.saved-hands.mine")).to_have_text("Bob: 5 points (saved: 12 points)")
    return table, errors, area


def test_put_mine_back_keeps_a_correction_made_on_another_page_since(
    small_phone: Page, live_server
) -> None:
    app = live_server.app
    table, errors, area = compared_with_bob_5(small_phone, app)

    other = small_phone.context.new_page()  # phone B: Ann 7 -> 9
    other.goto(f"/g/{table.edit}/round/1")
    points(other, "Ann").fill("9")
    other.get_by_role("button", name="Save the correction").click()
    expect(other.get_by_text("Round with 9-9 corrected.")).to_be_visible()
    assert saved_points(app, table.id)["Ann"] == 9

    expect(area).to_contain_text("Ann: 9")  # the comparison of the round as saved now
    area.get_by_role("button", name="Put mine back in the form").click()
    expect(small_phone.locator("#round-area")).to_contain_text("Save the correction")
    expect(small_phone.get_by_text("changed on another phone since")).to_have_count(0)
    expect(points(small_phone, "Ann")).to_have_value("9")
    expect(points(small_phone, "Bob")).to_have_value("5")
    small_phone.get_by_role("button", name="Save the correction").click()
    expect(small_phone.get_by_text("Round with 9-9 corrected.")).to_be_visible()
    assert saved_points(app, table.id) == {"Ann": 9, "Bob": 5, "Cho": 0}
    assert game_row(app, table.id)[2] == 1
    assert errors == []
