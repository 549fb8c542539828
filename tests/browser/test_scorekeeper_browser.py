"""The score keeper in a real browser (Chromium at a phone viewport), as a table would use it.

Whole double-9 games of 4 players are played through the UI, once by typed pip totals and once
mostly by tapping the tiles left in hand, arranged so that two players tie on the total and the
tie is decided by zero rounds (RULES.md §8). Other tests: htmx from the local fallback when the
CDN is blocked, the whole flow with JavaScript off, axe on every main page in light and dark
mode, the scoreboard of 8 players at 360 px, and touch-target sizes. Screenshots go to
test-artifacts/ (fixture ``shot`` in conftest.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from companion.extensions import db
from companion.models import Game
from companion.services.scoreboard import BOARD_COLUMNS
from tests.web.playkit import add_scored_rounds

from .seeding import fill_round, lose_session_cookie, open_new_game, seed_game

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

#: the players of the typed game; short names so the scoreboard shows them whole
PLAYERS = ["Ana", "Bjørn", "Chen", "Dédé"]
#: double-9: rounds from 9-9 down to 0-0
DOUBLES = list(range(9, -1, -1))
#: who goes out in each round (index into PLAYERS): Ana 4 times, Bjørn 3, Chen 2, Dédé once
OUT_BY_ROUND = [0, 0, 0, 0, 1, 1, 1, 2, 2, 3]
#: points typed for the players who did not go out, per player, one per non-zero round:
#: Ana and Bjørn both end on 60 (Ana with 4 zero rounds, Bjørn with 3), Chen 96, Dédé 135
NONZERO = {
    0: [10, 10, 10, 10, 10, 10],
    1: [8, 8, 8, 9, 9, 9, 9],
    2: [12] * 8,
    3: [15] * 9,
}


def round_scores() -> list[dict[int, int | None]]:
    """Per round, each player's typed points (None = went out)."""
    queues = {p: list(v) for p, v in NONZERO.items()}
    rounds = []
    for out in OUT_BY_ROUND:
        rounds.append({p: None if p == out else queues[p].pop(0) for p in range(4)})
    assert all(not q for q in queues.values())
    return rounds


# --- driving the pages ----------------------------------------------------------------------


def watch_csp(page: Page) -> list[str]:
    """Collect the page's Content-Security-Policy refusals (console errors) from now on: the
    app's strict CSP must never block one of its own scripts or styles."""
    found: list[str] = []
    page.on(
        "console",
        lambda m: (
            found.append(f"{m.location.get('url')}:{m.location.get('lineNumber')}: {m.text}")
            if "Content Security Policy" in m.text
            else None
        ),
    )
    return found


def start_night(page: Page) -> None:
    """From the home page, start a game night for today; ends on the night's page."""
    page.goto("/")
    page.get_by_role("link", name="Start a game night").click()
    page.get_by_role("button", name="Start the game night").click()
    page.wait_for_url(re.compile(r"/nights/\d+$"))


def create_game(
    page: Page, names: Sequence[str], set_size: int = 9, rules: dict[str, str] | None = None
) -> str:
    """From a night's page, create a game of ``names`` typed as new names, seated in the order
    given, with the standard house rules changed by ``rules`` (switch name -> option value).
    People seen before that the page ticks (the night's last table) are unticked first.
    Returns the edit token (the page ends on the game)."""
    page.get_by_role("link", name="New game").click()
    page.wait_for_url(re.compile(r"/games/new$"))
    for box in page.locator("input[name^='known-'][name$='-plays']").all():
        box.uncheck()
    rows = "input[name^='new-'][name$='-name']"
    while (shown := page.locator(rows).count()) < len(names):
        page.get_by_role("button", name="More name rows").click()
        # Wait for the new rows (a page load, or an htmx swap) before counting again: counting
        # the old page and clicking again raced with the reload on a loaded machine.
        page.wait_for_function(
            "([sel, n]) => document.querySelectorAll(sel).length > n", arg=[rows, shown]
        )
    for i, name in enumerate(names):
        page.locator(f"input[name='new-{i}-name']").fill(name)
        page.locator(f"input[name='new-{i}-seat']").fill(str(i + 1))
    if set_size != 9:
        page.locator("select[name='set_size']").select_option(str(set_size))
    expect(page.locator("select[name='preset']")).to_have_value("standard")
    if rules:
        page.locator("details.house-rules summary").click()
        for name, value in rules.items():
            page.locator(f"select[name='rules-{name}']").select_option(value)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    return page.url.rsplit("/", 1)[1]


