""" "Undo the last change" of a saved round puts its hands back in the round form, at 360 x 740:
the scorekeeper types a round, saves it, undoes it, finds every typed hand in its box (marked as
typed, not saved yet) and saves it again with one tap; a hand posted from a phone after the
undo takes its box, while a typed hand put back over an older post stays (docs/TABLE.md)."""

from __future__ import annotations

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from companion.extensions import db
from companion.models import Game
from companion.services.round_plan import load_game
from tests.browser.table_screen import FOUR, phone_posts, seed_table
from tests.browser.test_entries_kept_browser import keeper_saves
from tests.browser.test_table_screen_browser import open_game, small_phone
from tests.browser.test_table_sizes_browser import hand

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser

BACK = "Its hands are back in the round form as they were saved"


def points(page: Page, name: str):
    return hand(page, name).get_by_role("textbox")


def saved(app: Flask, game_id: int) -> list[dict[str, tuple[int, str]]]:
    """Per saved round: player name -> (points, who entered the hand)."""
    with app.app_context():
        game = load_game(db.session.get(Game, game_id))
        found = [
            {h.seat.player.name: (h.points, h.entered_by) for h in rnd.hands} for rnd in game.rounds
        ]
        db.session.remove()
    return found


def save(page: Page) -> None:
    page.locator("#round-area .actions button.big").click()
    expect(page.locator("#round-area .flash.success")).to_have_text("Round saved.")


