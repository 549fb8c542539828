"""What the scorekeeper typed never disappears unsaid, at 360 x 740: typing kept on the phone
whose round was saved elsewhere while the tab was closed (the players' posts, auto-save,
another scorekeeper) is shown beside the saved round when the page is opened again, and again
after a reload, until it is put back in a correction or forgotten; typing that matches what
was saved is dropped quietly. The round's ticks and "Who started" are kept across a reload
like the hand boxes."""

from __future__ import annotations

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from companion.extensions import db
from companion.models import Game
from companion.services import hand_posts as posts
from companion.services.round_plan import load_game
from tests.browser.table_screen import FOUR, Table, phone_posts, seed_table
from tests.browser.test_live_table_browser import console_errors, game_row, points
from tests.browser.test_table_screen_browser import open_game, small_phone
from tests.browser.test_table_sizes_browser import hand
from tests.browser.test_undo_puts_back_browser import save, undo
from tests.web.playkit import add_scored_rounds

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser

THREE = ["Ann", "Bob", "Cho"]


def saved_elsewhere(app: Flask, game_id: int) -> None:
    """Every player posts (Ann 7, Bob 12, Cho went out) and the round saves itself from the
    posts, as auto-save does while the scorekeeper's tab is closed."""
    phone_posts(app, game_id, {0: 7, 1: 12, 2: None})
    with app.test_request_context():
        assert posts.save_posted_round(load_game(db.session.get(Game, game_id)))
        db.session.remove()


def waiting(page: Page) -> int:
    """How many entries of kept typing wait aside on the phone (all games)."""
    return page.evaluate(
        """() => Object.keys(localStorage).filter(k => k.endsWith("!"))
            .reduce((n, k) => n + Object.keys(JSON.parse(localStorage[k]) || {}).length, 0)"""
    )


def typed_then_saved_elsewhere(page: Page, app: Flask, bob: str, ann: str = "") -> Table:
    """A new table of three whose first round this phone typed Bob's ``bob`` points in (and
    Ann's ``ann``, if any), then closed the tab before Save; the round saved elsewhere (Ann 7,
    Bob 12, Cho went out) and the game page opened again. The table (seed_table's)."""
    table = seed_table(app, THREE, 9)
    open_game(page, table.edit)
    if ann:
        points(page, "Ann").fill(ann)
    points(page, "Bob").fill(bob)
    page.goto("about:blank")
    saved_elsewhere(app, table.id)
    open_game(page, table.edit)
    return table


def test_typing_of_a_round_saved_while_the_tab_was_closed_is_shown_until_put_back(
    small_phone: Page, live_server
) -> None:
    app = live_server.app
    table = seed_table(app, THREE, 9)
    errors = console_errors(small_phone)
    open_game(small_phone, table.edit)
    points(small_phone, "Bob").fill("5")  # the scorekeeper's count of Bob's hand
    small_phone.goto("about:blank")  # the tab is gone before Save
    saved_elsewhere(app, table.id)
    assert game_row(app, table.id)[2] == 1

    open_game(small_phone, table.edit)
    area = small_phone.locator("#round-area")
    mine = area.locator("ul.saved-hands.mine")
    expect(mine).to_contain_text("Bob: 5")
    expect(mine).to_contain_text("saved: 12")
    expect(area.get_by_role("alert")).to_contain_text("Auto-save saved this round")
    expect(points(small_phone, "Bob")).to_have_value("")  # the next round's form is clean
    small_phone.reload()  # the comparison is not lost with the page
    expect(mine).to_contain_text("Bob: 5")
    expect(mine).to_have_count(1)
    assert game_row(app, table.id)[2] == 1  # the comparison saved nothing

    # put back, then Cancel (or a tap offline that never reached the correction): nothing
    # was saved, so the comparison waits still (a fresh tester lost Bob's 5 so)
    area.get_by_role("button", name="Put mine back in the form").click()
    expect(hand(small_phone, "Bob").get_by_role("textbox")).to_have_value("5")
    small_phone.get_by_role("link", name="Cancel").click()
    expect(mine).to_contain_text("Bob: 5")
    assert waiting(small_phone) == 1

    area.get_by_role("button", name="Put mine back in the form").click()
    saved_as_typed(small_phone, table)
    assert errors == []


def saved_as_typed(page: Page, table: Table) -> None:
    """The correction "Put mine back" opened is saved: the kept typing is gone
    from the phone, and the game page shows no comparison, not even after a reload."""
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#round-area form.round-form[data-posts], .finish")).to_have_count(1)
    page.goto(f"/g/{table.edit}")
    page.wait_for_function(
        """() => !Object.keys(localStorage).some(k => k.endsWith("!")
            && Object.keys(JSON.parse(localStorage[k]) || {}).length)"""
    )
    page.reload()
    expect(page.locator("ul.saved-hands.mine")).to_have_count(0)


def test_forgotten_typing_and_typing_that_was_saved_as_typed_are_gone(
    small_phone: Page, live_server
) -> None:
    app = live_server.app
    typed_then_saved_elsewhere(small_phone, app, "5")
    forget = small_phone.get_by_role("link", name="Forget what this phone had")
    expect(forget).to_be_visible()
    forget.click()
    expect(small_phone.locator("ul.saved-hands.mine")).to_have_count(0)
    assert waiting(small_phone) == 0
    small_phone.reload()
    expect(small_phone.locator("#round-area form.round-form")).to_be_visible()
    expect(small_phone.locator("ul.saved-hands.mine")).to_have_count(0)

    # another game: the scorekeeper types what Bob's phone posts too; nothing differs
    typed_then_saved_elsewhere(small_phone, app, "12")
    small_phone.wait_for_function(
        """() => !Object.keys(localStorage).some(k => k.endsWith("!")
            && Object.keys(JSON.parse(localStorage[k]) || {}).length)"""
    )
    expect(small_phone.locator("ul.saved-hands.mine")).to_have_count(0)
    expect(small_phone.locator(".flash.error")).to_have_count(0)


