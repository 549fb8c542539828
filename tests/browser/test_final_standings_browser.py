"""The end of a game on a player's own phone, 360 x 740, two phones: the scorekeeper's (in
English) saves the last round (0-0); a player's phone (in German), joined by the join link and
left open on its hand form, shows by its poll what the scorekeeper's phone shows: "Game over",
the winner and the tie-break step that decided, every player's place, total, zero rounds and
best non-zero round. Before, it showed "Game over" and the winner's line only. The read-only
page (/s/<share>, in German) left open while the last round is saved shows the same result by
its poll, without a reload. Names of 20+ letters (one a 36-letter word) wrap inside the phone's
width."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from companion.extensions import db
from companion.games.undo import undo_last
from companion.models import Game
from companion.services.round_check import HandEntry, RoundEntry, check_round
from companion.services.round_plan import load_game
from companion.services.round_store import save_round
from tests.browser.conftest import PAGE_FITS, phone_page
from tests.browser.table_screen import SMALL_PHONE, seed_table
from tests.browser.test_table_screen_browser import open_game
from tests.browser.test_table_sizes_browser import hand

pytestmark = pytest.mark.browser

ANN = "Maximiliane-Josefine Hohenzollern-Sigmaringen"
BOB = "Bartholomäus Wolfeschlegelsteinhausenbergerdorff"
CY = "Cy"
#: the first six rounds (6-6 down to 1-1) per seat, None = went out; the last round (Ann 10,
#: Bob 5, Cy out) leaves Ann and Bob on 50, Ann ahead by her two zero rounds to Bob's one
FIRST_SIX = [
    (None, 5, 20),
    (10, None, 20),
    (None, 15, 20),
    (10, 10, None),
    (10, 10, None),
    (10, 5, None),
]
#: the final standings' rows as both phones show them: place and name, then the figures
ROWS = [f"1. {ANN}\n50\t2\t10", f"2. {BOB}\n50\t1\t5", f"3. {CY}\n60\t4\t20"]


#: the last round (0-0): Ann 10, Bob 5, Cy out
LAST = (10, 5, None)


def save_first_six(app: Flask, game_id: int, rounds: list = FIRST_SIX, top: int = 6) -> None:
    """Save the first six rounds (or ``rounds``, from the double ``top`` down) through the
    scorekeeper's own services (checks included)."""
    with app.test_request_context():
        game = db.session.get(Game, game_id)
        for k, points in enumerate(rounds):
            load_game(game)
            hands = [
                HandEntry(seat=seat, total="" if p is None else str(p), went_out=p is None)
                for seat, p in zip(game.seats, points, strict=True)
            ]
            scored, errors = check_round(game, RoundEntry(double=top - k, hands=hands))
            assert scored is not None, errors
            save_round(game, scored, str(game.version))
        db.session.remove()


@pytest.fixture()
def german_phone(browser, live_server) -> Iterator[Page]:
    """A second 360 px phone, its own context (its own cookies), in German."""
    with phone_page(browser, live_server, 15_000, **SMALL_PHONE, locale="de-DE") as page:
        yield page


@pytest.fixture()
def keeper_phone(browser, live_server) -> Iterator[Page]:
    """The scorekeeper's 360 px phone, in English."""
    with phone_page(browser, live_server, 15_000, **SMALL_PHONE, locale="en-US") as page:
        yield page


