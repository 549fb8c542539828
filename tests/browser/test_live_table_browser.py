"""The scorekeeper's open game page at 360 x 740, JavaScript on: the auto-save switch and the
seat lock keep what was typed in the round form; a phone joining shows in the join panel and
the table box, and the blocked-round hint comes, through the poll (no reload), with no error
in the console (an out-of-band element without its target would log one)."""

from __future__ import annotations

import pytest
from flask import Flask
from playwright.sync_api import Page, expect
from sqlalchemy import select

from companion.extensions import db
from companion.models import Device, Game, GameAccess, Round
from companion.services.round_plan import load_game
from tests.browser.table_screen import FOUR, phone_posts, seed_table
from tests.browser.test_table_screen_browser import open_game, small_phone
from tests.browser.test_table_sizes_browser import hand

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def console_errors(page: Page) -> list[str]:
    """The page's console errors from now on (the CDN's htmx, unreachable here, aside)."""
    found: list[str] = []

    def _on_console(message) -> None:
        if message.type == "error" and "Failed to load resource" not in message.text:
            found.append(message.text)

    page.on("console", _on_console)
    return found


def mark_the_page(page: Page) -> None:
    """A mark in the page's window, gone if the page is loaded again."""
    page.evaluate("() => { window.notReloaded = true; }")


def not_reloaded(page: Page) -> bool:
    return page.evaluate("() => window.notReloaded === true")


def joins(app: Flask, game_id: int, index: int) -> None:
    """A phone joins seat ``index`` (as a join link's tap does)."""
    with app.test_request_context():
        game = load_game(db.session.get(Game, game_id))
        device = Device()
        db.session.add(device)
        db.session.flush()
        seat = game.seats[index]
        db.session.add(
            GameAccess(game_id=game.id, device_id=device.id, role="player", seat_id=seat.id)
        )
        db.session.commit()
        db.session.remove()


def game_row(app: Flask, game_id: int) -> tuple[bool, bool, int]:
    """The game's auto-save and seat lock, and how many rounds are saved."""
    with app.test_request_context():
        game = db.session.get(Game, game_id)
        saved = db.session.scalars(select(Round).where(Round.game_id == game_id)).all()
        found = (bool(game.auto_save), bool(game.seats_locked), len(saved))
        db.session.remove()
        return found


def points(page: Page, name: str):
    return hand(page, name).get_by_role("textbox")


def test_the_switch_and_the_lock_keep_the_typing(small_phone: Page, live_server) -> None:
    table = seed_table(live_server.app, FOUR, 9)
    errors = console_errors(small_phone)
    open_game(small_phone, table.edit)
    points(small_phone, "Ann").fill("7")
    points(small_phone, "Bob").fill("12")
    hand(small_phone, "Dee").get_by_label("Went out").check()
    small_phone.get_by_role("button", name="Auto-save: off · Turn on").click()
    expect(small_phone.get_by_role("button", name="Auto-save: on · Turn off")).to_be_visible()
    expect(points(small_phone, "Ann")).to_have_value("7")
    expect(points(small_phone, "Bob")).to_have_value("12")
    expect(hand(small_phone, "Dee").get_by_label("Went out")).to_be_checked()
    assert game_row(live_server.app, table.id) == (True, False, 0)
    small_phone.get_by_role("button", name="Lock the seats: everyone is in").first.click()
    expect(small_phone.get_by_role("button", name="Unlock the seats")).to_be_visible()
    expect(points(small_phone, "Bob")).to_have_value("12")
    expect(hand(small_phone, "Dee").get_by_label("Went out")).to_be_checked()
    assert game_row(live_server.app, table.id) == (True, True, 0)
    # the typing is still the phone's own: a reload puts it back (as before)
    small_phone.reload()
    expect(points(small_phone, "Ann")).to_have_value("7")
    expect(points(small_phone, "Bob")).to_have_value("12")
    assert errors == []


