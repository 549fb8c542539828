"""The rules checker on a phone: build positions by tapping, ask questions, see the verdicts,
and no axe violations. Screenshots go to test-artifacts/checker-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def _offline_cdn(phone: Page) -> None:
    """No network here: the CDN copy of htmx fails fast and the local fallback loads."""
    phone.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))


def lay(page: Page, on: str, tile: str) -> None:
    """Tap the open end ``on`` in the picture, then the tile laid there."""
    page.locator(f'svg.layout a.end-link[data-on="{on}"]').first.click()
    picker = page.locator("#tile-picker")
    expect(picker).to_be_visible()
    picker.get_by_role("link", name=tile, exact=True).click()
    expect(page.locator('svg.layout g.tile[data-id]:not([data-id="C"])').last).to_be_attached()
    expect(page.locator("#tile-picker")).to_have_count(0)


def tiles_on_table(page: Page) -> list[str]:
    return page.locator("svg.layout g.tile").evaluate_all("els => els.map(e => e.dataset.id)")


def test_build_a_spoke_phase_and_an_open_foot_position_by_tapping(
    phone: Page, shot, csp_refusals
) -> None:
    phone.goto("/checker/")
    phone.evaluate("window.notReloaded = true")
    lay(phone, "C", "9-5")
    lay(phone, "C", "9-4")
    assert tiles_on_table(phone) == ["C", "S1", "S2"]
    # spoke phase: only the centre may be played on
    expect(phone.locator("nav.ends a.end-chip").first).to_have_text("Lay a tile on the centre 9-9")
    shot(phone, "checker-spoke-phase")
    lay(phone, "C", "9-3")
    lay(phone, "C", "9-2")
    lay(phone, "S1", "5-5")
    assert tiles_on_table(phone) == ["C", "S1", "S2", "S3", "S4", "D1"]
    expect(phone.locator("svg.layout g.tile.foot")).to_have_count(1)
    expect(phone.locator('svg.layout a.end-link[data-on="D1"]')).to_have_count(3)
    expect(phone.locator("#pos")).to_have_value(
        "9-9 centre; 9-5 on C; 9-4 on C; 9-3 on C; 9-2 on C; 5-5 on S1"
    )
    shot(phone, "checker-open-foot")
    assert phone.evaluate("window.notReloaded") is True  # htmx swapped fragments, no reloads
    assert "pos=" in phone.url  # and the position is in the address, for back and reload
    phone.get_by_role("link", name="Undo").click()
    expect(phone.locator("svg.layout g.tile.foot")).to_have_count(0)
    assert csp_refusals == []


OPEN_FOOT = "9-5 on C; 9-4 on C; 9-3 on C; 9-2 on C; 5-5 on S1"


def test_illegal_then_legal_move(phone: Page, shot, csp_refusals) -> None:
    phone.goto(f"/checker/?q=move&pos={OPEN_FOOT}")
    phone.evaluate("window.notReloaded = true")
    phone.locator("label.chip:has(input[value='6-4'])").click()
    phone.locator('svg.layout a.end-link[data-on="S2"]').click()  # tap the end on the picture
    verdict = phone.locator("#verdict")
    expect(verdict).to_contain_text("No, it cannot go there.")
    expect(verdict).to_contain_text("The chicken foot on 5-5 needs all 3 toes")
    expect(verdict.get_by_role("link", name="The rule: Chicken feet")).to_be_visible()
    expect(verdict.locator("details.tech-details")).not_to_have_attribute("open", "")
    expect(verdict.locator("details.tech-details code").first).to_be_hidden()
    red = phone.locator("svg.layout g.tile.illegal rect")
    expect(red).to_have_count(1)
    stroke = red.evaluate("el => getComputedStyle(el).stroke")
    assert stroke == "rgb(179, 38, 30)"  # --bad
    shot(phone, "checker-illegal-move")
    assert phone.evaluate("window.notReloaded") is True  # asked and shown by an htmx swap
    assert "ruling=" in phone.url

    phone.locator("label.chip:has(input[value='5-1'])").click()
    phone.locator("label.end-option:has(input[value='D1'])").click()
    expect(phone.locator("#verdict")).to_contain_text("Yes, it can go there.")
    expect(phone.locator("svg.layout g.tile.legal")).to_have_count(1)
    expect(phone.locator("svg.layout circle.end.highlight")).to_have_count(3)  # the foot's toes
    shot(phone, "checker-legal-move")
    assert csp_refusals == []


def test_draw_question(phone: Page, shot) -> None:
    phone.goto(f"/checker/?q=draw&pos={OPEN_FOOT}")
    form = phone.locator("#ask-form")
    form.locator("label.chip:has(input[value='6-1'])").click()
    form.locator("label.chip:has(input[value='4-0'])").click()
    phone.fill("#yard_count", "12")
    form.get_by_role("button", name="What must I do?").click()
    verdict = phone.locator("#verdict")
    expect(verdict).to_contain_text("Draw 1.")
    expect(verdict).to_contain_text("draw 1 tile from the chicken yard")
    expect(verdict.get_by_role("link", name="The rule: Drawing and passing")).to_be_visible()
    shot(phone, "checker-draw")


def test_the_red_ghost_is_labelled_in_words_and_leaves_its_end_tappable(phone: Page) -> None:
    phone.goto(f"/checker/?q=move&pos={OPEN_FOOT}")
    phone.locator("label.chip:has(input[value='6-4'])").click()
    phone.locator('svg.layout a.end-link[data-on="S2"]').click()
    expect(phone.locator("svg.layout text.mark.illegal")).to_contain_text("✗ foot not finished")
    expect(phone.locator("svg.layout text.mark.illegal title")).to_have_text(
        "A chicken foot needs all its toes before anyone plays elsewhere."
    )
    # the same end again, tapped where the ghost lies (Playwright refuses intercepted clicks)
    phone.locator("label.chip:has(input[value='4-1'])").click()
    phone.locator('svg.layout a.end-link[data-on="S2"]').click(timeout=5000)
    expect(phone.locator("#verdict")).to_contain_text("4-1 on the open 4 on the second spoke")


def test_a_fourth_toe_can_be_asked_about_by_tapping(phone: Page) -> None:
    phone.goto(f"/checker/?q=move&pos={OPEN_FOOT}; 5-1 on D1; 5-2 on D1; 5-3 on D1")
    phone.locator("label.chip:has(input[value='5-4'])").click()
    phone.get_by_text("Full or covered places").click()
    phone.locator("details.closed-ends label.end-option:has(input[value='D1'])").click()
    expect(phone.locator("#verdict")).to_contain_text("already has all its 3 toes")
    expect(phone.locator("#verdict-h")).to_have_text("No, it cannot go there.")


def test_the_headline_says_what_to_do_with_a_drawn_tile(phone: Page) -> None:
    phone.goto(f"/checker/?preset=spruce_seed002_003&q=draw&pos={OPEN_FOOT}")
    phone.fill("#hand_text", "4-3 6-2")
    phone.fill("#yard_count", "9")
    phone.select_option("#tile_drawn", "5-0")
    phone.get_by_role("button", name="What must I do?").click()
    expect(phone.locator("#verdict-h")).to_have_text(
        "You may play the drawn tile, or keep it and pass."
    )
    expect(phone.locator("#verdict")).to_contain_text("Hand4-3, 6-2")


def test_tie_question(phone: Page, shot) -> None:
    phone.goto("/checker/?q=tie&players=3")
    phone.fill("#scores_0", "10, 0, 5")
    phone.fill("#scores_1", "5, 5, 5")
    phone.fill("#scores_2", "20, 20, 20")
    phone.get_by_role("button", name="Who wins?").click()
    verdict = phone.locator("#verdict")
    expect(verdict).to_contain_text("A wins.")
    expect(verdict).to_contain_text("has the most zero rounds")
    shot(phone, "checker-tie")
    phone.get_by_role("link", name="Rulings").click()
    # the live server is shared by the session: the newest ruling comes first
    expect(phone.locator(".rulings-list li").first).to_contain_text("A wins.")


def test_refused_position_is_marked(phone: Page, shot) -> None:
    phone.goto("/checker/?pos=9-5 on C; 5-5 on S1")
    expect(phone.locator(".refusal")).to_contain_text("could not have been played")
    expect(phone.locator("svg.layout g.tile.refused")).to_have_count(1)
    shot(phone, "checker-refused")


@pytest.mark.parametrize(
    "path",
    [
        "/checker/",
        f"/checker/?q=move&pos={OPEN_FOOT}&sel=D1",
        f"/checker/?q=end&pos={OPEN_FOOT}",
        "/checker/?q=score",
        "/checker/?pos=9-5 on C; 5-5 on S1",
        "/checker/house-rules?preset=wikipedia",
        "/checker/rulings",
        "/checker/rules?preset=wikipedia",
        f"/checker/?q=edge&pos={OPEN_FOOT}",
    ],
)
def test_no_axe_violations(phone: Page, axe_violations, path: str) -> None:
    phone.goto(path)
    violations = axe_violations(phone)
    assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]


def test_no_axe_violations_with_a_verdict(phone: Page, axe_violations) -> None:
    phone.goto(f"/checker/?q=move&pos={OPEN_FOOT}")
    phone.locator("label.chip:has(input[value='6-4'])").click()
    phone.locator("label.end-option:has(input[value='S2'])").click()
    expect(phone.locator("#verdict")).to_be_visible()
    violations = axe_violations(phone)
    assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]


def test_works_without_javascript(browser, playwright, live_server, shot) -> None:
    context = browser.new_context(
        **playwright.devices["Pixel 7"], java_script_enabled=False, base_url=live_server.url
    )
    page = context.new_page()
    try:
        page.goto("/checker/")
        page.get_by_role("link", name="Lay a tile on the centre 9-9").click()
        page.locator("#tile-picker").get_by_role("link", name="9-7", exact=True).click()
        expect(page.locator("#pos")).to_have_value("9-9 centre; 9-7 on C")
        page.get_by_role("link", name="Can this tile go here?").click()
        page.locator("label.chip:has(input[value='7-7'])").click()
        page.locator("label.end-option:has(input[value='S1'])").click()
        page.get_by_role("button", name="Can it go there?").click()
        expect(page.locator("#verdict")).to_contain_text("needs all 4 spokes")
        shot(page, "checker-no-js")
    finally:
        context.close()


def test_opened_from_a_game(phone: Page, live_server, shot) -> None:
    from datetime import date

    from companion.engine import preset
    from companion.extensions import db
    from companion.models import Game, GameNight, Seat
    from tests.web.playkit import player_named

    with live_server.app.app_context():
        rules = preset("double_chickenfoot").to_dict()
        game = Game(
            night=GameNight(played_on=date(2026, 11, 28)),
            set_size=9,
            preset="double_chickenfoot",
            rules=rules,
        )
        for i, name in enumerate(("Ann", "Bob", "Cy")):
            game.seats.append(Seat(player=player_named(name), position=i))
        db.session.add(game)
        db.session.commit()
        token = game.edit_token
    phone.goto(f"/checker/?game={token}")
    expect(phone.locator(".table-line")).to_contain_text("Ann, Bob, Cy")
    expect(phone.locator("svg.layout circle.end.playable")).to_have_count(6)  # 6 spokes first
    phone.get_by_role("link", name="Who wins this tie?").click()
    expect(phone.locator("label[for=scores_2]")).to_have_text("Cy")
    phone.fill("#scores_0", "0")
    phone.fill("#scores_1", "4")
    phone.fill("#scores_2", "9")
    phone.get_by_role("button", name="Who wins?").click()
    expect(phone.locator("#verdict")).to_contain_text("Ann wins.")
    shot(phone, "checker-game")
    phone.get_by_role("link", name="Rulings").click()
    expect(phone.locator(".rulings-list li")).to_have_count(1)


@pytest.mark.parametrize("javascript", [True, False])
def test_a_big_pasted_layout_is_shown_with_a_short_address(
    browser, playwright, live_server, javascript
) -> None:
    from tests.web.checker.test_checker import big_layout_json

    context = browser.new_context(
        **playwright.devices["Pixel 7"], java_script_enabled=javascript, base_url=live_server.url
    )
    page = context.new_page()
    page.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))
    try:
        page.goto("/checker/?set=12&q=draw")
        page.get_by_text("Type or paste the position").click()
        page.locator("#pos").fill(big_layout_json())
        page.get_by_role("button", name="Show").click()
        expect(page.locator("#pos")).to_have_value(re.compile(r"^12-12 centre; T1: 12-11 on C"))
        expect(page.locator("svg.layout g.tile")).to_have_count(65)
        assert "/checker/?" in page.url and "pos=" in page.url and len(page.url) < 2500
        expect(page.locator("#ask-form")).to_be_visible()
    finally:
        context.close()


def test_a_ruling_is_deleted_only_after_confirming(phone: Page) -> None:
    phone.goto("/checker/?q=score")
    phone.fill("#hand_text", "8-7 8-6")
    phone.get_by_role("button", name="Score this hand").click()
    expect(phone.locator("#verdict-h")).to_have_text("29 points.")
    phone.get_by_role("link", name="Rulings").click()
    first = phone.locator(".rulings-list li").first
    expect(first).to_contain_text("Hand: 8-7, 8-6")
    first.get_by_role("link", name="Delete…").click()
    expect(phone.locator("h1")).to_have_text("Delete this ruling?")
    phone.get_by_role("button", name="Delete the ruling").click()
    expect(phone.locator("h1")).to_have_text("Rulings")
    expect(phone.get_by_text("Hand: 8-7, 8-6")).to_have_count(0)


def _rulings_without_a_game(live_server) -> int:
    from companion.extensions import db
    from companion.models import Ruling

    with live_server.app.app_context():
        return db.session.query(Ruling).filter(Ruling.game_id.is_(None)).count()


@pytest.mark.parametrize(
    ("answered_first", "tile"), [(True, "9-3"), (False, "9-4")], ids=["answered", "in-flight"]
)
def test_tap_to_ask_then_the_button_is_one_question_and_one_ruling(
    phone: Page, live_server, answered_first: bool, tile: str
) -> None:
    # the tester's steps: a tile and an end tapped (which asks at once), then the button,
    # tapped when the answer is already shown or while it is still on its way
    before = _rulings_without_a_game(live_server)
    posts: list[str] = []
    phone.on(
        "request",
        lambda r: posts.append(r.url) if r.method == "POST" and "/checker/ask" in r.url else None,
    )
    held: list = []  # a phone on the table's Wi-Fi: the answer is on its way until released
    if not answered_first:
        phone.route("**/checker/ask", lambda route: held.append(route))
    phone.goto("/checker/?set=9&players=4&q=move&pos=9-9+centre;+9-5+on+C")
    phone.wait_for_function("() => window.htmx !== undefined")
    phone.locator(f"label.chip:has(input[value='{tile}'])").click()
    end = phone.locator("label.end-option:has(input[value='C'])")
    if answered_first:
        end.click()
        expect(phone.locator("#verdict")).to_contain_text("Yes, it can go there.")
    else:
        with phone.expect_request("**/checker/ask"):
            end.click()
    phone.get_by_role("button", name="Can it go there?").click()
    assert len(held) == (0 if answered_first else 1), held
    for route in held:  # the first answer arrives only now, after the tap on the button
        route.continue_()
    expect(phone.locator("#verdict")).to_contain_text("Yes, it can go there.")
    expect(phone.locator("#verdict")).to_be_in_viewport()
    # a second question would be an htmx request still under way (or answered) by now
    phone.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )
    assert len(posts) == 1, posts
    assert _rulings_without_a_game(live_server) == before + 1
    phone.go_back()
    expect(phone.locator("#verdict")).to_have_count(0)


def test_a_refused_position_is_brought_into_view(phone: Page) -> None:
    phone.set_viewport_size({"width": 360, "height": 740})
    phone.goto("/checker/?q=move")
    phone.locator("details.typed summary").click()
    phone.locator("#pos").fill("9-5 on C; 5-5 on S1")
    phone.locator("#pos").scroll_into_view_if_needed()
    phone.get_by_role("button", name="Show", exact=True).click()
    refusal = phone.locator(".refusal")
    expect(refusal).to_contain_text("could not have been played")
    expect(refusal).to_be_in_viewport()


def test_a_refused_question_is_brought_into_view(phone: Page) -> None:
    # the question's form comes back (422) with what is missing: the page must show it, not
    # jump to the top of the checker far above it
    phone.set_viewport_size({"width": 360, "height": 740})
    phone.goto(f"/checker/?q=draw&pos={OPEN_FOOT}")
    phone.get_by_role("button", name="What must I do?").click()
    problem = phone.locator("#ask-form .problem[role=alert]")
    expect(problem).to_be_visible()
    expect(problem).to_be_in_viewport()
