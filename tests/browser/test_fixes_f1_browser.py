"""Browser checks for the score keeper fixes of the new-user test (F1): a failed htmx save says
so and keeps what was typed; the "Round saved." notice is in view after a save."""

from __future__ import annotations

from datetime import date

import pytest
from playwright.sync_api import Page, Route, expect

from companion.engine import RuleSet
from companion.extensions import db
from companion.models import Game, GameNight, Player, Seat
from tests.web.playkit import add_scored_rounds

pytestmark = pytest.mark.browser

NOT_SAVED = "Not saved — check the connection and tap Save again. Your entries are still here."


def seed_game(names: tuple[str, ...]) -> str:
    """A double-6 game of ``names`` in a new night, reusing players already stored under those
    names (the live server's database is shared by every browser test: no duplicate people on
    the other tests' new-game pages). Returns its edit token."""
    keys = [name.casefold() for name in names]
    known = {
        p.name_key: p
        for p in db.session.scalars(db.select(Player).where(Player.name_key.in_(keys)))
    }
    night = GameNight(played_on=date(2026, 11, 29))
    game = Game(night=night, set_size=6, rules=RuleSet.from_dict({"set_size": 6}).to_dict())
    for position, name in enumerate(names):
        player = known.get(name.casefold()) or Player(name=name, name_key=name.casefold())
        game.seats.append(Seat(player=player, position=position))
    db.session.add(game)
    db.session.commit()
    return game.edit_token


def open_new_game(page: Page, live_server) -> str:
    """Seed a 3-player double-6 game and open its page (htmx loaded); returns the edit token."""
    with live_server.app.app_context():
        token = seed_game(("Ann", "Bob", "Cy"))
        db.session.remove()
    page.goto(f"/g/{token}")
    page.wait_for_function("() => window.htmx !== undefined")
    return token


def fill_round(page: Page) -> None:
    page.get_by_label("Points for Ann").fill("12")
    page.get_by_label("Points for Bob").fill("7")
    page.locator("fieldset.hand", has_text="Cy").get_by_label("Went out").check()


def test_network_failure_says_not_saved_and_keeps_entries(phone: Page, live_server) -> None:
    open_new_game(phone, live_server)
    fill_round(phone)
    phone.route("**/round*", lambda route: route.abort("internetdisconnected"))
    phone.get_by_role("button", name="Save round").click()
    status = phone.locator(".round-form .save-status")
    expect(status).to_contain_text(NOT_SAVED)
    expect(status).to_be_visible()
    expect(status).to_have_attribute("aria-live", "polite")
    expect(phone.get_by_label("Points for Ann")).to_have_value("12")
    expect(phone.get_by_label("Points for Bob")).to_have_value("7")
    expect(phone.locator("fieldset.hand", has_text="Cy").get_by_label("Went out")).to_be_checked()
    expect(phone.get_by_role("button", name="Save round")).to_be_enabled()
    # Once the connection is back the same entries save.
    phone.unroute("**/round*")
    phone.get_by_role("button", name="Save round").click()
    expect(phone.locator("#round-area > .flash.success")).to_have_text("Round saved.")
    expect(status).to_have_count(1)
    expect(phone.locator(".round-form .save-status .flash")).to_have_count(0)


def test_lost_session_cookie_shows_the_round_again_as_typed(phone: Page, live_server) -> None:
    """The browser dropped its session (the CSRF token no longer matches, and the phone is no
    longer known as the scorekeeper): nothing is saved, the phone is told why and what it typed
    is still on its screen."""
    open_new_game(phone, live_server)
    fill_round(phone)
    phone.context.clear_cookies()
    phone.get_by_role("button", name="Save round").click()
    expect(phone.get_by_text("Another phone keeps score").first).to_be_visible()
    expect(phone.get_by_label("Points for Ann")).to_have_value("12")
    expect(phone.get_by_label("Points for Bob")).to_have_value("7")


