"""The scorekeeper's open game page at 360 x 740, JavaScript and auto-save on, three player
phones: a hand the scorekeeper typed over is never silently replaced when the round saves
itself from the posts meanwhile. The page fetches the comparison at once (a Save of a round
saved elsewhere: the saved round, "On this phone: …" beside it, "Put mine back in the form"),
saying that auto-save saved it. Any other change with typing in the form is said in the
poll's words, which say what happened (a request to keep score is no change of the game)."""

from __future__ import annotations

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from companion.extensions import db
from companion.models import Device, Game, GameAccess
from companion.services import hand_posts as posts
from companion.services.round_plan import load_game
from tests.browser.table_screen import Table, phone_posts, seed_table
from tests.browser.test_live_table_browser import console_errors, game_row, points
from tests.browser.test_table_screen_browser import open_game, small_phone
from tests.browser.test_table_sizes_browser import hand

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser

THREE = ["Ann", "Bob", "Cho"]


def round_saves_itself(app: Flask, game_id: int) -> None:
    """What the last player's post does with auto-save on (table.views._auto_save)."""
    with app.test_request_context():
        assert posts.save_posted_round(load_game(db.session.get(Game, game_id)))
        db.session.remove()


def auto_save_on(page: Page, app: Flask) -> tuple[Table, list[str]]:
    """A table of three on double-9, its game page open on ``page`` with auto-save turned on,
    and the page's console errors (filled as they come)."""
    table = seed_table(app, THREE, 9)
    errors = console_errors(page)
    open_game(page, table.edit)
    page.get_by_role("button", name="Auto-save: off · Turn on").click()
    expect(page.get_by_role("button", name="Auto-save: on · Turn off")).to_be_visible()
    return table, errors


@pytest.mark.parametrize("typed_first", [True, False])
def test_a_round_that_saved_itself_shows_the_typed_hand_beside_it(
    small_phone: Page, live_server, typed_first: bool
) -> None:
    app = live_server.app
    table, errors = auto_save_on(small_phone, app)
    if typed_first:
        points(small_phone, "Bob").fill("5")
        phone_posts(app, table.id, {1: 12})
    else:
        phone_posts(app, table.id, {1: 12})
        expect(points(small_phone, "Bob")).to_have_value("12")
        points(small_phone, "Bob").fill("5")  # the scorekeeper overrules Bob's post
    phone_posts(app, table.id, {0: 7, 2: None})  # Ann posts 7, Cho went out
    round_saves_itself(app, table.id)
    assert game_row(app, table.id)[2] == 1

    area = small_phone.locator("#round-area")
    said = area.get_by_role("alert")
    expect(said).to_contain_text("Auto-save saved this round from the posted hands")
    expect(said).not_to_contain_text("another phone")
    mine = area.locator("ul.saved-hands.mine")
    expect(mine).to_contain_text("Bob: 5")
    expect(mine).to_contain_text("saved: 12")
    expect(area.get_by_role("button", name="Put mine back in the form")).to_be_visible()
    expect(small_phone.locator(".live-banner")).to_have_count(0)
    assert game_row(app, table.id)[2] == 1  # the comparison saved nothing
    # the typed 5 goes into a correction of the saved round in one tap
    area.get_by_role("button", name="Put mine back in the form").click()
    expect(hand(small_phone, "Bob").get_by_role("textbox")).to_have_value("5")
    assert errors == []


def asks_to_keep_score(app: Flask, game_id: int) -> None:
    """Another phone asks to keep score (as its "Make this phone the scorekeeper" does)."""
    with app.test_request_context():
        device = Device()
        db.session.add(device)
        db.session.flush()
        db.session.add(GameAccess(game_id=game_id, device_id=device.id, role="asking"))
        db.session.commit()
        db.session.remove()


def switched_elsewhere(app: Flask, game_id: int) -> None:
    """Auto-save switched on on another scorekeeper's page (nothing posted: nothing saved)."""
    with app.test_request_context():
        assert not posts.switch_auto_save(db.session.get(Game, game_id), True)
        db.session.remove()


def test_with_typing_in_the_form_the_page_says_what_happened_and_keeps_it(
    small_phone: Page, live_server
) -> None:
    app = live_server.app
    table = seed_table(app, THREE, 9)
    errors = console_errors(small_phone)
    open_game(small_phone, table.edit)
    points(small_phone, "Bob").fill("5")
    banner = small_phone.locator(".live-banner")
    asks_to_keep_score(app, table.id)
    expect(banner).to_have_text("A phone asks to keep score: reload to answer it.")
    switched_elsewhere(app, table.id)
    expect(banner).to_have_text("The game changed on another phone: reload to see it.")
    expect(points(small_phone, "Bob")).to_have_value("5")
    assert game_row(app, table.id)[2] == 0
    small_phone.reload()  # the round was not saved: the typing comes back
    expect(points(small_phone, "Bob")).to_have_value("5")
    assert errors == []


def test_a_starter_picked_alone_is_shown_beside_a_round_that_saved_itself(
    small_phone: Page, live_server
) -> None:
    """Nothing typed in a box, only "Who started this round?" picked (Bob): the round saves
    itself from the posts, and the page shows the saved round with "Who started: Bob (saved:
    not recorded)" and puts it back into a correction in one tap (was: the page reloaded, as
    with nothing typed, and the pick was gone unsaid)."""
    app = live_server.app
    table, errors = auto_save_on(small_phone, app)
    small_phone.get_by_label("Who started this round?").select_option(label="Bob")
    phone_posts(app, table.id, {0: 7, 1: 12, 2: None})  # Ann 7, Bob 12, Cho went out
    round_saves_itself(app, table.id)

    area = small_phone.locator("#round-area")
    mine = area.locator("ul.saved-hands.mine")
    expect(mine).to_have_text("Who started: Bob (saved: not recorded)")
    area.get_by_role("button", name="Put mine back in the form").click()
    expect(small_phone.locator("#round-title")).to_contain_text("Correct the round with 9-9")
    expect(small_phone.get_by_label("Who started this round?")).to_have_value(
        str(seat_of(app, table.id, "Bob"))
    )
    assert game_row(app, table.id)[2] == 1
    assert errors == []


def seat_of(app: Flask, game_id: int, name: str) -> int:
    """The seat id of ``name`` in the game."""
    with app.test_request_context():
        game = db.session.get(Game, game_id)
        found = next(s.id for s in game.seats if s.player.name == name)
        db.session.remove()
    return found
