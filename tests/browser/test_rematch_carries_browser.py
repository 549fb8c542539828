"""A rematch carries the table (issue 22): three phones that joined their seats are on their
old hand pages when the scorekeeper starts the rematch; each is taken to its own seat in the
new game (no rescan, no new join), and a read-only scoreboard follows to the new game."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.browser.conftest import phone_page
from tests.browser.seeding import join_secret, share_of_join
from tests.browser.table_screen import SMALL_PHONE
from tests.browser.test_entries_kept_browser import keeper_saves
from tests.browser.test_table_sizes_browser import seed_game

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Bo", "Cy"]


@pytest.fixture()
def phones(browser, live_server) -> Iterator[dict[str, Page]]:
    """The scorekeeper's phone, the three players' phones and a viewer's, each its own, at
    360 x 740."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        yield {
            who: stack.enter_context(phone_page(browser, live_server, 15_000, **SMALL_PHONE))
            for who in ["keeper", *NAMES, "viewer"]
        }


def test_a_rematch_carries_three_phones_and_the_board(phones, live_server) -> None:
    edit, share, _night = seed_game(live_server.app, NAMES, 6, 6)  # one round left
    keeper = phones["keeper"]
    keeper.goto(f"/g/{edit}")
    for name in NAMES:
        page = phones[name]
        page.goto(f"/j/{join_secret(live_server.app, share)}")
        page.get_by_role("button", name=name, exact=True).click()
        expect(page.get_by_role("heading", name=f"{name}'s hand")).to_be_visible()
    viewer = phones["viewer"]
    viewer.goto(f"/s/{share}")
    from companion.extensions import db
    from companion.models import Game

    with live_server.app.app_context():
        game_id = db.session.scalar(db.select(Game.id).where(Game.edit_token == edit))
    keeper_saves(live_server.app, game_id, {"Ana": None, "Bo": 4, "Cy": 9})  # the last round
    # the page's own poll may be reloading it for the saved round: that reload wins
    with contextlib.suppress(PlaywrightError):
        keeper.reload()
    keeper.get_by_role("button", name="Rematch").click()
    expect(keeper.locator("#round-title")).to_have_text(re.compile(r"^Round 1 of"))
    new_join = keeper.locator(".share-link a").first.get_attribute("href") or ""
    new_join = re.search(r"/j/([\w-]+)", new_join).group(1)  # type: ignore[union-attr]
    new_share = share_of_join(live_server.app, new_join)
    assert new_share and new_share != share
    for name in NAMES:  # each old hand page leads straight to its seat in the new game
        page = phones[name]
        page.wait_for_url(f"**/p/{new_share}")
        expect(page.get_by_role("heading", name=f"{name}'s hand")).to_be_visible()
        expect(page.locator("#post-title")).to_have_text(re.compile(r"^Round 1: centre 6-6"))
    viewer.wait_for_url(f"**/s/{new_share}*")
    # every seat is taken by its phone: no join panel in the way of the new game
    expect(keeper.locator("#join-panel")).to_have_count(0)
    phones["Bo"].get_by_label("Points left in my hand").fill("7")
    phones["Bo"].get_by_role("button", name="Post my hand").click()
    expect(keeper.get_by_label("Points for Bo")).to_have_value("7")
    # every hand posted from the phones: the scorekeeper's round takes one tap
    phones["Ana"].get_by_label("I went out").check()
    phones["Ana"].get_by_role("button", name="Post my hand").click()
    phones["Cy"].get_by_label("Points left in my hand").fill("5")
    phones["Cy"].get_by_role("button", name="Post my hand").click()
    expect(keeper.get_by_label("Points for Cy")).to_have_value("5")
    expect(
        keeper.get_by_role("group", name="Ana", exact=True).get_by_label("Went out")
    ).to_be_checked()
    # the save is an htmx swap (its flash in the round area): wait until htmx runs on the
    # rematch's page, which a loaded machine may not have started yet
    keeper.wait_for_function("() => window.htmx !== undefined")
    keeper.get_by_role("button", name="Save round").last.click()
    expect(keeper.locator("#round-area .flash.success")).to_have_text("Round saved.")
    expect(phones["Cy"].locator("#hand-live .taken")).to_contain_text("5 points (as you posted)")