def test_server_error_says_not_saved(phone: Page, live_server) -> None:
    open_new_game(phone, live_server)
    fill_round(phone)
    phone.route(
        "**/round*",
        lambda route: route.fulfill(status=503, content_type="text/plain", body="down"),
    )
    phone.get_by_role("button", name="Save round").click()
    expect(phone.locator(".round-form .save-status")).to_contain_text(NOT_SAVED)
    expect(phone.get_by_label("Points for Bob")).to_have_value("7")


def test_round_saved_notice_is_in_view_and_focused(phone: Page, live_server) -> None:
    open_new_game(phone, live_server)
    fill_round(phone)
    phone.get_by_role("button", name="Save round").scroll_into_view_if_needed()
    phone.get_by_role("button", name="Save round").click()
    notice = phone.locator("#round-area > .flash.success")
    expect(notice).to_have_text("Round saved.")
    expect(notice).to_be_in_viewport()
    expect(notice).to_be_focused()


def test_save_button_is_disabled_while_saving(phone: Page, live_server) -> None:
    open_new_game(phone, live_server)
    fill_round(phone)
    held: list[Route] = []
    phone.route("**/round*", lambda route: held.append(route))
    phone.get_by_role("button", name="Save round").click()
    expect(phone.get_by_role("button", name="Save round")).to_be_disabled()
    expect(phone.locator(".round-form .saving")).to_be_visible()
    phone.wait_for_timeout(50)
    assert held, "the save request was not sent"
    held[0].continue_()
    expect(phone.locator("#round-area > .flash.success")).to_have_text("Round saved.")


def test_undo_asks_first_and_cancel_keeps_the_round(phone: Page, live_server) -> None:
    open_new_game(phone, live_server)
    fill_round(phone)
    phone.get_by_role("button", name="Save round").click()
    expect(phone.locator("#round-area > .flash.success")).to_have_text("Round saved.")
    questions: list[str] = []

    def answer(dialog, accept: bool) -> None:
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    phone.once("dialog", lambda d: answer(d, False))
    phone.get_by_role("button", name="Undo the last change").click()
    phone.wait_for_timeout(300)  # a sent form would have navigated by now
    expect(phone.locator("#round-title")).to_have_text("Round 2 of 7")
    assert questions and questions[0].startswith("Undo this change? Round 1 (6-6) saved:")
    phone.once("dialog", lambda d: answer(d, True))
    phone.get_by_role("button", name="Undo the last change").click()
    expect(phone.locator(".flashes")).to_contain_text("Undone: Round 1 (6-6) saved")
    expect(phone.locator("#round-title")).to_have_text("Round 1 of 7")
    expect(phone.get_by_role("link", name="See it in the audit trail")).to_be_visible()


def test_live_scoreboard_poll_failure_says_maybe_out_of_date(phone: Page, live_server) -> None:
    with live_server.app.app_context():
        token = seed_game(("Ann", "Bob", "Cy"))
        share = db.session.scalar(db.select(Game.share_token).where(Game.edit_token == token))
        db.session.remove()
    phone.route("**/board?*", lambda route: route.abort("internetdisconnected"))
    phone.goto(f"/s/{share}")
    status = phone.locator(".save-status")
    expect(status).to_contain_text("Could not reach the server", timeout=12_000)
    expect(status).not_to_contain_text("Not saved")
    expect(status).to_have_count(1)


def test_rematch_double_tap_makes_one_game(phone: Page, live_server) -> None:
    with live_server.app.app_context():
        token = seed_game(("Ann", "Bob", "Cy"))
        game = db.session.scalar(db.select(Game).where(Game.edit_token == token))
        add_scored_rounds(game, [{"Ann": 0, "Bob": 5, "Cy": 7}] * 7)
        night_id = game.night_id
        db.session.remove()
    phone.goto(f"/g/{token}")
    phone.wait_for_function("() => window.htmx !== undefined")
    phone.get_by_role("button", name="Rematch").dblclick()
    phone.wait_for_url(lambda url: token not in url)
    expect(phone.locator("#round-title")).to_have_text("Round 1 of 7")
    with live_server.app.app_context():
        games = db.session.scalars(db.select(Game).where(Game.night_id == night_id)).all()
        db.session.remove()
    assert len(games) == 2
