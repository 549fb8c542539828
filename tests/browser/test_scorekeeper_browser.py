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
from playwright.sync_api import Page, expect

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


def start_night(page: Page) -> None:
    """From the home page, start a game night for today; ends on the night's page."""
    page.goto("/")
    page.get_by_role("link", name="Start a game night").click()
    page.get_by_role("button", name="Start the game night").click()
    page.wait_for_url(re.compile(r"/nights/\d+$"))


def create_game(page: Page, names: Sequence[str], set_size: int = 9) -> str:
    """From a night's page, create a game of new players seated in the order given, with the
    standard house rules. Returns the edit token (the page ends on the game)."""
    page.get_by_role("link", name="New game").click()
    page.wait_for_url(re.compile(r"/games/new$"))
    while page.locator("input[name^='new-'][name$='-name']").count() < len(names):
        page.get_by_role("button", name="More name rows").click()
    for i, name in enumerate(names):
        page.locator(f"input[name='new-{i}-name']").fill(name)
        page.locator(f"input[name='new-{i}-seat']").fill(str(i + 1))
    if set_size != 9:
        page.locator("select[name='set_size']").select_option(str(set_size))
    expect(page.locator("select[name='preset']")).to_have_value("standard")
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
    rows = page.locator("#scoreboard tbody tr")
    out = []
    for i in range(rows.count()):
        row = rows.nth(i)
        out.append(
            (
                row.locator(".rank").inner_text().strip(),
                row.locator("th.who").get_attribute("title") or "",
                row.locator("td.tot").inner_text().strip(),
            )
        )
    return out


def expect_final_standings(page: Page) -> None:
    """The finished typed/tapped game: Ana wins over Bjørn (both 60) by most zero rounds."""
    finish = page.locator("section.finish")
    expect(finish.locator(".winner")).to_have_text("Ana wins!")
    expect(finish).to_contain_text("Decided by: most zero rounds.")
    assert board_rows(page) == [
        ("1", "Ana", "60"),
        ("2", "Bjørn", "60"),
        ("3", "Chen", "96"),
        ("4", "Dédé", "135"),
    ]
    expect(page.locator("#scoreboard .ties")).to_contain_text(
        "Ana is ahead of Bjørn, both on 60 points, by most zero rounds."
    )
    summary = finish.locator("table.summary tbody tr")
    expect(summary).to_have_count(4)
    expect(summary.nth(0)).to_contain_text("1. Ana")
    expect(summary.nth(0).locator("td").nth(1)).to_have_text("4")  # zero rounds
    expect(summary.nth(1)).to_contain_text("2. Bjørn")
    expect(summary.nth(1).locator("td").nth(1)).to_have_text("3")
    # ten round columns headed by their doubles, 9-9 first
    heads = page.locator("#scoreboard thead th.rd")
    expect(heads).to_have_text([f"{d}-{d}" for d in DOUBLES])


# --- a. a whole game by typed totals ---------------------------------------------------------


def test_whole_game_by_typed_totals(phone: Page, shot) -> None:
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
        expect(phone.locator("#scoreboard thead th.rd")).to_have_count(k)
        if k == 5:
            shot(phone, "scorekeeper-typed-midgame")
    expect(phone.locator("section.finish")).to_be_visible()
    expect(phone.locator("#round-title")).to_have_count(0)
    expect_final_standings(phone)
    shot(phone, "scorekeeper-typed-finished")
    phone.locator("#scoreboard").screenshot(path=str(ARTIFACTS / "scorekeeper-typed-board.png"))
