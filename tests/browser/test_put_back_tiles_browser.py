"""The outbox's "Put mine back in the form" over a hand this phone's Save had taken from its
player's tile post, at 360 x 740. Dee tapped 6-2 (8 points) on her phone; the scorekeeper
saved offline with it (Ann 5, Bob 6 typed, Cho went out); Dee changed her hand to 12
meanwhile, so the Save was refused. Put mine back puts the 6-2 back where the scorekeeper
sees it: ticked in Dee's tile picker, as tapped tiles are shown, with the row's words
("changed on their phone: 12 points", "Use Dee's post (12 points)"). The form shows what Save
sends: saved, Dee's hand is the 6-2 shown, not a hand the form never showed."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from companion.extensions import db
from companion.models import Game
from tests.browser.table_screen import FOUR, phone_posts, seed_table
from tests.browser.test_entries_kept_browser import repost
from tests.browser.test_outbox_words_and_put_back_browser import offline_save, typed
from tests.browser.test_table_screen_browser import open_game, small_phone
from tests.browser.test_table_sizes_browser import hand

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def saved_hand(app: Flask, game_id: int, name: str) -> tuple[int, list[str]]:
    """``name``'s points and tiles in the game's first saved round."""
    with app.test_request_context():
        game = db.session.get(Game, game_id)
        seat = next(s.id for s in game.seats if s.player.name == name)
        found = next(h for h in game.rounds[0].hands if h.seat_id == seat)
        points, tiles = found.points, sorted(found.tiles or [])
        db.session.remove()
    return points, tiles


def test_put_mine_back_shows_the_tiles_the_save_held_and_saves_them(
    small_phone: Page, live_server
) -> None:
    app = live_server.app
    table = seed_table(app, FOUR, 6)
    phone_posts(app, table.id, {3: ["6-2"]})  # Dee tapped 6-2 on her phone
    open_game(small_phone, table.edit)
    dee = hand(small_phone, "Dee")
    expect(dee.get_by_label("6-2")).to_be_checked()

    offline_save(
        small_phone,
        live_server,
        typed({"Ann": 5, "Bob": 6}, out="Cho"),
        lambda: repost(app, table.id, "Dee", 12),
    )
    entry = small_phone.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "conflict")
    entry.get_by_role("button", name="Put mine back in the form").click()
    # the 6-2 the Save held is shown as tapped tiles are: ticked, with its sum; the box empty
    expect(dee.get_by_label("6-2")).to_be_checked()
    expect(dee.locator("output.picked-sum")).to_have_text("1 tile: 8 points")
    expect(dee.locator("fieldset.picker input:checked")).to_have_count(1)
    expect(small_phone.get_by_label("Points for Dee")).to_have_value("")
    expect(dee.locator(".post-mark")).to_have_text(
        re.compile(r"^changed on their phone .*: 12 points$")
    )
    expect(dee.get_by_role("button", name="Use Dee's post")).to_have_text(
        "Use Dee's post\xa0(12 points)"
    )
    expect(small_phone.get_by_label("Points for Ann")).to_have_value("5")
    small_phone.locator("#round-form .actions button[type=submit]").click()
    expect(small_phone.locator("#round-area .flash.success")).to_contain_text("saved")
    assert saved_hand(app, table.id, "Dee") == (8, ["6-2"])