def test_the_ticks_and_who_started_come_back_after_a_reload(small_phone: Page, live_server) -> None:
    table = seed_table(live_server.app, THREE, 9)
    open_game(small_phone, table.edit)
    blocked = small_phone.get_by_label("Nobody went out: the round was blocked")
    starter = small_phone.get_by_label("Who started this round?")
    blocked.check()
    starter.select_option(label="Bob")
    small_phone.reload()
    expect(blocked).to_be_checked()
    expect(starter.locator("option:checked")).to_have_text("Bob")
    blocked.uncheck()  # taken back: stays taken back
    small_phone.reload()
    expect(blocked).not_to_be_checked()
    expect(starter.locator("option:checked")).to_have_text("Bob")


def test_typing_of_the_next_round_waits_through_an_undo_and_comes_back_with_its_round(
    small_phone: Page, live_server
) -> None:
    """The table undoes the last round to fix it while the next round's hands are typed: the
    typing waits (no comparison: its round was not saved), and is back in the boxes when the
    fixed round is saved again and its round is the one to enter (docs/TABLE.md)."""
    app = live_server.app
    table = seed_table(app, FOUR, 9)
    page = small_phone
    open_game(page, table.edit)
    hand(page, "Ann").get_by_label("Went out").check()
    for name, value in (("Bob", "12"), ("Cho", "7"), ("Dee", "30")):
        points(page, name).fill(value)
    save(page)
    expect(page.locator("#round-area")).to_contain_text("Round 2 of 10")
    points(page, "Bob").fill("5")  # the next round, typed, not saved
    undo(page)
    expect(page.locator("#round-area")).to_contain_text("Round 1 of 10")
    page.reload()
    expect(points(page, "Bob")).to_have_value("12")  # the undone round, as it was saved
    expect(page.locator("ul.saved-hands.mine")).to_have_count(0)
    save(page)
    expect(page.locator("#round-area")).to_contain_text("Round 2 of 10")
    expect(points(page, "Bob")).to_have_value("5")
    expect(hand(page, "Bob").locator(".post-mark")).to_have_text("typed by you, not saved yet")
    assert waiting(page) == 0


def test_the_comparison_a_save_was_refused_with_survives_a_reload(
    small_phone: Page, live_server
) -> None:
    """The page is open with Bob's 5 typed when the round saves itself: the page shows the
    comparison at once (its poll's Save, 409); a reload, or the page drawn again, showed the
    next round's empty form and the 5 was gone unsaid. It is shown again, once."""
    app = live_server.app
    table = seed_table(app, THREE, 9)
    open_game(small_phone, table.edit)
    points(small_phone, "Bob").fill("5")
    saved_elsewhere(app, table.id)
    mine = small_phone.locator("ul.saved-hands.mine")
    expect(mine).to_contain_text("Bob: 5")  # the poll's Save, answered 409
    small_phone.wait_for_timeout(1500)  # kept.js takes that one for the kept entry's
    expect(mine).to_have_count(1)
    small_phone.reload()
    expect(mine).to_contain_text("Bob: 5")
    expect(mine).to_contain_text("saved: 12")
    small_phone.wait_for_timeout(1500)  # (a second copy would come from kept.js's own post)
    expect(mine).to_have_count(1)


def test_typing_of_the_round_that_ended_the_game_is_shown_on_the_finished_page(
    small_phone: Page, live_server
) -> None:
    """The last round saved itself while the tab was closed: the game is over and its page has
    no round form, yet the typed hand is shown beside the saved one."""
    app = live_server.app
    table = seed_table(app, THREE, 9)
    with app.test_request_context():
        add_scored_rounds(
            load_game(db.session.get(Game, table.id)), [{"Ann": 0, "Bob": 5, "Cho": 7}] * 9
        )
        db.session.remove()
    open_game(small_phone, table.edit)
    points(small_phone, "Bob").fill("5")
    small_phone.goto("about:blank")
    saved_elsewhere(app, table.id)
    small_phone.goto(f"/g/{table.edit}")
    expect(small_phone.get_by_role("heading", name="Game over")).to_be_visible()
    mine = small_phone.locator("ul.saved-hands.mine")
    expect(mine).to_contain_text("Bob: 5")
    expect(mine).to_contain_text("saved: 12")
    small_phone.get_by_role("button", name="Put mine back in the form").click()
    expect(hand(small_phone, "Bob").get_by_role("textbox")).to_have_value("5")
    saved_as_typed(small_phone, table)


def test_typing_put_back_and_changed_in_the_correction_is_resolved_by_its_save(
    small_phone: Page, live_server
) -> None:
    """Put mine back, then Bob's 5 changed to 9 in the correction and saved: the phone's
    kept 5 is resolved by that Save (a fresh tester saw "Bob: 5 (saved: 9)" come back after
    every reload, under a red "already saved on another phone" about the phone's own save)."""
    app = live_server.app
    table = typed_then_saved_elsewhere(small_phone, app, "5")
    small_phone.get_by_role("button", name="Put mine back in the form").click()
    expect(hand(small_phone, "Bob").get_by_role("textbox")).to_have_value("5")
    hand(small_phone, "Bob").get_by_role("textbox").fill("9")
    saved_as_typed(small_phone, table)
    with app.test_request_context():
        game = db.session.get(Game, table.id)
        bob = next(s.id for s in game.seats if s.player.name == "Bob")
        assert next(h.points for h in game.rounds[0].hands if h.seat_id == bob) == 9
        db.session.remove()
