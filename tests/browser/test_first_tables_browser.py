"""What a fresh tester's whole four-phone game found on the table screen (issue 22, after the
first tables), at 360 x 740: a refused entry leaves the outbox once its round is saved or its
values are back in the form; a refusal that comes back from a background send is brought into
view; the old scorekeeper's form after a handover can no longer be sent."""

from __future__ import annotations

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from companion.access import hand_over
from companion.extensions import db
from companion.models import Device, Game, GameAccess
from companion.services.handovers import record_handover
from tests.browser.table_screen import FOUR, phone_posts, seed_table
from tests.browser.test_entries_kept_browser import keeper_saves
from tests.browser.test_table_screen_browser import open_game, small_phone

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def refused_offline(page: Page, live_server) -> None:
    """The scorekeeper types a round nobody went out of, saves it offline, and is back online:
    the server refuses it (422), and the outbox says so."""
    try:
        live_server.wifi.cut = True
        page.context.set_offline(True)
        for name, points in zip(FOUR, (3, 4, 5, 6), strict=True):
            page.get_by_label(f"Points for {name}").fill(str(points))
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # by Save
        page.get_by_role("button", name="Save round").last.click()
        expect(page.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
    finally:
        live_server.wifi.cut = False
        page.context.set_offline(False)  # its "online" event sends the entry, then reloads
    expect(page.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "refused")
    expect(page.locator("#outbox")).to_contain_text("Mark who went out")


@pytest.fixture()
def refused_table(small_phone: Page, live_server):
    """A four-player double-6 game open on the scorekeeper's phone, whose first round was saved
    offline and refused once back online (:func:`refused_offline`); the seeded table."""
    table = seed_table(live_server.app, FOUR, 6)
    open_game(small_phone, table.edit)
    refused_offline(small_phone, live_server)  # saved by Save, at the foot of the page
    return table


def test_a_refused_entry_leaves_the_outbox_once_another_phone_saved_its_round(
    small_phone: Page, live_server, refused_table
) -> None:
    # the reload brings the news, not the live poll: finding the round saved, the poll Saves
    # the typing kept in the form once more (table.js), and the reload cut that Save short:
    # the next page sent it from the outbox, a comparison entry in place of none
    small_phone.route("**/posts?*", lambda route: route.abort())
    keeper_saves(live_server.app, refused_table.id, {"Ann": None, "Bob": 4, "Cho": 5, "Dee": 6})
    small_phone.reload()
    expect(small_phone.locator("#round-title")).to_contain_text("Round 2")
    expect(small_phone.locator("#outbox")).to_have_count(0)


@pytest.mark.usefixtures("refused_table")
def test_putting_a_refused_entry_back_takes_it_out_of_the_outbox(small_phone: Page) -> None:
    small_phone.locator("#outbox").get_by_role("button", name="Put mine back in the form").click()
    expect(small_phone.get_by_label("Points for Cho")).to_have_value("5")
    expect(small_phone.locator("#outbox")).to_have_count(0)  # its values are in the form now
    small_phone.get_by_role("group", name="Ann", exact=True).get_by_label("Went out").check()
    small_phone.get_by_label("Points for Ann").fill("")
    small_phone.get_by_role("button", name="Save round").last.click()
    expect(small_phone.locator("#round-area .flash.success")).to_have_text("Round saved.")
    expect(small_phone.locator("#outbox")).to_have_count(0)


@pytest.mark.usefixtures("refused_table")
def test_a_refusal_from_a_background_send_is_brought_into_view(small_phone: Page) -> None:
    heading = small_phone.locator("#outbox .outbox-group.attention h2")
    expect(heading).to_have_text("Not saved: check these")
    expect(heading).to_be_in_viewport()
    expect(heading).to_be_focused()  # a screen reader is taken there too


@pytest.mark.usefixtures("refused_table")
def test_the_focused_conflict_heading_has_room_inside_its_outline(small_phone: Page) -> None:
    """At 360 px the focus outline of the outbox's heading touched its words: it is drawn
    with a gap (outline-offset and padding) and not cut off by the card."""
    heading = small_phone.locator("#outbox .outbox-group.attention h2")
    expect(heading).to_be_focused()
    drawn = heading.evaluate(
        """h => {
          const s = getComputedStyle(h);
          const box = h.getBoundingClientRect();
          const card = h.closest('#outbox').getBoundingClientRect();
          const gap = parseFloat(s.outlineOffset);
          const reach = gap + parseFloat(s.outlineWidth);
          return {style: s.outlineStyle, width: parseFloat(s.outlineWidth),
                  gap: gap + Math.min(parseFloat(s.paddingLeft), parseFloat(s.paddingTop)),
                  inside: box.left - reach >= 0
                          && box.right + reach <= document.documentElement.clientWidth
                          && box.left - reach >= card.left - 1};
        }"""
    )
    assert drawn["style"] != "none" and drawn["width"] >= 2, drawn
    assert drawn["gap"] >= 3, drawn  # not touching the words
    assert drawn["inside"], drawn  # on the screen, not under the card's edge


def taken_over(app: Flask, game_id: int) -> None:
    """Another phone takes scorekeeping over (with the host's passcode: every old scorekeeper
    stops at once)."""
    with app.test_request_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        device = Device()
        db.session.add(device)
        db.session.flush()
        row = GameAccess(game_id=game.id, device_id=device.id, role="asking")
        db.session.add(row)
        db.session.flush()
        record_handover(game, hand_over(game, row.id))  # (the routes' own recording)
        db.session.remove()


def test_the_old_scorekeepers_form_is_disabled_after_a_handover(
    small_phone: Page, live_server
) -> None:
    table = seed_table(live_server.app, FOUR, 6)
    open_game(small_phone, table.edit)
    small_phone.get_by_label("Points for Bob").fill("4")  # typed: the page is not reloaded
    small_phone.route("**/posts?*", lambda route: route.abort())  # the Save finds it out first
    taken_over(live_server.app, table.id)
    save = small_phone.get_by_role("button", name="Save round").last
    save.click()
    status = small_phone.locator("#round-area .save-status .flash.error")
    expect(status).to_contain_text("This phone no longer keeps score")
    expect(save).to_be_disabled()
    expect(small_phone.get_by_label("Points for Bob")).to_be_disabled()
    expect(small_phone.get_by_label("Points for Bob")).to_have_value("4")  # still readable
    # no empty band above the words in the notice
    gap = small_phone.evaluate(
        """() => {
          const box = document.querySelector('#round-area .save-status .flash.error');
          const words = box.querySelector('p').getBoundingClientRect();
          return words.top - box.getBoundingClientRect().top;
        }"""
    )
    assert gap <= 12, gap


def test_the_old_scorekeepers_seat_buttons_are_disabled_after_a_handover(
    small_phone: Page, live_server
) -> None:
    table = seed_table(live_server.app, FOUR, 6)
    phone_posts(live_server.app, table.id, {0: 5})  # Anna joined: her "Remove" button shows
    open_game(small_phone, table.edit)
    small_phone.get_by_label("Points for Bob").fill("4")  # typed: the page is not reloaded
    taken_over(live_server.app, table.id)  # the poll finds it out
    expect(small_phone.locator("form.round-form[data-retired]")).to_have_count(1)
    for name in (
        "Lock the seats: everyone is in",
        "Close: everyone who plays has joined",
        "Remove this phone from the seat",
        "Auto-save: off · Turn on",
    ):
        buttons = small_phone.get_by_role("button", name=name)
        assert buttons.count() >= 1, name
        for index in range(buttons.count()):
            expect(buttons.nth(index)).to_be_disabled()
    # the score sheet's own links stay: reading is still fine
    expect(small_phone.get_by_label("Points for Bob")).to_have_value("4")


def test_a_round_saved_meanwhile_offers_the_scorekeeper_its_correction(
    small_phone: Page, live_server
) -> None:
    table = seed_table(live_server.app, FOUR, 6)
    open_game(small_phone, table.edit)
    try:
        live_server.wifi.cut = True
        small_phone.context.set_offline(True)
        for name, points in zip(FOUR[1:], (4, 5, 6), strict=True):
            small_phone.get_by_label(f"Points for {name}").fill(str(points))
        small_phone.get_by_role("group", name="Ann", exact=True).get_by_label("Went out").check()
        small_phone.get_by_role("button", name="Save round").last.click()
        expect(small_phone.locator("#outbox .outbox-entry")).to_have_attribute(
            "data-state", "waiting"
        )
        # meanwhile another scorekeeper's phone saves the round with another value for Bob
        keeper_saves(live_server.app, table.id, {"Ann": None, "Bob": 9, "Cho": 5, "Dee": 6})
    finally:
        live_server.wifi.cut = False
        small_phone.context.set_offline(False)  # its "online" event sends the entry
    entry = small_phone.locator("#outbox .outbox-entry")
    expect(entry).to_contain_text("Saved meanwhile, with other values")
    expect(entry).not_to_contain_text("tell the scorekeeper")  # this phone is the scorekeeper
    # the words name the button this card holds (not "the link below")
    expect(entry).to_contain_text("If yours is right, tap Put mine back in the form.")
    expect(entry.get_by_role("button", name="Put mine back in the form")).to_be_visible()
    entry.get_by_role("link", name="Open the round as saved").click()
    expect(small_phone.locator("#round-title")).to_contain_text("Correct the round with 6-6")


def test_a_marks_time_reads_the_same_after_a_refused_save(small_phone: Page, live_server) -> None:
    table = seed_table(live_server.app, FOUR, 6)
    phone_posts(live_server.app, table.id, {1: 12})
    open_game(small_phone, table.edit)
    stamp = small_phone.get_by_role("group", name="Bob", exact=True).locator(".post-mark time")
    expect(stamp).not_to_be_empty()
    live = stamp.text_content()
    small_phone.get_by_label("Points for Ann").fill("3")
    small_phone.get_by_role("button", name="Save round").last.click()  # nobody went out: 422
    expect(small_phone.locator("#round-area .flash.error")).to_contain_text("Mark who went out")
    expect(stamp).to_have_text(live or "")  # one format: the time of day (posted today)
    assert "/" not in (live or "") and "," not in (live or ""), live


def test_the_auto_save_switch_keeps_a_typed_correction_with_htmx(
    small_phone: Page, live_server
) -> None:
    """On the correction page the auto-save switch submits the correction as typed (htmx):
    Bob's typed 25 stays in its box and the switch says it is on."""
    table = seed_table(live_server.app, FOUR, 6)
    open_game(small_phone, table.edit)  # this phone keeps score
    keeper_saves(live_server.app, table.id, dict(zip(FOUR, (None, 4, 5, 6), strict=True)))
    small_phone.goto(f"/g/{table.edit}/round/1")
    small_phone.wait_for_function("() => window.htmx !== undefined")
    small_phone.get_by_label("Points for Bob").fill("25")
    small_phone.get_by_role("button", name="Auto-save: off · Turn on").click()
    expect(small_phone.get_by_role("button", name="Auto-save: on · Turn off")).to_be_visible()
    expect(small_phone.get_by_label("Points for Bob")).to_have_value("25")