def undo(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo the last change").click()
    expect(page.locator("#flashes")).to_contain_text("Undone: Round 1 (9-9) saved")
    expect(page.locator("#flashes")).to_contain_text(BACK)


def test_an_undone_round_comes_back_typed_and_one_tap_saves_it_again(
    small_phone: Page, live_server
) -> None:
    app = live_server.app
    table = seed_table(app, FOUR, 9)
    page = small_phone
    open_game(page, table.edit)
    hand(page, "Ann").get_by_label("Went out").check()
    points(page, "Bob").fill("12")
    points(page, "Cho").fill("7")
    points(page, "Dee").fill("30")
    save(page)
    expect(page.locator("#round-area")).to_contain_text("Round 2 of 10")
    first = saved(app, table.id)
    assert [{n: p for n, (p, _by) in r.items()} for r in first] == [
        {"Ann": 0, "Bob": 12, "Cho": 7, "Dee": 30}
    ]

    undo(page)
    expect(page.locator("#round-area")).to_contain_text("Round 1 of 10")
    assert saved(app, table.id) == []
    # every typed hand is back in its box, marked as the form marks typing not saved yet
    expect(hand(page, "Ann").get_by_label("Went out")).to_be_checked()
    expect(points(page, "Bob")).to_have_value("12")
    expect(points(page, "Cho")).to_have_value("7")
    expect(points(page, "Dee")).to_have_value("30")
    for name in FOUR:
        expect(hand(page, name).locator(".post-mark")).to_have_text("typed by you, not saved yet")
    box = page.locator("#round-area .actions button.big").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360 and box["height"] >= 44, box

    save(page)  # one tap
    expect(page.locator("#round-area")).to_contain_text("Round 2 of 10")
    assert saved(app, table.id) == first


def test_a_post_after_the_undo_takes_its_box_and_a_typed_hand_over_a_post_stays(
    small_phone: Page, live_server
) -> None:
    app = live_server.app
    table = seed_table(app, FOUR, 9)
    page = small_phone
    phone_posts(app, table.id, {1: 10})  # Bob's phone posts 10
    open_game(page, table.edit)
    expect(points(page, "Bob")).to_have_value("10")
    hand(page, "Ann").get_by_label("Went out").check()
    points(page, "Bob").fill("12")  # typed over Bob's post
    points(page, "Cho").fill("7")
    points(page, "Dee").fill("30")
    save(page)
    undo(page)
    expect(points(page, "Bob")).to_have_value("12")
    expect(hand(page, "Bob").locator(".post-mark")).to_contain_text("typed over their post")
    expect(hand(page, "Bob").locator("button.use-post")).to_have_text("Use Bob's post (10 points)")
    expect(points(page, "Dee")).to_have_value("30")
    # after the undo Dee's phone posts 25: the live form takes it into Dee's box; Bob's typed
    # 12 stays (his post, 10, is the one the form was drawn with)
    phone_posts(app, table.id, {3: 25})
    expect(points(page, "Dee")).to_have_value("25")
    expect(hand(page, "Dee").locator(".post-mark")).to_contain_text("posted")
    expect(points(page, "Bob")).to_have_value("12")
    save(page)
    (round_one,) = saved(app, table.id)
    assert round_one == {
        "Ann": (0, "scorekeeper"),
        "Bob": (12, "overruled"),
        "Cho": (7, "scorekeeper"),
        "Dee": (25, "phone"),
    }


def test_the_use_post_button_keeps_its_points_with_its_words_at_360_px(
    small_phone: Page, live_server
) -> None:
    """After an undo a hand typed over a post comes back with "Use Maximiliane-Josefine's post
    (12 points)" under it. The button laid its words and its points side by side as two
    columns, so at 360 px "(12" and "points)" stood on two lines at the right, beside
    "Use Maximiliane-Josefine's" and "post": the points flow on with the words now."""
    app = live_server.app
    table = seed_table(app, ["Maximiliane-Josefine", "Bob", "Cho"], 9)
    page = small_phone
    phone_posts(app, table.id, {0: 12})
    open_game(page, table.edit)
    points(page, "Maximiliane-Josefine").fill("15")  # typed over her post
    points(page, "Bob").fill("3")
    hand(page, "Cho").get_by_label("Went out").check()
    page.locator("#round-area .actions button.big").click()
    expect(page.locator("#round-area")).to_contain_text("Round 2 of 10")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo the last change").click()
    expect(page.locator("#flashes")).to_contain_text(BACK)
    button = hand(page, "Maximiliane-Josefine").locator("button.use-post")
    expect(button).to_have_text("Use Maximiliane-Josefine's post (12 points)")
    # the points flow on with the words as text does: on the words' last line, or wrapping
    # to the button's left edge, not in a column of their own beside them
    rects = button.evaluate(
        """b => {
          const left = b.getBoundingClientRect().left + parseFloat(getComputedStyle(b).paddingLeft);
          const line = parseFloat(getComputedStyle(b).fontSize) * 1.5;
          return [...b.querySelector('span').getClientRects()].map(
            r => [Math.round(r.left - left), r.height < line]);
        }"""
    )
    assert all(short for _x, short in rects), rects
    assert len(rects) == 1 or rects[-1][0] <= 1, rects
    assert button.evaluate("b => b.scrollWidth <= b.clientWidth")


@pytest.mark.parametrize("closed", [False, True], ids=["page open", "tab closed"])
def test_typing_an_undo_put_back_is_shown_beside_the_round_saved_meanwhile(
    small_phone: Page, live_server, closed: bool
) -> None:
    """After the undo the form holds the scorekeeper's typing again (Bob 12, Cho 7, Dee 30:
    nothing typed since). Another scorekeeper's phone saves the round meanwhile with Bob 5:
    the page, open (its poll) or opened again after the tab was closed, shows Bob's 12 beside
    what was saved, as it shows typing. The put-back boxes read as untouched: the open page
    reloaded quietly into the next round, and nothing was kept for a closed tab."""
    app = live_server.app
    table = seed_table(app, FOUR, 9)
    page = small_phone
    open_game(page, table.edit)
    hand(page, "Ann").get_by_label("Went out").check()
    points(page, "Bob").fill("12")
    points(page, "Cho").fill("7")
    points(page, "Dee").fill("30")
    save(page)
    undo(page)
    expect(points(page, "Bob")).to_have_value("12")
    if closed:
        page.goto("about:blank")
    keeper_saves(app, table.id, {"Ann": None, "Bob": 5, "Cho": 7, "Dee": 30})
    if closed:
        open_game(page, table.edit)
    mine = page.locator("#round-area ul.saved-hands.mine")
    expect(mine).to_contain_text("Bob: 12 points (saved: 5 points)")
    expect(mine).not_to_contain_text("Cho")  # as saved: nothing to say
    expect(mine).to_have_count(1)
    assert len(saved(app, table.id)) == 1  # the comparison saved nothing