def hand(page: Page, name: str):
    """The fieldset of ``name``'s hand in the round form."""
    return page.locator("fieldset.hand").filter(
        has=page.locator("legend", has_text=re.compile(rf"^{re.escape(name)}$"))
    )


def expect_round(page: Page, k: int, n: int = 10) -> None:
    """Wait until the game page offers round ``k`` of ``n``."""
    expect(page.locator("#round-title")).to_have_text(f"Round {k} of {n}")


def type_round(page: Page, names: Sequence[str], scores: dict[int, int | None]) -> None:
    """Fill the round form: typed points, or "went out" for the player whose score is None."""
    for i, name in enumerate(names):
        if scores[i] is None:
            hand(page, name).get_by_label("Went out").check()
        else:
            page.get_by_label(f"Points for {name}").fill(str(scores[i]))


def save_round(page: Page) -> None:
    """Press "Save round" (an htmx post that swaps #game, or a plain post without htmx)."""
    page.get_by_role("button", name="Save round").click()


def board_rows(page: Page) -> list[tuple[str, str, str]]:
    """The scoreboard's rows, top to bottom: (rank, full name, total)."""
    rows = page.locator("#scoreboard tbody.player")
    out = []
    for i in range(rows.count()):
        row = rows.nth(i)
        out.append(
            (
                row.locator(".rank").inner_text().strip(),
                row.locator("th.who .name").inner_text().strip(),
                row.locator("td.tot").inner_text().strip(),
            )
        )
    return out


def player_row(page: Page, name: str):
    """``name``'s row group on the scoreboard (name line and round scores)."""
    exact = page.locator("th.who .name", has_text=re.compile(rf"^{re.escape(name)}$"))
    return page.locator("#scoreboard tbody.player", has=exact)


def expect_final_standings(page: Page, dede_total: int = 135) -> None:
    """The finished typed/tapped game: Ana wins over Bjørn (both 60) by most zero rounds."""
    finish = page.locator("section.finish")
    # one "Game over" heading whether the last round was saved by htmx or the page reloaded
    expect(page.get_by_role("heading", name="Game over", exact=True)).to_have_count(1)
    expect(finish.locator(".winner")).to_have_text("Ana wins!")
    expect(finish).to_contain_text("Decided by: most zero rounds.")
    assert board_rows(page) == [
        ("1", "Ana", "60"),
        ("2", "Bjørn", "60"),
        ("3", "Chen", "96"),
        ("4", "Dédé", str(dede_total)),
    ]
    expect(page.locator("#scoreboard .ties")).to_contain_text(
        "Ana is ahead of Bjørn, both on 60 points, by most zero rounds."
    )
    summary = finish.locator("table.summary tbody")  # one row group per player
    expect(summary).to_have_count(4)
    expect(summary.nth(0)).to_contain_text("1. Ana")
    expect(summary.nth(0).locator("td").nth(1)).to_have_text("4")  # zero rounds
    expect(summary.nth(1)).to_contain_text("2. Bjørn")
    expect(summary.nth(1).locator("td").nth(1)).to_have_text("3")
    # the latest round columns headed by their doubles; the earlier ones a tap away, 9-9 first
    heads = page.locator("#scoreboard thead th.rd")
    expect(heads).to_have_text([f"{d}-{d}" for d in DOUBLES[-BOARD_COLUMNS:]])
    page.get_by_role("link", name="◀ Earlier rounds").click()
    expect(heads).to_have_text([f"{d}-{d}" for d in DOUBLES[:BOARD_COLUMNS]])
    page.get_by_role("link", name="Later rounds ▶").click()
    expect(heads.last).to_have_text("0-0")


# --- a. a whole game by typed totals ---------------------------------------------------------


