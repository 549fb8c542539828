"""The scorekeeper's own typing survives a reload (issue 22 leftovers), at 360 x 740: what the
scorekeeper typed over a posted hand or typed as a total comes back in the boxes after a
reload, marked "typed by you, not saved yet" (or, over a post, "typed over their post" beside
that post, as before the reload); a hand its phone posted again after the typing keeps the
typing and says "changed on their phone" beside the new post, open or reloaded, as long as the
typing stands over it; "Use Bob's post (12 points)" puts the phone's
value back in one tap; a saved round leaves nothing kept behind."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from playwright.sync_api import Locator, Page, expect
from sqlalchemy import select

from companion.extensions import db
from companion.models import Device, Game, GameAccess
from companion.services import hand_posts as posts
from companion.services.round_plan import load_game, plan_round
from tests.browser.table_screen import FOUR, Table, phone_posts, seed_table
from tests.browser.test_table_screen_browser import open_game, small_phone
from tests.browser.test_table_sizes_browser import hand

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def posts_again(app: Flask, game_id: int, index: int, total: int) -> None:
    """The phone that joined seat ``index`` posts ``total`` over its earlier post."""
    with app.test_request_context():
        game = load_game(db.session.get(Game, game_id))
        seat = game.seats[index]
        device_id = db.session.scalar(
            select(GameAccess.device_id).where(GameAccess.seat_id == seat.id)
        )
        plan = plan_round(game)
        assert plan is not None and device_id is not None
        device = db.session.get(Device, device_id)
        posts.post_hand(game, seat, device, plan.double, total=str(total), force=True)
        db.session.remove()


def points(page: Page, name: str):
    return hand(page, name).get_by_role("textbox")


def test_typing_comes_back_after_a_reload_and_the_post_is_one_tap_away(
    small_phone: Page, live_server
) -> None:
    table = seed_table(live_server.app, FOUR, 9)
    phone_posts(live_server.app, table.id, {1: 12})  # Bob's phone posts 12
    open_game(small_phone, table.edit)
    expect(points(small_phone, "Bob")).to_have_value("12")
    use_bob = hand(small_phone, "Bob").locator("button.use-post")
    expect(use_bob).to_be_hidden()
    points(small_phone, "Bob").fill("15")  # typed over Bob's post
    points(small_phone, "Ann").fill("7")  # typed, nothing posted
    expect(hand(small_phone, "Bob").locator(".post-mark")).to_contain_text("typed over their post")
    expect(use_bob).to_be_visible()
    expect(use_bob).to_have_text("Use Bob's post (12 points)")
    # as drawn: the button is a flex box, which dropped the space before the filled-in
    # points ("Use Bob's post(12 points)"); the "(" stands a space's width after "post"
    gap = use_bob.evaluate(
        """button => {
            const words = document.createRange(), points = document.createRange();
            words.selectNodeContents(button.firstChild);
            const text = button.lastChild.firstChild, at = text.data.indexOf("(");
            points.setStart(text, at);
            points.setEnd(text, at + 1);
            return points.getBoundingClientRect().left - words.getBoundingClientRect().right;
        }"""
    )
    assert gap >= 3, gap

    small_phone.reload()  # (or the phone killed the tab)
    expect(points(small_phone, "Bob")).to_have_value("15")
    expect(points(small_phone, "Ann")).to_have_value("7")
    expect(hand(small_phone, "Ann").locator(".post-mark")).to_contain_text(
        "typed by you, not saved yet"
    )
    expect(hand(small_phone, "Bob").locator(".post-mark")).to_contain_text("typed over their post")
    expect(hand(small_phone, "Cho").locator(".post-mark")).to_have_text("not posted")
    expect(use_bob).to_be_visible()
    box = use_bob.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 360, box
    expect(hand(small_phone, "Ann").locator("button.use-post")).to_be_hidden()

    use_bob.click()  # one tap: the phone's value is back in Bob's row
    expect(points(small_phone, "Bob")).to_have_value("12")
    expect(hand(small_phone, "Bob").locator(".post-mark")).to_contain_text("posted")
    expect(use_bob).to_be_hidden()
    small_phone.reload()
    expect(points(small_phone, "Bob")).to_have_value("12")  # (what was taken back stays taken)
    expect(points(small_phone, "Ann")).to_have_value("7")


def test_a_newer_post_never_replaces_the_restored_typing_and_a_save_clears_it(
    small_phone: Page, live_server
) -> None:
    app = live_server.app
    table = seed_table(app, FOUR, 9)
    phone_posts(app, table.id, {1: 12, 2: 3, 3: None})  # Dee went out
    open_game(small_phone, table.edit)
    expect(points(small_phone, "Bob")).to_have_value("12")
    points(small_phone, "Bob").fill("15")
    points(small_phone, "Ann").fill("9")
    small_phone.goto("about:blank")  # the tab is gone before Save
    posts_again(app, table.id, 1, 13)  # meanwhile Bob's phone posts 13
    open_game(small_phone, table.edit)
    expect(points(small_phone, "Bob")).to_have_value("15")  # the typing wins in the box
    # Bob posted 13 after the scorekeeper typed 15 over his 12, and the scorekeeper has not
    # seen it: the mark says so, as the open page would have ("typed over their post: 13"
    # said the 15 was typed over the 13), with Bob's new post beside it
    mark = hand(small_phone, "Bob").locator(".post-mark")
    expect(mark).to_contain_text("changed on their phone")
    expect(mark).to_contain_text("13 points")
    expect(hand(small_phone, "Bob").locator("button.use-post")).to_have_text(
        "Use Bob's post (13 points)"
    )
    expect(hand(small_phone, "Ann").locator(".post-mark")).to_contain_text(
        "typed by you, not saved yet"
    )
    # the typed values stand, as on the open page once the new post is shown beside them
    small_phone.locator("#round-area .actions button.big").click()
    expect(small_phone.locator("#round-area .flash.success")).to_have_text("Round saved.")
    expect(small_phone.locator("#round-area")).to_contain_text("Round 2 of 10")
    with app.app_context():
        game = load_game(db.session.get(Game, table.id))
        saved = {h.seat.player.name: h.points for h in game.rounds[0].hands}
        db.session.remove()
    assert saved["Bob"] == 15 and saved["Ann"] == 9, saved
    kept = small_phone.evaluate(f"() => localStorage.getItem('cf-round-typed:{table.id}')")
    assert kept is None
    small_phone.reload()
    expect(points(small_phone, "Bob")).to_have_value("")
    expect(points(small_phone, "Ann")).to_have_value("")


def test_typing_survives_a_switch_in_the_table_box(small_phone: Page, live_server) -> None:
    """Found by a fresh tester (2026-12-06): "Auto-save: off · Turn on" (a form of its own,
    which reloads the page) emptied every box the scorekeeper had typed in: the switch changes
    the game's version, and the kept typing was keyed by it. It is keyed by the rounds entered
    now, which a switch does not change."""
    table = seed_table(live_server.app, FOUR, 9)
    phone_posts(live_server.app, table.id, {1: 12})
    open_game(small_phone, table.edit)
    points(small_phone, "Ann").fill("7")
    points(small_phone, "Bob").fill("15")
    small_phone.get_by_role("button", name="Auto-save: off · Turn on").click()
    expect(small_phone.get_by_role("button", name="Auto-save: on · Turn off")).to_be_visible()
    expect(points(small_phone, "Ann")).to_have_value("7")
    expect(points(small_phone, "Bob")).to_have_value("15")
    expect(hand(small_phone, "Ann").locator(".post-mark")).to_contain_text(
        "typed by you, not saved yet"
    )


@pytest.mark.parametrize(
    ("lang", "typed_over", "yours"),
    [
        ("en", "typed over their post", "typed by you"),
        ("cs", "přepsána odeslaná hodnota", "napsáno tebou"),
        ("de", "über die Meldung getippt", "von dir getippt"),
        ("ru", "введено поверх отправленного", "введено тобой"),
        ("lt", "įvesta vietoje pateikto", "įvedei tu"),
        ("es", "escrito encima de lo enviado", "escrito por ti"),
    ],
)
def test_typing_over_a_post_still_says_so_after_a_reload(
    small_phone: Page, live_server, lang: str, typed_over: str, yours: str
) -> None:
    """Found by a tester (2026-12-07): typed over Bob's post (9), the row said "typed over
    their post 6:06 AM: 9 points"; after a reload it said "typed by you, not saved yet 6:06 AM:
    9 points", naming the player's post as the scorekeeper's typing. It says what it said
    before the reload, on a line under the row (in the name's 102 px column on a 360 px phone
    it stood five lines high in de, ru, lt and es; two at most now)."""
    small_phone.set_extra_http_headers({"Accept-Language": lang})
    table = seed_table(live_server.app, FOUR, 9)
    phone_posts(live_server.app, table.id, {1: 9})  # Bob's phone posts 9
    open_game(small_phone, table.edit)
    points(small_phone, "Bob").fill("19")
    mark = hand(small_phone, "Bob").locator(".post-mark")
    expect(mark).to_contain_text(typed_over)
    before = mark.inner_text()
    small_phone.reload()
    expect(points(small_phone, "Bob")).to_have_value("19")
    expect(mark).to_contain_text(typed_over)
    expect(mark).not_to_contain_text(yours)
    assert mark.inner_text() == before  # the post's time and value, as before
    lines = mark.evaluate(
        "m => Math.round(m.getBoundingClientRect().height"
        " / parseFloat(getComputedStyle(m).lineHeight))"
    )
    assert lines <= 2, (lines, before)


def saved_points(app: Flask, game_id: int) -> dict[str, int]:
    """Player name -> the points saved in the game's first round."""
    with app.app_context():
        game = load_game(db.session.get(Game, game_id))
        saved = {h.seat.player.name: h.points for h in game.rounds[0].hands}
        db.session.remove()
    return saved


