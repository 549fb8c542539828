"""Every table size at 360 px: 12 players on double-18 through 19 rounds stay readable (no
figure below 14 px), no page is wider than the phone with a 60-character name without spaces,
the lazily built tile picker works with and without JavaScript, and a notice lasts until the
next action."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

import pytest
from playwright.sync_api import Page, expect

from companion.extensions import db
from companion.models import Game
from companion.services import game_setup as setup
from companion.services.round_check import HandEntry, RoundEntry, check_round
from companion.services.round_plan import load_game
from companion.services.round_store import save_round
from tests.browser.conftest import phone_page

pytestmark = pytest.mark.browser

#: a small phone: the narrowest width the app is designed for
SMALL_PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
LONG_NAME = "Bartholomew" * 5 + "Xavierxxx"  # 64 letters without a space ...
LONG_NAME = LONG_NAME[:60]  # ... cut to the longest name allowed (NAME_MAX = 60)

#: the smallest computed font size of the visible text under ``root`` (CSS px), and where:
#: every text node with letters or digits, outside SVG (tiles and charts scale their own
#: units) and outside visually hidden helpers (.vh, .visually-hidden: 1 px, never seen)
SMALLEST_FONT = """(root) => {
  const scope = document.querySelector(root) || document.body;
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  let smallest = [1000, ""];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !/[0-9A-Za-z]/.test(node.textContent)) continue;
    if (el.closest("svg, .vh, .visually-hidden, script, style, noscript, template")) continue;
    if (!el.checkVisibility({checkOpacity: false, checkVisibilityCSS: true})) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    const what = el.tagName + "." + el.className + ": " + node.textContent.trim().slice(0, 30);
    if (size < smallest[0]) smallest = [size, what];
  }
  return smallest;
}"""
WIDER_THAN_VIEWPORT = (
    "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
    " Array.from(document.querySelectorAll('body *')).filter("
    "e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1"
    " && !e.closest('.vh, .skip,"
    " .visually-hidden')).slice(0, 3).map(e => e.tagName + '.' + e.className)]"
)


@pytest.fixture()
def small_phone(browser, live_server) -> Iterator[Page]:
    """A 360 px wide phone page whose base URL is the live server."""
    with phone_page(browser, live_server, 15_000, **SMALL_PHONE) as page:
        yield page


@pytest.fixture()
def small_phone_without_js(browser, live_server) -> Iterator[Page]:
    """The same phone with JavaScript switched off (every form a plain post)."""
    with phone_page(browser, live_server, 15_000, **SMALL_PHONE, java_script_enabled=False) as page:
        yield page


def typed(seat_index: int, round_index: int) -> int:
    """A plausible typed total (1-140 points: three digits on the board) for a hand."""
    return (seat_index * 37 + round_index * 53) % 140 + 1


def seed_game(app, names: list[str], set_size: int, rounds: int) -> tuple[str, str, int]:
    """A game of ``names`` on ``set_size`` with ``rounds`` rounds typed in through the score
    keeper's own services (engine checks included). Returns (edit token, share token, night
    id)."""
    with app.test_request_context():
        night = setup.create_night(db.session, date.today(), "Vilnius")
        choices = [setup.PlayerChoice(name=n, seat=i + 1) for i, n in enumerate(names)]
        game = setup.create_game(db.session, night, choices, set_size, "standard", {})
        for k in range(rounds):
            load_game(game)
            out = k % len(game.seats)
            hands = [
                HandEntry(seat=s, total="" if i == out else str(typed(i, k)), went_out=i == out)
                for i, s in enumerate(game.seats)
            ]
            scored, errors = check_round(game, RoundEntry(double=set_size - k, hands=hands))
            assert scored is not None, errors
            save_round(game, scored, str(game.version))
        found = game.edit_token, game.share_token, night.id
        db.session.remove()
    return found


def remember_game(page: Page, token: str) -> None:
    """Open the game's edit link once, so this browser keeps score for it (as a scorekeeper)."""
    page.goto(f"/g/{token}")
    expect(page.locator("h1.game-title")).to_be_visible()


def hand(page: Page, name: str):
    """The round form's fieldset of ``name`` (its legend is the name)."""
    return page.get_by_role("group", name=name, exact=True)


def smallest_font(page: Page, root: str = "body") -> tuple[float, str]:
    size, where = page.evaluate(SMALLEST_FONT, root)
    return size, where


