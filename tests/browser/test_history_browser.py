"""The history pages on a phone (Pixel 7): the nights list, a game page with its chart, a
player page; screenshots in test-artifacts/history-*.png and no axe violations."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import LiveServer, serve_app
from tests.history.fixture import History, build

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def _offline_cdn(phone: Page) -> None:
    """No network here: the CDN copy of htmx fails fast and the local fallback loads."""
    phone.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    """A server of this module's own: the fixture history's players must be new names (a name
    is unique), and its statistics must count only the fixture's games."""
    with serve_app() as server:
        yield server


@pytest.fixture(scope="module")
def seeded(live_server) -> History:
    """The hand-checked fixture history in this module's own live server (once per module)."""
    with live_server.app.app_context():
        return build(merged=True)


def assert_no_axe(violations: list[dict]) -> None:
    assert violations == [], [
        (v["id"], [n.get("target") for n in v.get("nodes", [])]) for v in violations
    ]


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"


def test_nights_list(phone: Page, seeded: History, shot, axe_violations) -> None:
    phone.goto("/history/?q=valentine")
    expect(phone.get_by_text("Winner: Bob (by next-lowest non-zero round)")).to_be_visible()
    # Other browser tests add nights of their own (dated today): look at the fixture's months.
    phone.goto("/history/?date_from=2026-01-01&date_to=2026-04-30")
    expect(phone.get_by_role("heading", name="Game nights", level=1)).to_be_visible()
    expect(phone.get_by_text("Shared win: Ann, Bob")).to_be_visible()
    no_horizontal_scroll(phone)
    shot(phone, "history-nights")
    assert_no_axe(axe_violations(phone))
    # The search form opens and filters by date.
    phone.goto("/history/")
    phone.get_by_text("Search and filter").click()
    phone.get_by_label("From", exact=True).fill("2026-03-01")
    phone.get_by_label("To", exact=True).fill("2026-03-31")
    phone.get_by_role("button", name="Search").click()
    expect(phone.get_by_text("Winner: Ann")).to_be_visible()
    expect(phone.get_by_text("Shared win: Ann, Bob")).to_have_count(0)
    shot(phone, "history-nights-search")
    assert_no_axe(axe_violations(phone))


def test_game_page_with_chart(phone: Page, seeded: History, shot, axe_violations) -> None:
    phone.goto(f"/history/games/{seeded.games['G1']}")
    chart = phone.locator("svg.chart-svg")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(3)
    box = chart.bounding_box()
    assert box is not None and box["width"] <= 412 and box["height"] > 150
    expect(phone.locator("#chart-desc")).to_have_text("Final totals: Ann 20; Bob 20; Cy 12.")
    expect(phone.get_by_text("Winner: Cy")).to_be_visible()
    no_horizontal_scroll(phone)
    shot(phone, "history-game")
    assert_no_axe(axe_violations(phone))
    # The narrowest phones the app is designed for: 360 px, still no sideways scrolling.
    phone.set_viewport_size({"width": 360, "height": 740})
    no_horizontal_scroll(phone)
    assert chart.bounding_box()["width"] <= 360
    shot(phone, "history-game-360")
    # The read-only scoreboard link, never the edit link.
    href = phone.get_by_role("link", name="Live scoreboard (read-only)").get_attribute("href")
    assert href and href.startswith("/s/")


def test_game_page_of_a_house_rules_game(phone: Page, seeded: History, shot, axe_violations):
    phone.goto(f"/history/games/{seeded.games['G3']}")
    rule = "Ends the round but scores 50, and is not a zero round."
    expect(phone.get_by_text(rule, exact=True).first).to_be_visible()
    no_horizontal_scroll(phone)
    shot(phone, "history-game-house-rules")
    assert_no_axe(axe_violations(phone))


