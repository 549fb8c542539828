"""Three table disputes settled on a 360 px phone by tapping only, counting the taps from the
moment the layout is on screen (issue 12). Screenshots of each verdict go to
test-artifacts/dispute-*.png. Also: every end of a double-12 layout of 60 tiles is a 44 px
target named in words, and the page itself never scrolls sideways (the drawing does)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

SPOKES = "9-5 on C; 9-4 on C; 9-3 on C; 9-2 on C"
OPEN_FOOT = f"{SPOKES}; 5-5 on S1"
WIDTH = 360


@pytest.fixture()
def small_phone(browser, live_server) -> Iterator[Page]:
    """A 360 px wide touch phone (the narrowest common Android width)."""
    context = browser.new_context(
        viewport={"width": WIDTH, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        base_url=live_server.url,
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))
    try:
        yield page
    finally:
        context.close()


class Taps:
    """Counts the taps a player makes."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, target: Locator) -> None:
        target.tap()
        self.count += 1


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH


def test_a_tile_on_a_spoke_before_all_spokes_are_down(small_phone: Page, shot) -> None:
    small_phone.goto("/checker/?pos=9-5 on C")
    expect(small_phone.locator("svg.layout g.tile")).to_have_count(2)  # the layout is on screen
    tap = Taps()
    tap(small_phone.get_by_role("link", name="Can this tile go here?"))
    tap(small_phone.locator("label.chip:has(input[value='5-4'])"))
    tap(small_phone.locator('svg.layout a.end-link[data-on="S1"]'))
    verdict = small_phone.locator("#verdict")
    expect(verdict.locator("#verdict-h")).to_have_text("No, it cannot go there.")
    expect(verdict).to_contain_text(
        "The centre 9-9 needs all 4 spokes before anyone plays elsewhere: 1 of 4 is down."
    )
    expect(verdict).to_contain_text("5-4 on the open 5 on the first spoke")
    expect(small_phone.locator("svg.layout g.tile.illegal")).to_have_count(1)
    expect(verdict).to_contain_text("This tile cannot go anywhere right now.")  # no 9
    assert tap.count <= 4
    no_sideways_scroll(small_phone)
    shot(small_phone, "dispute-spoke-before-all-spokes")
    # the reason's rule, in the rule book
    small_phone.get_by_role("link", name="The rule: The centre and its spokes").tap()
    expect(small_phone.locator("#centre")).to_be_visible()
    expect(
        small_phone.locator("#house-rule-center-spokes-required .choice.chosen")
    ).to_contain_text("Four spokes")


def test_a_play_elsewhere_while_a_chicken_foot_is_open(small_phone: Page, shot) -> None:
    small_phone.goto(f"/checker/?pos={OPEN_FOOT}")
    expect(small_phone.locator("svg.layout g.tile.foot")).to_have_count(1)
    tap = Taps()
    tap(small_phone.get_by_role("link", name="Can this tile go here?"))
    tap(small_phone.locator("label.chip:has(input[value='6-4'])"))
    tap(small_phone.locator('svg.layout a.end-link[data-on="S2"]'))
    verdict = small_phone.locator("#verdict")
    expect(verdict.locator("#verdict-h")).to_have_text("No, it cannot go there.")
    expect(verdict).to_contain_text(
        "The chicken foot on 5-5 needs all 3 toes before anyone plays elsewhere: 0 of 3 are "
        "down, so the next play must be a tile with a 5 on that foot."
    )
    expect(verdict).to_contain_text("6-4 on the open 4 on the second spoke")
    expect(verdict.locator("details.tech-details")).to_contain_text("FOOT_INCOMPLETE")
    expect(verdict.get_by_text("FOOT_INCOMPLETE")).to_be_hidden()  # collapsed
    assert tap.count <= 4
    no_sideways_scroll(small_phone)
    shot(small_phone, "dispute-play-elsewhere-with-an-open-foot")


def test_nobody_can_play_and_the_yard_is_empty(small_phone: Page, shot) -> None:
    small_phone.goto(f"/checker/?pos={OPEN_FOOT}")
    expect(small_phone.locator("svg.layout g.tile.foot")).to_have_count(1)
    tap = Taps()
    tap(small_phone.get_by_role("link", name="Is the round over?"))
    tap(small_phone.get_by_role("button", name="Nobody could play and the chicken yard is empty"))
    verdict = small_phone.locator("#verdict")
    expect(verdict.locator("#verdict-h")).to_have_text("The round is over.")
    expect(verdict).to_contain_text("Nobody can play and the chicken yard is empty")
    expect(verdict.get_by_role("link", name="The rule: Ending a round")).to_be_visible()
    assert tap.count <= 6
    no_sideways_scroll(small_phone)
    shot(small_phone, "dispute-nobody-can-play-yard-empty")