# --- readable at every size ---------------------------------------------------------------------


def test_twelve_players_on_double_18_stay_readable_through_19_rounds(
    small_phone: Page, live_server
) -> None:
    page = small_phone
    names = [f"Player {i + 1}" for i in range(12)]
    token, share, _night = seed_game(live_server.app, names, 18, 18)
    remember_game(page, token)
    expect(page.locator("#round-title")).to_have_text("Round 19 of 19")
    assert smallest_font(page, "#scoreboard")[0] >= 14, smallest_font(page, "#scoreboard")
    assert smallest_font(page)[0] >= 14, smallest_font(page)
    # a player's every round, on demand (htmx swaps the scoreboard), at full size too
    page.locator("#scoreboard a.name", has_text="Player 5").click()
    expect(page.locator("ol.player-rounds li")).to_have_count(18)
    assert smallest_font(page, "#scoreboard")[0] >= 14, smallest_font(page, "#scoreboard")
    # earlier rounds, on demand
    page.get_by_role("link", name="◀ Earlier rounds").click()
    expect(page.locator("#scoreboard thead th.rd").first).to_have_text("12")
    # the 19th round through the form (one player goes out, the others typed)
    for i, name in enumerate(names):
        if i == 0:
            hand(page, name).get_by_label("Went out").check()
        else:
            page.get_by_label(f"Points for {name}", exact=True).fill(str(typed(i, 18)))
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#finish-title")).to_have_text("Game over")
    assert smallest_font(page, "#scoreboard")[0] >= 14, smallest_font(page, "#scoreboard")
    assert smallest_font(page)[0] >= 14, smallest_font(page)
    assert page.evaluate(WIDER_THAN_VIEWPORT)[0] <= 360
    # the read-only scoreboard the other phones watch
    page.goto(f"/s/{share}")
    expect(page.locator("#scoreboard tbody.player")).to_have_count(12)
    assert smallest_font(page)[0] >= 14, smallest_font(page)
    page.goto(f"/s/{share}?upto=6")
    expect(page.locator("#scoreboard thead th.rd").first).to_have_text("18")
    assert smallest_font(page)[0] >= 14, smallest_font(page)


def test_no_page_is_wider_than_the_phone_with_a_60_character_name(
    small_phone: Page, live_server
) -> None:
    page = small_phone
    assert len(LONG_NAME) == 60 and " " not in LONG_NAME
    token, share, night_id = seed_game(live_server.app, [LONG_NAME, "Bo", "Cy"], 9, 2)
    remember_game(page, token)
    with live_server.app.app_context():
        player_id = (
            db.session.scalars(db.select(Game).where(Game.edit_token == token))
            .one()
            .seats[0]
            .player_id
        )
    hand(page, "Bo").locator("button.picker-open").click()
    expect(page.locator("label.pick")).to_have_count(54)
    urls = {
        "game page": f"/g/{token}",
        "game page, the long name's rounds": f"/g/{token}?who=",
        "new game": f"/nights/{night_id}/games/new",
        "night page": f"/nights/{night_id}",
        "scoreboard": f"/s/{share}",
        "players": "/history/players",
        "player page": f"/history/players/{player_id}",
    }
    seat = page.locator("#scoreboard a.name").first.get_attribute("href") or ""
    urls["game page, the long name's rounds"] = seat.split("#")[0]
    too_wide = {}
    for label, url in urls.items():
        page.goto(url)
        expect(page.locator("main")).to_contain_text(LONG_NAME[:20])
        width, viewport, culprits = page.evaluate(WIDER_THAN_VIEWPORT)
        if width > viewport:
            too_wide[label] = (width, culprits)
    # the new-game form with the long name typed in a new name box and its row ticked
    page.goto(f"/nights/{night_id}/games/new")
    page.get_by_role("button", name="Same players as last game").click()
    page.get_by_label("Name 1").fill(LONG_NAME[::-1])
    width, viewport, culprits = page.evaluate(WIDER_THAN_VIEWPORT)
    if width > viewport:
        too_wide["new game, ticked and typed"] = (width, culprits)
    assert too_wide == {}


# --- the tile picker, built when opened ---------------------------------------------------------