def test_whole_game_by_typed_totals(phone: Page, shot) -> None:
    csp = watch_csp(phone)
    start_night(phone)
    create_game(phone, PLAYERS)
    shot(phone, "scorekeeper-typed-start")
    for k, scores in enumerate(round_scores(), start=1):
        expect_round(phone, k)
        expect(phone.locator(".centre-name")).to_have_text(
            f"Centre double: {DOUBLES[k - 1]}-{DOUBLES[k - 1]}"
        )
        type_round(phone, PLAYERS, scores)
        save_round(phone)
        expect(phone.locator("#scoreboard thead th.rd")).to_have_count(min(k, BOARD_COLUMNS))
        if k == 5:
            shot(phone, "scorekeeper-typed-midgame")
    expect(phone.locator("section.finish")).to_be_visible()
    expect(phone.locator("#round-title")).to_have_count(0)
    expect_final_standings(phone)
    shot(phone, "scorekeeper-typed-finished")
    phone.locator("#scoreboard").screenshot(
        path=str(ARTIFACTS / "scorekeeper-typed-board.png"), caret="initial"
    )
    assert csp == []


# --- b. a whole game mostly by tapping tiles ---------------------------------------------------

#: tiles tapped per round (rounds 1-4, Ana goes out in each) for Bjørn, Chen and Dédé; their
#: points under the standard rules (0-0 counts 50, a blank half 0) and the same totals as the
#: typed game, except Dédé's first hand (0-0 and 3-2 = 55 points instead of 15)
TAPPED = [
    {1: ["5-3"], 2: ["6-6"], 3: ["0-0", "3-2"]},
    {1: ["4-4"], 2: ["9-3"], 3: ["9-6"]},
    {1: ["6-2"], 2: ["7-1", "4-0"], 3: ["8-7"]},
    {1: ["5-4"], 2: ["8-4"], 3: ["9-4", "2-0"]},
]
#: the live sums the picker shows for those hands (each tile's points come from the engine)
TAPPED_SUMS = [
    {1: (1, 8), 2: (1, 12), 3: (2, 55)},
    {1: (1, 8), 2: (1, 12), 3: (1, 15)},
    {1: (1, 8), 2: (2, 12), 3: (1, 15)},
    {1: (1, 9), 2: (1, 12), 3: (2, 15)},
]


#: a player's round cells on the scoreboard (their second line: points, running total below)
ROUND_POINTS = "tr:nth-child(2) > td"


def seat_id(page: Page, name: str) -> str:
    """The seat id behind ``name``'s fields (``total_<id>``)."""
    field = page.get_by_label(f"Points for {name}").get_attribute("name") or ""
    return field.removeprefix("total_")


def tap_tiles(page: Page, name: str, tiles: Sequence[str]) -> None:
    """Open ``name``'s tile picker (its button fetches it; htmx or, without JavaScript, the
    same page with that picker open) and tap each tile (the label around its checkbox)."""
    opener = hand(page, name).locator("button.picker-open")
    if opener.count():
        opener.click()
    box = hand(page, name).locator("details.picker-box")
    expect(box).to_have_count(1)
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    for text in tiles:
        box.locator(f"label.pick:has(input[value='{text}'])").click()
        expect(box.locator(f"input[value='{text}']")).to_be_checked()


def test_whole_game_by_tapping_tiles(phone: Page, shot) -> None:
    csp = watch_csp(phone)
    start_night(phone)
    create_game(phone, PLAYERS)
    typed = round_scores()
    for k in range(1, 11):
        expect_round(phone, k)
        if k <= len(TAPPED):
            hand(phone, "Ana").get_by_label("Went out").check()
            for p, tiles in TAPPED[k - 1].items():
                tap_tiles(phone, PLAYERS[p], tiles)
                n, points = TAPPED_SUMS[k - 1][p]
                sid = seat_id(phone, PLAYERS[p])
                words = f"{n} tiles" if n > 1 else "1 tile"
                expect(phone.locator(f"output.picked-sum[data-for='tiles_{sid}']")).to_have_text(
                    f"{words}: {points} points"
                )
            if k == 1:
                # a tile in one hand is greyed out in the others' pickers (score.js)
                chen = hand(phone, "Chen").locator("input[value='5-3']")
                expect(chen).to_be_disabled()
                # the centre double is not on the picker at all
                expect(phone.locator("fieldset.picker input[value='9-9']")).to_have_count(0)
                shot(phone, "scorekeeper-tapped-round1")
        else:
            type_round(phone, PLAYERS, typed[k - 1])
        save_round(phone)
        expect(phone.locator("#scoreboard thead th.rd")).to_have_count(min(k, BOARD_COLUMNS))
        if k == 1:
            # the engine scored the tapped hands: Dédé's 0-0 counts 50 (standard rules)
            dede = player_row(phone, "Dédé")
            expect(dede.locator(ROUND_POINTS)).to_have_text([re.compile(r"^55 ")])
            bjorn = player_row(phone, "Bjørn")
            expect(bjorn.locator(ROUND_POINTS)).to_have_text([re.compile(r"^8 ")])
    expect_final_standings(phone, dede_total=175)
    shot(phone, "scorekeeper-tapped-finished")
    # the tapped tiles are kept with the round: correcting round 1 shows them ticked again
    phone.get_by_role("link", name="9-9", exact=True).click()
    expect(phone.locator("#round-title")).to_have_text("Correct the round with 9-9")
    expect(hand(phone, "Dédé").locator("input[value='0-0']")).to_be_checked()
    expect(hand(phone, "Dédé").locator("input[value='3-2']")).to_be_checked()
    assert csp == []


