"""Browser checks for the score keeper fixes of the new-user test (F1): a failed htmx save says
so and keeps what was typed; the "Round saved." notice is in view after a save."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from companion.extensions import db
from tests.web.playkit import make_game

pytestmark = pytest.mark.browser

NOT_SAVED = "Not saved — check the connection and tap Save again. Your entries are still here."


def open_new_game(page: Page, live_server) -> str:
    """Seed a 3-player double-6 game and open its page (htmx loaded); returns the edit token."""
    with live_server.app.app_context():
        token = make_game(("Ann", "Bob", "Cy")).edit_token
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
    expect(phone.locator("#game > .flash.success")).to_have_text("Round saved.")
    expect(status).to_have_count(1)
    expect(phone.locator(".round-form .save-status .flash")).to_have_count(0)


def test_lost_session_cookie_says_not_saved_with_server_reason(phone: Page, live_server) -> None:
    open_new_game(phone, live_server)
    fill_round(phone)
    phone.context.clear_cookies()
    phone.get_by_role("button", name="Save round").click()
    status = phone.locator(".round-form .save-status")
    expect(status).to_contain_text(NOT_SAVED)
    # The server's own words (the CSRF refusal, 400) are shown too.
    expect(status.locator(".server-message")).to_have_text(re.compile(r"token|Bad Request", re.I))
    expect(phone.get_by_label("Points for Ann")).to_have_value("12")


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
    notice = phone.locator("#game > .flash.success")
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
    expect(phone.locator("#game > .flash.success")).to_have_text("Round saved.")
