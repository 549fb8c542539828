"""A hand posted by a phone that holds no seat of the game and was never removed from one (the
server has no record of it joining: a stale form, an outbox entry older than its session), at
360 x 740. It was answered with a redirect to the join page: the phone's outbox took that for a
save and dropped the hand, and the page said only "it has no hand to open here". Now the hand
is not thrown away: kept on the phone for its seat (sent once the phone joins it), or, from a
form that names no seat, shown back as not saved beside how to join."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import delete

from companion.extensions import db
from companion.models import GameAccess
from tests.browser.table_screen import seed_table
from tests.browser.test_repost_and_reload_browser import joins
from tests.browser.test_seat_typing_browser import hands_posted, player
from tests.browser.test_waiting_hand_after_lost_session_browser import FOR_BOB, waiting

__all__ = ["player"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def forgotten(app, table_id: int) -> None:
    """The server holds no seat of the game for any phone now (not removed by the
    scorekeeper: it has no record of a phone joining)."""
    with app.app_context():
        db.session.execute(delete(GameAccess).where(GameAccess.game_id == table_id))
        db.session.commit()


def test_a_hand_posted_by_a_phone_without_a_seat_waits_for_its_seat(player: Page, live_server):
    """Bob's page is open; the server has no record of the phone's seat; Bob posts 12. Not
    dropped as saved: it waits on the phone for Bob's seat, said so in words on the join page
    the phone is led to, and is posted as his once the phone joins his seat."""
    app = live_server.app
    table = seed_table(app, ["Ann", "Bob", "Cho"], 6)
    joins(player, table.join, "Bob")
    forgotten(app, table.id)
    player.get_by_label("Points left in my hand").fill("12")
    player.get_by_role("button", name="Post my hand").click()
    entry = waiting(player)  # on the game's join page, where the phone is led
    expect(entry).to_contain_text("Points left in my hand: 12")
    expect(entry.locator(".outbox-state")).to_have_text(
        f"{FOR_BOB} To send it, join Bob's seat again: scan the QR code on the scorekeeper's "
        "phone and tap Bob. It is sent by itself then."
    )
    assert hands_posted(app, table.id) == []
    joins(player, table.join, "Bob")
    expect(player.locator(".post-state")).to_contain_text("Posted: 12 point", timeout=20_000)
    expect(player.locator("#outbox")).to_have_count(0)
    assert hands_posted(app, table.id) == [("Bob", 12)]


def test_a_hand_from_a_form_naming_no_seat_is_shown_back_with_how_to_join(
    player: Page, live_server
):
    """The same from a page older than the seat's address in the form (no ``?seat=``): nothing
    to keep it for, so the answer shows it back as not saved and says how to join, no 5xx."""
    app = live_server.app
    table = seed_table(app, ["Ann", "Bob", "Cho"], 6)
    joins(player, table.join, "Bob")
    forgotten(app, table.id)
    player.evaluate(
        "() => { const f = document.querySelector('form[data-outbox]');"
        " f.setAttribute('action', f.getAttribute('action').split('?')[0]); }"
    )
    player.get_by_label("Points left in my hand").fill("12")
    player.get_by_role("button", name="Post my hand").click()
    error = player.locator(".flash.error")
    expect(error).to_have_text("What you typed was not saved: 12")
    expect(player.locator(".flash.info").last).to_have_text(
        "This phone has not joined a seat of this game, so it cannot post a hand here. To "
        "join, scan the QR code on the scorekeeper's phone (or open the join link shown "
        "there) and tap your name; then post your hand again."
    )
    assert player.evaluate("() => document.documentElement.scrollWidth") <= 360
    assert hands_posted(app, table.id) == []