def test_someone_went_out_and_everyone_passed(small_phone: Page) -> None:
    small_phone.goto(f"/checker/?q=end&pos={OPEN_FOOT}")
    tap = Taps()
    tap(small_phone.get_by_role("button", name="B went out"))
    expect(small_phone.locator("#verdict-h")).to_have_text("The round is over.")
    expect(small_phone.locator("#verdict")).to_contain_text("B laid their last tile")
    small_phone.fill("#yard_left", "4")
    tap(small_phone.get_by_role("button", name="Everyone passed, but the chicken yard still has"))
    expect(small_phone.locator("#verdict-h")).to_have_text("The round goes on.")
    expect(small_phone.locator("#verdict")).to_contain_text("4 tiles can still be drawn")
    assert tap.count == 2


def test_every_end_of_a_deep_double_12_layout_is_a_named_44_px_target(
    small_phone: Page, shot
) -> None:
    from companion.checker.notation import format_layout
    from tests.web.checker.test_checker import big_layout_json

    text = format_layout(json.loads(big_layout_json(60)))
    small_phone.goto(f"/checker/?set=12&q=move&pos={text}")
    expect(small_phone.locator("svg.layout g.tile")).to_have_count(61)
    links = small_phone.locator("svg.layout a.end-link")
    assert links.count() > 10
    for i in range(links.count()):
        link = links.nth(i)
        label = link.get_attribute("aria-label") or ""
        assert label.startswith("Open end: the "), label
        box = link.locator("circle.hit").bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44
    tile = small_phone.locator("svg.layout g.tile rect").nth(5).bounding_box()
    assert tile and max(tile["width"], tile["height"]) >= 40  # tiles keep a readable size
    no_sideways_scroll(small_phone)  # the drawing scrolls inside its box instead
    box = small_phone.locator(".picture")
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")
    # the drawing opens on the centre double, not on an empty corner
    centre = small_phone.locator("svg.layout g.tile.centre").bounding_box()
    frame = box.bounding_box()
    assert centre and frame
    assert (
        frame["x"] <= centre["x"] and centre["x"] + centre["width"] <= frame["x"] + frame["width"]
    )
    assert (
        frame["y"] <= centre["y"] and centre["y"] + centre["height"] <= frame["y"] + frame["height"]
    )
    shot(small_phone, "dispute-deep-double-12-layout")


def test_what_must_i_do_and_a_special_case(small_phone: Page, shot) -> None:
    small_phone.goto(f"/checker/?q=draw&pos={OPEN_FOOT}")
    small_phone.fill("#hand_text", "5-1 6-2")
    small_phone.get_by_role("button", name="What must I do?").tap()
    expect(small_phone.locator("#verdict-h")).to_have_text("Play a tile.")
    expect(small_phone.locator("#verdict")).to_contain_text(
        "You can play 5-1 on the chicken foot on 5-5."
    )
    small_phone.get_by_role("link", name="Special cases").tap()
    small_phone.fill("#edge_spokes", "12")
    small_phone.get_by_role("button", name="Can the centre take them?").tap()
    expect(small_phone.locator("#verdict-h")).to_have_text("Not possible with this set.")
    shot(small_phone, "dispute-special-case")


def test_the_top_bar_keeps_each_word_whole_at_360_px(small_phone: Page) -> None:
    """At 360 px the top bar's links broke inside words ("Game / s", "Histor / y")."""
    for url in ("/checker/", "/checker/rules"):
        small_phone.goto(url)
        for link in small_phone.locator(".topbar nav a").all():
            box = link.bounding_box()
            assert box is not None and box["height"] <= 48, link.inner_text()
            assert "\n" not in link.inner_text()
            # one line of text: the text's own height is a single line
            lines = link.evaluate(
                "a => { const r = document.createRange(); r.selectNodeContents(a);"
                " return r.getClientRects().length; }"
            )
            assert lines == 1, link.inner_text()
        no_sideways_scroll(small_phone)


def test_the_rule_book_contents_are_44_px_targets(small_phone: Page) -> None:
    """The rule book's list of sections was a column of 20 px links, too close to tap."""
    small_phone.goto("/checker/rules")
    links = small_phone.locator("ol.contents a").all()
    assert len(links) >= 9
    for link in links:
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44, link.inner_text()
    no_sideways_scroll(small_phone)


def test_the_special_cases_rule_book_links_are_44_px_targets(small_phone: Page) -> None:
    """ "A double played as a spoke" and its neighbours were 20 px links."""
    small_phone.goto("/checker/?q=edge")
    links = small_phone.locator(".edge-case li a").all()
    assert len(links) == 3
    for link in links:
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44, link.inner_text()
    no_sideways_scroll(small_phone)