def typed_over_then_changed(page: Page, app: Flask) -> tuple[Table, Locator]:
    """A new game of four on double-9 open on ``page``: Ann's phone posts 9, the scorekeeper
    types 19 over it ("typed over their post"), then Ann changes her hand to 12 on her phone
    ("changed on their phone: 12 points"). The game and Ann's mark."""
    table = seed_table(app, FOUR, 9)
    phone_posts(app, table.id, {0: 9})  # Ann's phone posts 9
    open_game(page, table.edit)
    points(page, "Ann").fill("19")
    mark = hand(page, "Ann").locator(".post-mark")
    expect(mark).to_contain_text("typed over their post")
    posts_again(app, table.id, 0, 12)  # Ann changes her hand to 12 on her phone
    expect(mark).to_contain_text("changed on their phone")
    expect(mark).to_contain_text("12 points")
    return table, mark


def test_a_post_changed_after_the_typing_still_says_so_after_a_reload(
    small_phone: Page, live_server
) -> None:
    """Found by a tester (2026-12-07): the scorekeeper typed 19 over Ann's post (9), then Ann
    changed her hand to 12 on her phone. The open page said "changed on their phone: 12";
    after a reload it said "typed over their post: 12", as if the scorekeeper had typed 19
    over the 12, and Save overruled Ann's new post unsaid. The kept typing now remembers that
    the post changed after it: every reload says "changed on their phone", as the open page
    did, and Save then does what it does on the open page (the typing, shown beside the new
    post, stands; Ann's phone is told it was overruled)."""
    app = live_server.app
    table, mark = typed_over_then_changed(small_phone, app)
    for _ in range(2):  # a reload, and another: the typing was not made over the 12
        small_phone.reload()
        expect(points(small_phone, "Ann")).to_have_value("19")
        expect(mark).to_contain_text("changed on their phone")
        expect(mark).to_contain_text("12 points")
        expect(mark).not_to_contain_text("typed over")
        expect(hand(small_phone, "Ann").locator("button.use-post")).to_have_text(
            "Use Ann's post (12 points)"
        )
    points(small_phone, "Bob").fill("5")
    points(small_phone, "Cho").fill("3")
    hand(small_phone, "Dee").get_by_label("Went out").check()
    small_phone.locator("#round-area .actions button.big").click()
    expect(small_phone.locator("#round-area .flash.success")).to_have_text("Round saved.")
    assert saved_points(app, table.id)["Ann"] == 19