def test_a_players_phone_shows_the_final_standings_when_the_last_round_is_saved(
    keeper_phone: Page, german_phone: Page, live_server, shot
) -> None:
    table = seed_table(live_server.app, [ANN, BOB, CY], 6)
    save_first_six(live_server.app, table.id)
    keeper = keeper_phone
    open_game(keeper, table.edit)  # this phone keeps score
    bob = german_phone
    bob.goto(f"/j/{table.join}")
    bob.get_by_role("button", name=BOB, exact=True).click()
    bob.wait_for_url(f"**/p/{table.share}")
    expect(bob.locator("#hand-form")).to_be_visible()  # the hand form of the round with 0-0
    bob.wait_for_function("() => window.htmx !== undefined")
    expect(bob.locator("table.summary")).to_have_count(0)

    keeper.get_by_label(f"Points for {ANN}").fill("10")
    keeper.get_by_label(f"Points for {BOB}").fill("5")
    hand(keeper, CY).get_by_label("Went out").check()
    keeper.get_by_role("button", name="Save round").click()
    expect(keeper.locator("#finish-title")).to_have_text("Game over")

    # the player's phone, untouched: its poll brings the result, in its own language
    expect(bob.locator("#finish-title")).to_have_text("Partie vorbei")
    # no hand to type: the form left is hidden, its address and token only (static/js/hand.js
    # answers typing kept for the last round through it)
    expect(bob.locator("#hand-form")).to_be_hidden()
    expect(bob.locator("#hand-form input[name=total]")).to_have_count(0)
    finish = bob.locator("section.finish")
    expect(finish.locator("p.winner")).to_have_text(f"{ANN} gewinnt!")
    expect(finish).to_contain_text("Entschieden durch: meiste Nullrunden.")
    headings = ["Summe", "Nullrunden", "Beste Runde über null"]
    expect(finish.locator("thead th")).to_have_text(headings)
    expect(finish.locator("tbody")).to_have_count(3)
    rows = [row.strip() for row in finish.locator("tbody").all_inner_texts()]
    assert rows == ROWS
    # the same standings as on the scorekeeper's phone
    mine = keeper.locator("section.finish tbody").all_inner_texts()
    assert [row.strip() for row in mine] == ROWS
    shot(bob, "final-standings-player-360")
    # long names wrap: nothing is wider than the phone, and each name is there whole
    assert bob.evaluate(PAGE_FITS)
    for name in (ANN, BOB):
        box = finish.locator("tbody th", has_text=name).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360


def test_the_read_only_page_shows_the_final_standings_when_the_last_round_is_saved(
    german_phone: Page, live_server, shot
) -> None:
    """The read-only page left open while the last round is saved: its poll brings the result
    card with the new board (before, only the board: the card came with the next reload)."""
    table = seed_table(live_server.app, [ANN, BOB, CY], 6)
    save_first_six(live_server.app, table.id)
    viewer = german_phone
    viewer.goto(f"/s/{table.share}")
    viewer.wait_for_function("() => window.htmx !== undefined")
    expect(viewer.locator("section.finish")).to_have_count(0)
    viewer.evaluate("() => { window.leftOpen = true; }")  # gone if the page loads again

    save_first_six(live_server.app, table.id, [LAST], 0)  # the scorekeeper saves the last round

    expect(viewer.locator("#finish-title")).to_have_text("Partie vorbei")
    finish = viewer.locator("section.finish")
    expect(finish.locator("p.winner")).to_have_text(f"{ANN} gewinnt!")
    expect(finish).to_contain_text("Entschieden durch: meiste Nullrunden.")
    headings = ["Summe", "Nullrunden", "Beste Runde über null"]
    expect(finish.locator("thead th")).to_have_text(headings)
    assert [row.strip() for row in finish.locator("tbody").all_inner_texts()] == ROWS
    # once, above the board
    expect(viewer.locator("#finish")).to_have_count(1)
    card, board = finish.bounding_box(), viewer.locator("#scoreboard").bounding_box()
    assert card is not None and board is not None and card["y"] + card["height"] <= board["y"]
    assert viewer.evaluate("() => window.leftOpen === true")  # no reload
    shot(viewer, "final-standings-read-only-360")
    assert viewer.evaluate(PAGE_FITS)
    for name in (ANN, BOB):
        box = finish.locator("tbody th", has_text=name).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360