def test_player_page(phone: Page, seeded: History, shot, axe_violations) -> None:
    phone.goto(f"/history/players/{seeded.players['Ann']}")
    expect(phone.get_by_role("heading", name="Ann", level=1)).to_be_visible()
    stats = phone.locator("dl.stats").first  # the record; the rating has its own list
    expect(stats).to_contain_text("Games4")
    expect(stats).to_contain_text("Win rate25%")
    no_horizontal_scroll(phone)
    shot(phone, "history-player")
    assert_no_axe(axe_violations(phone))
    phone.get_by_role("link", name="Leaderboard").click()
    expect(phone.get_by_role("heading", name="Leaderboard")).to_be_visible()
    no_horizontal_scroll(phone)
    shot(phone, "history-leaderboard")
    assert_no_axe(axe_violations(phone))


def test_rename_and_night_delete_undo(phone: Page, seeded: History, shot, axe_violations):
    phone.goto(f"/history/players/{seeded.players['Dee']}")
    phone.get_by_label("New name").fill("Bob")
    phone.get_by_role("button", name="Rename").click()
    # The reason is both in the message at the top (in view) and next to the field.
    expect(phone.locator(".flash.error")).to_contain_text("Another player is already called Bob.")
    expect(phone.get_by_role("listitem").filter(has_text="already called Bob")).to_be_visible()
    phone.goto(f"/history/nights/{seeded.nights['N1']}")
    expect(phone.get_by_text("9-3 may be laid on a spoke of the 9-9.")).to_be_visible()
    no_horizontal_scroll(phone)
    shot(phone, "history-night")
    assert_no_axe(axe_violations(phone))
    phone.goto(f"/history/nights/{seeded.nights['N3']}")
    phone.get_by_role("link", name="Delete this game night…").click()
    expect(phone.get_by_role("heading", name="Delete this game night?")).to_be_visible()
    phone.get_by_role("button", name="Delete the game night").click()
    expect(phone.get_by_role("heading", name="Game night deleted")).to_be_visible()
    shot(phone, "history-night-deleted")
    phone.get_by_role("button", name="Undo delete").click()
    expect(phone.get_by_text("The game night is back.")).to_be_visible()


def test_dark_mode_game_and_player(phone: Page, seeded: History, shot, axe_violations) -> None:
    """The chart's series colours and the tables stay readable in the system's dark mode."""
    phone.emulate_media(color_scheme="dark")
    phone.goto(f"/history/games/{seeded.games['G6']}")
    expect(phone.locator("svg.chart-svg polyline")).to_have_count(3)
    shot(phone, "history-game-dark")
    assert_no_axe(axe_violations(phone))
    phone.goto(f"/history/players/{seeded.players['Bob']}")
    shot(phone, "history-player-dark")
    assert_no_axe(axe_violations(phone))


@pytest.mark.parametrize("path", ["/history/leaderboard", "/history/"])
def test_date_fields_fit_a_360px_screen(browser, live_server, seeded: History, path) -> None:
    """The From/To date boxes stay inside their card on a narrow (360 px) phone."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, base_url=live_server.url)
    page = context.new_page()
    page.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))
    try:
        page.goto(path)
        if path == "/history/":
            page.get_by_text("Search and filter").click()
        to_box = page.get_by_label("To", exact=True)
        expect(to_box).to_be_visible()
        no_horizontal_scroll(page)
        box = to_box.bounding_box()
        card = page.locator(".filters").first.bounding_box()
        assert box["x"] + box["width"] <= card["x"] + card["width"] + 0.5
    finally:
        context.close()


def test_players_list_rows_are_thumb_sized(phone: Page, seeded: History) -> None:
    """Each player's link fills its row (not just the name text): at least 44 x 44 px."""
    phone.goto("/history/players")
    link = phone.locator("ul.player-list li > a", has_text="Cy").first
    box, row = link.bounding_box(), phone.locator("ul.player-list li").first.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    assert box["width"] >= row["width"] / 2, (box, row)