def test_typing_a_posts_own_value_says_posted_as_a_reload_does(
    small_phone: Page, live_server
) -> None:
    """Found by a tester (2026-12-07): typing exactly Bob's posted 9 in his box said "typed
    over their post" on the open page and "posted" after a reload; nothing differs from the
    post, and both say "posted" now."""
    table = seed_table(live_server.app, FOUR, 9)
    phone_posts(live_server.app, table.id, {1: 9})  # Bob's phone posts 9
    open_game(small_phone, table.edit)
    mark = hand(small_phone, "Bob").locator(".post-mark")
    points(small_phone, "Bob").fill("19")
    expect(mark).to_contain_text("typed over their post")
    points(small_phone, "Bob").fill("9")  # typed back to what Bob posted
    expect(mark).to_contain_text("posted")
    expect(mark).not_to_contain_text("typed over")
    small_phone.reload()
    expect(points(small_phone, "Bob")).to_have_value("9")
    expect(mark).to_contain_text("posted")
    expect(mark).not_to_contain_text("typed over")


def test_a_post_changed_while_a_photo_was_taken_says_so_back_on_the_form(
    small_phone: Page, live_server
) -> None:
    """The same while the scorekeeper was on a hand's photo page: the game page draws the
    round form kept when the photo was started (Ann's 19 in it) with Ann's new post beside
    it; it said "typed over their post: 12" and now says "changed on their phone"."""
    app = live_server.app
    table = seed_table(app, FOUR, 9)
    phone_posts(app, table.id, {0: 9})  # Ann's phone posts 9
    open_game(small_phone, table.edit)
    points(small_phone, "Ann").fill("19")
    expect(hand(small_phone, "Ann").locator(".post-mark")).to_contain_text("typed over")
    hand(small_phone, "Bob").get_by_role("button", name="Count Bob's pips from a photo").click()
    small_phone.wait_for_url(re.compile(r"/photo/\d+"))
    posts_again(app, table.id, 0, 12)  # Ann changes her hand to 12 meanwhile
    open_game(small_phone, table.edit)
    expect(points(small_phone, "Ann")).to_have_value("19")
    mark = hand(small_phone, "Ann").locator(".post-mark")
    expect(mark).to_contain_text("changed on their phone")
    expect(mark).to_contain_text("12 points")