# --- c. htmx from the local copy when the CDN is blocked ---------------------------------------


def test_htmx_falls_back_to_local_copy_when_cdn_blocked(phone: Page) -> None:
    refused: list[str] = []

    def refuse(route) -> None:
        refused.append(route.request.url)
        route.abort("internetdisconnected")

    phone.route("https://cdn.jsdelivr.net/**", refuse)
    local: list[int] = []
    phone.on(
        "response",
        lambda r: local.append(r.status) if "/static/vendor/htmx.min.js?v=" in r.url else None,
    )
    start_night(phone)
    create_game(phone, PLAYERS)
    assert phone.evaluate("typeof window.htmx") == "object"
    assert refused and all("htmx.org@" in u for u in refused)
    assert 200 in local or 304 in local
    # an htmx-enhanced action: saving a round swaps #game in place, without a page load
    phone.evaluate("window.__sameDocument = true")
    requests: list[dict] = []
    phone.on("request", lambda r: requests.append(r.headers) if r.method == "POST" else None)
    type_round(phone, PLAYERS, round_scores()[0])
    save_round(phone)
    expect_round(phone, 2)
    expect(phone.locator("#scoreboard thead th.rd")).to_have_text(["9-9"])
    assert phone.evaluate("window.__sameDocument") is True
    assert requests and requests[-1].get("hx-request") == "true"
    # the swapped-in fragment's one-button forms carry the game's new version: undo works
    # (after its "Undo this change?" question, static/js/app.js)
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Undo the last change").click()
    expect(phone.locator(".flashes")).to_contain_text("Undone: Round 1 (9-9) saved")
    expect_round(phone, 1)
    expect(phone.locator("#scoreboard thead th.rd")).to_have_count(0)


# --- d. everything with JavaScript off ---------------------------------------------------------