def test_a_phone_joining_shows_in_the_join_panel_without_a_reload(
    small_phone: Page, live_server
) -> None:
    table = seed_table(live_server.app, FOUR, 9)
    errors = console_errors(small_phone)
    open_game(small_phone, table.edit)
    points(small_phone, "Ann").fill("7")  # typing in the form stays as it is
    panel = small_phone.locator("#join-panel p.joined")
    expect(panel).to_have_text("Not joined yet: Ann, Bob, Cho, Dee")
    mark_the_page(small_phone)
    joins(live_server.app, table.id, 1)  # Bob's phone
    expect(panel).to_contain_text("Joined: Bob")
    expect(panel).to_contain_text("Not joined yet: Ann, Cho, Dee")
    seats = small_phone.locator(".table-box ul.joined")
    expect(seats.get_by_role("button", name="Remove this phone from the seat")).to_have_count(1)
    expect(points(small_phone, "Ann")).to_have_value("7")
    assert not_reloaded(small_phone)
    assert errors == []


def test_the_blocked_round_hint_comes_through_the_poll(small_phone: Page, live_server) -> None:
    table = seed_table(live_server.app, FOUR, 9)
    errors = console_errors(small_phone)
    open_game(small_phone, table.edit)
    small_phone.get_by_role("button", name="Auto-save: off · Turn on").click()
    expect(small_phone.get_by_role("button", name="Auto-save: on · Turn off")).to_be_visible()
    mark_the_page(small_phone)
    phone_posts(live_server.app, table.id, {0: 4, 1: 12, 2: 7, 3: 9})  # nobody went out
    hint = small_phone.locator("#round-area #blocked-hint")
    expect(hint).to_contain_text("Every hand is posted, but nobody went out")
    expect(small_phone.locator("#round-area #blocked-hint")).to_have_count(1)
    hint.get_by_role("link", name="Go to the tick box").click()
    expect(small_phone.locator("#blocked")).to_be_focused()
    assert not_reloaded(small_phone)
    assert game_row(live_server.app, table.id)[2] == 0
    assert errors == []


def removes(app: Flask, game_id: int, index: int) -> str:
    """Another scorekeeper's phone removes the phone from seat ``index``; the new join secret."""
    from companion import access

    with app.test_request_context():
        game = load_game(db.session.get(Game, game_id))
        assert access.free_seat(game, game.seats[index].id)
        token = db.session.get(Game, game_id).join_token
        db.session.remove()
        return token


def test_a_phone_removed_on_another_phone_leaves_with_the_new_join_link(
    small_phone: Page, live_server
) -> None:
    """Bob joined; another scorekeeper's phone removes him (a new join secret): this page shows
    him gone and the new QR code and link through its poll, typing kept, no reload."""
    table = seed_table(live_server.app, FOUR, 9)
    joins(live_server.app, table.id, 1)
    errors = console_errors(small_phone)
    open_game(small_phone, table.edit)
    points(small_phone, "Ann").fill("7")
    panel = small_phone.locator("#join-panel p.joined")
    expect(panel).to_contain_text("Joined: Bob")
    old_qr = small_phone.locator("#game .qr-box").inner_html()
    mark_the_page(small_phone)
    token = removes(live_server.app, table.id, 1)
    expect(panel).to_have_text("Not joined yet: Ann, Bob, Cho, Dee")
    seats = small_phone.locator(".table-box ul.joined")
    expect(seats.get_by_role("button", name="Remove this phone from the seat")).to_have_count(0)
    expect(small_phone.locator("#game .share-link")).to_contain_text(f"/j/{token}")
    expect(small_phone.locator("#game .qr-box svg")).to_have_count(1)
    assert small_phone.locator("#game .qr-box").inner_html() != old_qr
    expect(points(small_phone, "Ann")).to_have_value("7")
    assert not_reloaded(small_phone)
    assert errors == []