def test_a_changed_mark_follows_the_box_typed_again(small_phone: Page, live_server) -> None:
    """Found by a tester (2026-12-07): a row marked "changed on their phone: 12" kept that mark
    while the scorekeeper typed yet another value in its box. The mark follows the box: typed
    to another value it is "typed over their post: 12" (the 12 was seen as the box was typed,
    and a reload says so too); typed to 12, "posted"."""
    _, mark = typed_over_then_changed(small_phone, live_server.app)
    points(small_phone, "Ann").fill("15")  # typed again, the 12 beside it
    expect(mark).to_have_text(re.compile(r"^typed over their post .*: 12 points$"))
    small_phone.reload()
    expect(points(small_phone, "Ann")).to_have_value("15")
    expect(mark).to_have_text(re.compile(r"^typed over their post .*: 12 points$"))
    points(small_phone, "Ann").fill("12")
    expect(mark).to_have_class(re.compile(r"\bposted\b"))


@pytest.mark.parametrize("typed", ["09", " 9"])
def test_the_same_number_written_otherwise_says_posted(
    small_phone: Page, live_server, typed: str
) -> None:
    """Found by a tester (2026-12-07): "08" typed over a post of 8 said "typed over their
    post". The same number is the same hand: "09" or " 9" over Bob's 9 says "posted", open
    and after a reload, and offers no "Use Bob's post"."""
    table = seed_table(live_server.app, FOUR, 9)
    phone_posts(live_server.app, table.id, {1: 9})  # Bob's phone posts 9
    open_game(small_phone, table.edit)
    mark = hand(small_phone, "Bob").locator(".post-mark")
    points(small_phone, "Bob").fill(typed)
    expect(mark).to_have_class(re.compile(r"\bposted\b"))
    expect(hand(small_phone, "Bob").locator("button.use-post")).to_be_hidden()
    small_phone.reload()
    expect(mark).to_have_class(re.compile(r"\bposted\b"))