def test_create_and_score_without_javascript(browser, playwright, live_server, shot) -> None:
    context = browser.new_context(
        java_script_enabled=False, base_url=live_server.url, **playwright.devices["Pixel 7"]
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        start_night(page)
        token = create_game(page, ["Eva", "Finn", "Gus", "Hana", "Ivo"])
        expect_round(page, 1)
        # a refused round shows the message and keeps what was typed (plain post, 422)
        page.get_by_label("Points for Eva").fill("12")
        page.get_by_role("button", name="Save round").click()
        expect(page.locator(".flash.error, .errors").first).to_be_visible()
        expect(
            page.get_by_text("Mark who went out, or that the round was blocked.")
        ).to_be_visible()
        expect(page.get_by_label("Points for Eva")).to_have_value("12")
        # now a complete round: Finn went out, Gus by tapped tiles (details open without JS)
        hand(page, "Finn").get_by_label("Went out").check()
        page.get_by_label("Points for Gus").fill("")
        tap_tiles(page, "Gus", ["0-0", "1-0"])
        page.get_by_label("Points for Hana").fill("7")
        page.get_by_label("Points for Ivo").fill("0")
        page.get_by_role("button", name="Save round").click()
        # Ivo did not go out, so 0 is refused (he would still hold tiles)
        expect(page.get_by_text(re.compile("Ivo: 0 points means no tiles left"))).to_be_visible()
        page.get_by_label("Points for Ivo").fill("20")
        page.get_by_role("button", name="Save round").click()
        page.wait_for_url(re.compile(rf"/g/{token}$"))  # redirect after post
        expect_round(page, 2)
        cells = {
            name: player_row(page, name).locator("td.tot").inner_text()
            for name in ["Eva", "Finn", "Gus", "Hana", "Ivo"]
        }
        assert cells == {"Eva": "12", "Finn": "0", "Gus": "51", "Hana": "7", "Ivo": "20"}
        # undo is a plain post too
        page.get_by_role("button", name="Undo the last change").click()
        expect_round(page, 1)
        expect(page.locator(".flashes")).to_contain_text("Undone")
        shot(page, "scorekeeper-nojs")
    finally:
        context.close()


# --- e. accessibility of every main page, light and dark ---------------------------------------


class Pages(dict):
    """Page name -> path, and ``state``: the cookies of the phone that keeps score for them
    (scorekeeping belongs to that phone, so the pages are visited as it)."""

    state: dict


@pytest.fixture(scope="module")
def main_pages(browser, playwright, live_server) -> Pages:
    """The main pages of the score keeper as paths: a finished game and one in play (2 rounds)."""
    context = browser.new_context(base_url=live_server.url, **playwright.devices["Pixel 7"])
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        start_night(page)
        night = page.url.removeprefix(live_server.url)
        done = create_game(page, PLAYERS)
        for k, scores in enumerate(round_scores(), start=1):
            type_round(page, PLAYERS, scores)
            save_round(page)
            expect(page.locator("#scoreboard thead th.rd")).to_have_count(min(k, BOARD_COLUMNS))
        page.goto(night)
        playing = create_game(page, ["Jo", "Kim", "Lou"])
        for k, scores in enumerate(round_scores()[:2], start=1):
            type_round(page, ["Jo", "Kim", "Lou"], scores)
            save_round(page)
            expect(page.locator("#scoreboard thead th.rd")).to_have_count(min(k, BOARD_COLUMNS))
        share = page.get_by_role("link", name="Read-only scoreboard").get_attribute("href")
        state = context.storage_state()
    finally:
        context.close()
    pages = Pages(
        {
            "home": "/",
            "new-night": "/nights/new",
            "night": night,
            "new-game": f"{night}/games/new",
            "game": f"/g/{playing}",
            "correct-round": f"/g/{playing}/round/1",
            "share": f"/g/{playing}/share",
            "scoreboard": share or "",
            "audit": f"/g/{playing}/audit",
            "finished": f"/g/{done}",
            "delete": f"/g/{playing}/delete",
        }
    )
    pages.state = state
    return pages


def describe(violations: list[dict]) -> str:
    """Axe violations as readable lines: rule, impact, help, and the first offending nodes."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v.get('impact')}): {v['help']}")
        for node in v.get("nodes", [])[:4]:
            lines.append(f"    {node.get('target')}: {node.get('failureSummary', '')[:300]}")
    return "\n".join(lines)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_main_pages_have_no_axe_violations(
    browser, playwright, live_server, main_pages, axe_violations, shot, scheme
) -> None:
    context = browser.new_context(
        base_url=live_server.url,
        color_scheme=scheme,
        storage_state=main_pages.state,
        **playwright.devices["Pixel 7"],
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    found = {}
    try:
        assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
        for name, path in main_pages.items():
            response = page.goto(path)
            assert response is not None and response.ok, (name, path)
            violations = axe_violations(page)
            if violations:
                found[name] = violations
            if name in {"game", "finished", "scoreboard"}:
                page.evaluate("window.scrollTo(0, 0)")
                shot(page, f"scorekeeper-{name}-{scheme}")
    finally:
        context.close()
    report = "\n".join(f"== {name} ({scheme})\n{describe(v)}" for name, v in found.items())
    print(report)
    assert not found, report


# --- f. the scoreboard of 8 players at 360 px, and touch targets ------------------------------

#: 8 players with long names (the scoreboard shortens them)
EIGHT = [
    "Alexandrina",
    "Bartholomew",
    "Christabel",
    "Dmitri",
    "Evangelina",
    "Fitzgerald",
    "Gwen",
    "Hiroshi",
]
SMALL_PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}


def test_scoreboard_of_eight_players_fits_360px(browser, live_server, shot) -> None:
    context = browser.new_context(base_url=live_server.url, **SMALL_PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        start_night(page)
        # seven tiles each cannot be dealt to 8 players from double-9: use the 5-each table
        create_game(page, EIGHT, rules={"hand_size_rule": "gamerules_table"})
        for k, double in enumerate(DOUBLES, start=1):
            expect_round(page, k)
            out = (k - 1) % len(EIGHT)
            scores = {i: None if i == out else 40 + 7 * i + double for i in range(len(EIGHT))}
            type_round(page, EIGHT, scores)
            save_round(page)
            expect(page.locator("#scoreboard thead th.rd")).to_have_count(min(k, BOARD_COLUMNS))
        expect(page.locator("section.finish")).to_be_visible()
        totals = page.locator("#scoreboard td.tot").all_inner_texts()
        assert len(totals) == 8 and all(len(t.strip()) == 3 for t in totals), totals
        pages = {
            "game": page.url,
            "scoreboard": page.get_by_role("link", name="Read-only scoreboard").get_attribute(
                "href"
            ),
        }
        for name, url in pages.items():
            page.goto(url)
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, f"scorekeeper-eight-360px-{name}")
            fits = page.evaluate(
                """() => {
                  const board = document.querySelector('#scoreboard');
                  const table = board.querySelector('table');
                  const phone = document.documentElement.clientWidth;  // conftest.PHONE_WIDTH
                  const overflowing = Array.from(document.querySelectorAll('main table'))
                    .filter(t => t.getBoundingClientRect().right
                                 > t.parentElement.getBoundingClientRect().right + 0.5)
                    .map(t => t.className + ': ' + t.getBoundingClientRect().right + ' > '
                              + t.parentElement.getBoundingClientRect().right);
                  return {
                    tables: overflowing,
                    page: document.documentElement.scrollWidth <= phone,
                    board: board.scrollWidth <= board.clientWidth,
                    table: table.getBoundingClientRect().right <= phone,
                    widths: [document.documentElement.scrollWidth, phone,
                             board.scrollWidth, board.clientWidth,
                             table.getBoundingClientRect().right],
                  };
                }"""
            )
            assert fits["page"] and fits["board"] and fits["table"], (name, fits)
            assert fits["tables"] == [], (name, fits)  # e.g. the end-of-game summary
            # the latest round columns (earlier ones a tap away) and every player are on the board
            expect(page.locator("#scoreboard thead th.rd")).to_have_count(BOARD_COLUMNS)
            expect(page.locator("#scoreboard tbody.player")).to_have_count(8)
    finally:
        context.close()


#: what a thumb taps on the game page (checkboxes are tapped through their labels)
TARGETS = (
    "a, button, summary, select, input:not([type=hidden]):not([type=checkbox]),"
    " label.went-out, label.check, label.pick"
)


def test_game_page_touch_targets_are_thumb_sized(phone: Page) -> None:
    start_night(phone)
    create_game(phone, PLAYERS)
    type_round(phone, PLAYERS, round_scores()[0])
    save_round(phone)
    expect_round(phone, 2)
    hand(phone, "Bjørn").locator("button.picker-open").click()  # one tile picker open
    expect(hand(phone, "Bjørn").locator("label.pick")).to_have_count(54)
    small = phone.evaluate(
        """(selector) => Array.from(document.querySelectorAll(selector))
          .filter(el => el.offsetParent !== null && !el.closest('.vh, .skip'))
          .map(el => [el.tagName.toLowerCase() + (el.className ? '.' + el.className : ''),
                      (el.innerText || el.value || el.name || '').trim().slice(0, 30),
                      Math.round(el.getBoundingClientRect().height * 10) / 10])
          .filter(([, , h]) => h < 44)""",
        TARGETS,
    )
    assert small == [], small


# --- the table's other phones: live read-only scoreboard, two scorekeepers ---------------------


def test_read_only_scoreboard_follows_and_second_phone_cannot_save_twice(
    browser, playwright, live_server, phone: Page
) -> None:
    start_night(phone)
    token = create_game(phone, PLAYERS)
    share = phone.get_by_role("link", name="Read-only scoreboard").get_attribute("href") or ""
    other = browser.new_context(base_url=live_server.url, **playwright.devices["Pixel 7"])
    other.set_default_timeout(10_000)
    try:
        viewer = other.new_page()
        viewer.goto(share)
        expect(viewer.locator("#scoreboard thead th.rd")).to_have_count(0)
        expect(viewer.locator("main form")).to_have_count(0)  # read only (the top bar: language)
        # a second scorekeeper phone (added on purpose) has the same round 1 open
        second = other.new_page()
        second.goto(f"/g/{token}")
        second.get_by_role("button", name="Make this phone the scorekeeper").click()
        phone.reload()
        phone.get_by_role("button", name="Add it as a second scorekeeper").click()
        second.goto(f"/g/{token}")
        type_round(second, PLAYERS, round_scores()[0])
        type_round(phone, PLAYERS, round_scores()[0])
        save_round(phone)
        expect_round(phone, 2)
        # the viewer's scoreboard refreshes by itself (htmx polling), without a reload
        viewer.evaluate("window.__sameDocument = true")
        expect(viewer.locator("#scoreboard thead th.rd")).to_have_text(["9-9"], timeout=15_000)
        assert viewer.evaluate("window.__sameDocument") is True
        # the second phone's save of the same round is refused and shows what was saved
        save_round(second)
        expect(second.get_by_text("This round was already saved on another phone")).to_be_visible()
        expect(second.locator("section.saved")).to_contain_text("Bjørn: 8")
        expect(phone.locator("#scoreboard thead th.rd")).to_have_count(1)
        phone.reload()
        expect(phone.locator("#scoreboard thead th.rd")).to_have_text(["9-9"])
    finally:
        other.close()


# --- g. the scoreboard's numerals and names at phone sizes -----------------------------------

#: long names, two pairs alike at the start (the scoreboard used to cut them to "Chri…")
LONG_NAMES = [
    "Christabel",
    "Christopher",
    "Alexandrina Constantinopolous",
    "Alexander",
    "Bartholomew",
    "Evangelina",
    "Fitzgerald",
    "Hiroshi",
]


def board_points(names: Sequence[str], rounds: int) -> list[dict[str, int]]:
    """Round scores of 4 to 95 points, one player going out per round: 3-digit totals after
    10 rounds for all but the leaders."""
    return [
        {n: 0 if i == k % len(names) else 4 + 9 * i + 3 * k for i, n in enumerate(names)}
        for k in range(rounds)
    ]


BOARD_MEASURES = """() => {
  const board = document.querySelector('#scoreboard');
  const px = el => parseFloat(getComputedStyle(el).fontSize);
  const clipped = el => el.scrollWidth > el.clientWidth + 0.5;
  const rounds = 'tbody.player > tr:nth-child(2) > td';
  const cells = Array.from(board.querySelectorAll(rounds + ', td.tot, th.rd'));
  return {
    scrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth
             || board.scrollWidth > board.clientWidth,
    names: Array.from(board.querySelectorAll('tbody th.who'))
      .map(th => [th.querySelector('.name').innerText, clipped(th)]),
    clippedCells: cells.filter(clipped).map(el => el.className + ': ' + el.innerText),
    total: Math.min(...Array.from(board.querySelectorAll('td.tot')).map(px)),
    rank: Math.min(...Array.from(board.querySelectorAll('.rank')).map(px)),
    points: Math.min(...Array.from(board.querySelectorAll(rounds)).map(px)),
  };
}"""


@pytest.mark.parametrize("width,height", [(360, 740), (412, 915)])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_scoreboard_shows_whole_names_and_large_numerals(
    browser, live_server, shot, width, height, scheme
) -> None:
    """2, 4 and 8 players after 2 and 10 rounds: every full name readable, the totals and ranks
    at least 20 px, round scores at least 14 px (10 rounds at 360 px is the tightest), nothing
    clipped and no sideways scrolling."""
    from tests.web.playkit import add_scored_rounds, make_game

    games = {}
    with live_server.app.app_context():
        for players in (2, 4, 8):
            for rounds in (2, 10):
                names = tuple(LONG_NAMES[:players])
                game = make_game(names=names, set_size=9, hand_size_rule="gamerules_table")
                add_scored_rounds(game, board_points(names, rounds))
                games[players, rounds] = (names, game.share_token, game.edit_token)
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        color_scheme=scheme,
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        for (players, rounds), (names, share, _edit) in games.items():
            page.goto(f"/s/{share}")
            found = page.evaluate(BOARD_MEASURES)
            label = (players, rounds, width, scheme, found)
            assert not found["scrolls"], label
            assert sorted(n for n, _ in found["names"]) == sorted(names), label
            assert not any(cut for _, cut in found["names"]), label
            assert found["clippedCells"] == [], label
            assert found["total"] >= 20 and found["rank"] >= 20, label
            assert found["points"] >= (18 if rounds == 2 else 14), label
            shot(page, f"board-{players}p-{rounds}r-{width}-{scheme}")
        names, share, edit = games[8, 10]
        page.goto(f"/g/{edit}")
        expect(page.get_by_role("heading", name="Game over", exact=True)).to_have_count(1)
        assert not page.evaluate(BOARD_MEASURES)["scrolls"]
        shot(page, f"board-finished-8p-{width}-{scheme}")
    finally:
        context.close()


def test_scoreboard_of_twelve_players_on_double_18_clips_no_digit(browser, live_server, shot):
    """19 round columns and 4-digit running totals at 360 px: small numerals, but every digit
    shown (a clipped digit would read as another number) and no sideways scrolling."""
    from tests.web.playkit import add_scored_rounds, make_game

    names = (*LONG_NAMES, "Ina", "Jo", "Kwame", "Lu")
    points = [
        {n: 0 if i == k % len(names) else 40 + 5 * i + 2 * k for i, n in enumerate(names)}
        for k in range(19)
    ]
    with live_server.app.app_context():
        game = make_game(names=names, set_size=18, hand_size_rule="gamerules_table")
        add_scored_rounds(game, points)
        share = game.share_token
    context = browser.new_context(base_url=live_server.url, **SMALL_PHONE)
    page = context.new_page()
    try:
        page.goto(f"/s/{share}")
        found = page.evaluate(BOARD_MEASURES)
        assert not found["scrolls"] and found["clippedCells"] == [], found
        assert found["total"] >= 20 and found["rank"] >= 20, found
        # four digits, grouped as the language writes a thousand ("1,700")
        running = page.locator(
            "#scoreboard tbody.player > tr:nth-child(2) > td small"
        ).all_inner_texts()
        assert max(len(re.sub(r"\D", "", t)) for t in running) == 4
        assert all(re.fullmatch(r"\d{1,3}|\d,\d{3}", t) for t in running), running
        shot(page, "board-12p-double-18-360")
    finally:
        context.close()


# --- what a phone shows after a failed or a successful save; undo; rematch -------------------

NOT_SAVED = "Not saved — check the connection and tap Save again. Your entries are still here."
#: what a round form says when its save failed and the outbox keeps the entry: only that (the
#: "Not saved — tap Save again" beside it contradicted the outbox card above), in the card's
#: own words ("Kept on this phone as well" read oddly: as well as what?)
KEPT = "Waiting to be sent: kept on this phone and sent by itself when the connection is back."


def test_network_failure_says_not_saved_and_keeps_entries(phone: Page, live_server) -> None:
    open_new_game(phone, live_server)
    fill_round(phone)
    phone.route("**/round*", lambda route: route.abort("internetdisconnected"))
    phone.get_by_role("button", name="Save round").click()
    status = phone.locator(".round-form .save-status")
    expect(status).to_contain_text(KEPT)
    expect(status).not_to_contain_text(NOT_SAVED)
    expect(phone.locator("#outbox .outbox-entry")).to_contain_text("Waiting to be sent")
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
    lose_session_cookie(phone)
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
    expect(phone.locator(".round-form .save-status")).to_contain_text(KEPT)
    expect(phone.locator(".round-form .save-status")).not_to_contain_text(NOT_SAVED)
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
    with phone.expect_request(lambda r: r.method == "POST" and r.url.endswith("/round")):
        phone.get_by_role("button", name="Save round").click()
    expect(phone.get_by_role("button", name="Save round")).to_be_disabled()
    expect(phone.locator(".round-form .saving")).to_be_visible()
    assert held, "the save request was not held"
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

    undo_posts: list[str] = []
    phone.on("request", lambda r: undo_posts.append(r.url) if r.url.endswith("/undo") else None)
    phone.once("dialog", lambda d: answer(d, False))
    phone.get_by_role("button", name="Undo the last change").click()
    expect(phone.locator("#round-title")).to_have_text("Round 2 of 7")
    assert questions and questions[0].startswith("Undo this change? Round 1 (6-6) saved:")
    phone.once("dialog", lambda d: answer(d, True))
    phone.get_by_role("button", name="Undo the last change").click()
    expect(phone.locator(".flashes")).to_contain_text("Undone: Round 1 (6-6) saved")
    # the page reached the undone state after one post: the cancelled tap sent nothing
    assert len(undo_posts) == 1 and len(questions) == 2
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