def test_tile_picker_with_javascript_is_fetched_per_hand_and_greys_taken_tiles(
    small_phone: Page, live_server
) -> None:
    page = small_phone
    names = [f"Player {i + 1}" for i in range(12)]
    token, _share, _night = seed_game(live_server.app, names, 18, 1)
    remember_game(page, token)
    expect(page.locator("fieldset.picker input[type=checkbox]")).to_have_count(0)  # no tiles yet
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "/tiles" in r.url else None)
    two, three = (hand(page, n) for n in ("Player 2", "Player 3"))
    two.locator("button.picker-open").click()
    expect(two.locator("label.pick")).to_have_count(189)  # 190 tiles of double-18 but 17-17
    three.locator("button.picker-open").click()
    expect(three.locator("label.pick")).to_have_count(189)
    # only the opened hands have checkboxes; the second fetch leaves out the tile symbols
    expect(page.locator("label.pick")).to_have_count(2 * 189)
    assert len(requests) == 2 and "defs=0" not in requests[0] and "defs=0" in requests[1]
    expect(page.locator("svg.tile-defs")).to_have_count(1)
    two.locator("label.pick:has(input[value='18-9'])").click()
    two.locator("label.pick:has(input[value='0-0'])").click()
    expect(two.locator("output.picked-sum")).to_have_text("2 tiles: 77 points")
    expect(three.locator("input[value='18-9']")).to_be_disabled()
    expect(three.locator("label.pick.taken")).to_have_count(2)
    two.locator("label.pick:has(input[value='0-0'])").click()  # untap: free again
    expect(two.locator("output.picked-sum")).to_have_text("1 tile: 27 points")
    expect(three.locator("input[value='0-0']")).to_be_enabled()
    # save the round with the tapped tile: the engine scores it
    hand(page, "Player 1").get_by_label("Went out").check()
    for i, name in enumerate(names[2:], start=2):
        page.get_by_label(f"Points for {name}", exact=True).fill(str(typed(i, 1)))
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#round-title")).to_have_text("Round 3 of 19")
    row = page.locator("#scoreboard tbody.player", has_text="Player 2")
    expect(row.locator("tr:nth-child(2) > td").last).to_have_text(re.compile(r"^27 "))
    expect(page.locator("label.pick")).to_have_count(0)  # the next round starts closed


def test_tile_picker_without_javascript_keeps_what_was_typed(
    small_phone_without_js: Page, live_server
) -> None:
    page = small_phone_without_js
    token, _share, _night = seed_game(live_server.app, ["Ann", "Bob", "Cy"], 9, 0)
    remember_game(page, token)
    page.get_by_label("Points for Ann").fill("12")
    hand(page, "Cy").get_by_label("Went out").check()
    hand(page, "Bob").locator("button.picker-open").click()
    page.wait_for_url(re.compile(rf"/g/{token}/round$"))  # the same page, that picker open
    expect(hand(page, "Bob").locator("summary")).to_be_focused()  # scrolled to it
    bob = hand(page, "Bob")
    expect(bob.locator("label.pick")).to_have_count(54)
    expect(page.get_by_label("Points for Ann")).to_have_value("12")
    expect(hand(page, "Cy").get_by_label("Went out")).to_be_checked()
    expect(page.locator("label.pick")).to_have_count(54)  # only Bob's picker is built
    for tile in ("6-5", "2-0"):
        bob.locator(f"label.pick:has(input[value='{tile}'])").click()
        expect(bob.locator(f"input[value='{tile}']")).to_be_checked()
    page.get_by_role("button", name="Save round").click()
    page.wait_for_url(re.compile(rf"/g/{token}$"))
    expect(page.locator("#round-title")).to_have_text("Round 2 of 10")
    row = page.locator("#scoreboard tbody.player", has_text="Bob")
    expect(row.locator("tr:nth-child(2) > td")).to_have_text([re.compile(r"^13 ")])


# --- notices last until the next action ---------------------------------------------------------


def test_an_undo_notice_disappears_after_the_next_save(small_phone: Page, live_server) -> None:
    page = small_phone
    token, _share, _night = seed_game(live_server.app, ["Ann", "Bob"], 6, 2)
    remember_game(page, token)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo the last change").click()
    expect(page.locator("#flashes")).to_contain_text("Undone: Round 2")
    # the undone round is back in the form as it was saved: one tap saves it again
    expect(hand(page, "Bob").get_by_label("Went out")).to_be_checked()
    expect(page.get_by_label("Points for Ann")).to_have_value(str(typed(0, 1)))
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#round-area > .flash.success")).to_have_text("Round saved.")
    expect(page.locator("#flashes")).to_be_empty()
