"""A save's htmx answer leaves out each hand's buttons that are the same in every round ("Use
…'s post", "Tap the tiles", the photo) and the page keeps its own (hx-preserve): round after
round every hand still has them, named as before, and they work; a hand whose picker was open
gets its "Tap the tiles" button back, its picker closed (companion/games/play.py
kept_buttons)."""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_screen import FOUR, phone_posts, seed_table
from tests.browser.test_table_screen_browser import open_game, small_phone
from tests.browser.test_table_sizes_browser import hand

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def save(page: Page, round_after: int) -> str:
    """Tap Save; the answer's body once round ``round_after`` is shown."""
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.locator("#round-area .actions button.big").click()
    expect(page.locator("#round-title")).to_have_text(f"Round {round_after} of 10")
    return answer.value.text()


def expect_buttons(page: Page) -> None:
    """Every hand has its buttons, named, and no placeholder is left in the page."""
    for name in FOUR:
        row = hand(page, name)
        expect(row.get_by_role("button", name="Tap the tiles")).to_be_visible()
        expect(row.get_by_role("button", name=f"Count {name}'s pips from a photo")).to_be_visible()
        expect(row.locator("button.use-post")).to_be_hidden()
        expect(row.locator("button.use-post")).to_have_count(1)
    expect(page.locator("#round-form i[hx-preserve]")).to_have_count(0)
    assert page.locator("#round-form .picker-box").count() == 0


def type_round(page: Page, out: str) -> None:
    for name in FOUR:
        if name == out:
            hand(page, name).get_by_label("Went out").check()
        else:
            hand(page, name).get_by_role("textbox").fill("7")


def test_the_hands_keep_their_buttons_round_after_round(small_phone: Page, live_server) -> None:
    app = live_server.app
    table = seed_table(app, FOUR, 9)
    page = small_phone
    open_game(page, table.edit)
    type_round(page, "Ann")
    body = save(page, 2)
    assert body.count("hx-preserve") == 12  # the answer named the buttons only
    expect_buttons(page)
    # round 2: Bob's picker opened and a tile tapped, Cho's post offered, then saved
    hand(page, "Bob").get_by_role("button", name="Tap the tiles").click()
    hand(page, "Bob").get_by_role("checkbox", name="9-9").check()
    phone_posts(app, table.id, {2: 12})
    expect(hand(page, "Cho").get_by_role("textbox")).to_have_value("12")  # the poll filled it
    hand(page, "Cho").get_by_role("textbox").fill("5")  # typed over the post
    use = hand(page, "Cho").get_by_role("button", name="Use Cho's post (12 points)")
    expect(use).to_be_visible()
    hand(page, "Ann").get_by_role("textbox").fill("4")
    hand(page, "Dee").get_by_label("Went out").check()
    body = save(page, 3)
    assert body.count("hx-preserve") == 11  # Bob's button came anew
    expect_buttons(page)
    # the buttons still work: the photo page, a picker, a post offered again
    hand(page, "Cho").get_by_role("button", name="Tap the tiles").click()
    expect(hand(page, "Cho").locator(".picker-box[open]")).to_be_visible()
    phone_posts(app, table.id, {1: 20})
    expect(hand(page, "Bob").get_by_role("textbox")).to_have_value("20")
    hand(page, "Bob").get_by_role("textbox").fill("3")
    expect(
        hand(page, "Bob").get_by_role("button", name="Use Bob's post (20 points)")
    ).to_be_visible()
    hand(page, "Dee").get_by_role("button", name="Count Dee's pips from a photo").click()
    page.wait_for_url(re.compile(r"/photo/\d+\?double=\d+$"))
    expect(page.get_by_label("Photo of the tiles, face up and apart")).to_have_count(1)


@contextlib.contextmanager
def held(app, endpoint: str) -> Iterator[tuple[threading.Event, threading.Event]]:
    """While inside: requests to ``endpoint`` wait (at most 10 s) until the second event is
    set; the first is set once one has arrived (the live server runs in this process)."""
    arrived, release = threading.Event(), threading.Event()
    view = app.view_functions[endpoint]

    def waiting(*args: Any, **kwargs: Any) -> Any:
        arrived.set()
        release.wait(10)
        return view(*args, **kwargs)

    app.view_functions[endpoint] = waiting
    try:
        yield arrived, release
    finally:
        release.set()
        app.view_functions[endpoint] = view


def test_a_picker_and_a_save_on_their_way_together_leave_the_button(
    small_phone: Page, live_server
) -> None:
    # The Save's answer keeps each hand's "Tap the tiles" button by id: a picker taking its
    # place while the Save was on its way left the hand without one for a round, or put the
    # saved round's picker in the next round (the hands' hx-sync).
    app = live_server.app
    table = seed_table(app, FOUR, 9)
    page = small_phone
    open_game(page, table.edit)
    opener = hand(page, "Bob").get_by_role("button", name="Tap the tiles")
    # 1. the picker tapped while the Save's request is on its way: nothing is fetched
    with held(app, "games.save") as (arrived, release):
        type_round(page, "Ann")
        page.locator("#round-area .actions button.big").click()
        assert arrived.wait(5)
        opener.click()
        page.wait_for_timeout(500)
        expect(hand(page, "Bob").locator(".picker-box")).to_have_count(0)
        release.set()
        expect(page.locator("#round-title")).to_have_text("Round 2 of 10")
    expect_buttons(page)
    expect(opener).to_be_enabled()
    # 2. Save tapped while the picker's fetch is on its way: the Save waits for the picker
    # (which then says the hand has no button) and the answer brings Bob a new button
    with held(app, "games.picker") as (arrived, release):
        opener.click()
        assert arrived.wait(5)
        type_round(page, "Bob")
        page.locator("#round-area .actions button.big").click()
        page.wait_for_timeout(300)
        expect(page.locator("#round-title")).to_have_text("Round 2 of 10")
        release.set()
        expect(page.locator("#round-title")).to_have_text("Round 3 of 10")
    expect_buttons(page)
    expect(opener).to_be_enabled()
    opener.click()  # and it works
    expect(hand(page, "Bob").locator(".picker-box[open]")).to_be_visible()