def test_the_read_only_page_says_game_over_once_to_a_screen_reader(
    german_phone: Page, live_server
) -> None:
    """The read-only page left open while the last round is saved: its live region (the page's
    notices, #flashes, role="status", outside what the poll swaps) gets "Game over" and who won
    once, hidden from sight, so a screen reader says it politely. Swapping the board again (a
    player's rounds opened) leaves the region untouched: nothing is said again. An undo
    empties it. Before, the card came in silently: no live region changed."""
    table = seed_table(live_server.app, [ANN, BOB, CY], 6)
    save_first_six(live_server.app, table.id)
    viewer = german_phone
    viewer.goto(f"/s/{table.share}")
    viewer.wait_for_function("() => window.htmx !== undefined")
    news = viewer.get_by_role("status").and_(viewer.locator("#flashes"))
    expect(news).to_have_text("")
    # every change to the region counted; the region itself marked (the same node throughout)
    viewer.evaluate(
        """() => { const box = document.getElementById("flashes"); box.kept = true;
        window.changes = 0;
        new MutationObserver((m) => { window.changes += m.length; })
          .observe(box, { childList: true, subtree: true, characterData: true }); }"""
    )

    save_first_six(live_server.app, table.id, [LAST], 0)  # the scorekeeper saves the last round

    expect(viewer.locator("#finish-title")).to_have_text("Partie vorbei")
    expect(news).to_have_text(f"Partie vorbei{ANN} gewinnt!")
    expect(news.locator("p")).to_have_text(["Partie vorbei", f"{ANN} gewinnt!"])
    assert viewer.evaluate("() => document.getElementById('flashes').kept === true")
    box = news.bounding_box()  # hidden from sight: the card below shows it
    assert box is not None and box["height"] == 0
    said = viewer.evaluate("() => window.changes")
    assert said > 0
    # the board swapped again (Bob's rounds opened, a boosted link), polls on: nothing said again
    viewer.locator("#scoreboard a.name", has_text=BOB).click()
    expect(viewer.locator(".all-rounds")).to_have_count(1)
    viewer.wait_for_timeout(2_500)  # a poll period and more
    assert viewer.evaluate("() => window.changes") == said
    expect(news).to_have_text(f"Partie vorbei{ANN} gewinnt!")

    # the scorekeeper undoes the last round: the region is emptied with the card
    with live_server.app.test_request_context():
        game = db.session.get(Game, table.id)
        undo_last(game, str(game.version))
        db.session.remove()
    expect(viewer.locator("#finish-title")).to_have_count(0)
    expect(news).to_have_text("")


def test_the_scorekeepers_title_says_game_over_at_the_last_save_and_not_after_an_undo(
    keeper_phone: Page, live_server
) -> None:
    """A tester's finding: the last round's Save (answered through htmx, no reload) left the
    scorekeeper's page titled "Game · …" until a reload; the player pages said Game over."""
    table = seed_table(live_server.app, [ANN, BOB, CY], 6)
    save_first_six(live_server.app, table.id)
    keeper = keeper_phone
    open_game(keeper, table.edit)
    expect(keeper).to_have_title("Game · Chicken Foot Companion")
    keeper.evaluate("() => { window.leftOpen = true; }")  # gone if the page loads again
    keeper.get_by_label(f"Points for {ANN}").fill("10")
    keeper.get_by_label(f"Points for {BOB}").fill("5")
    hand(keeper, CY).get_by_label("Went out").check()
    keeper.get_by_role("button", name="Save round").click()
    expect(keeper.locator("#finish-title")).to_have_text("Game over")
    expect(keeper).to_have_title("Game over · Chicken Foot Companion")
    assert keeper.evaluate("() => window.leftOpen === true")  # at once: no reload
    keeper.once("dialog", lambda d: d.accept())
    keeper.get_by_role("button", name="Undo the last change").click()
    expect(keeper.locator(".flashes")).to_contain_text("Undone")
    expect(keeper).to_have_title("Game · Chicken Foot Companion")
