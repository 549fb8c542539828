"""The scorekeeper's screen at 360 x 740 (issue 22): one compact row per seat, Save in reach,
the scoreboard one tap away, the join panel first. Measured here: the round form's height from
its first hand to Save (at most 740 px for 4 players, 1,110 px for 12 on double-18), the taps
for a 12-player round typed in (at most 14) and posted from the phones (1), figures >= 14 px,
44 px touch targets, nothing wider than the phone with a 60-character name."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import phone_page
from tests.browser.table_screen import (
    FORM_BUDGET,
    FOUR,
    LONG_TWELVE,
    SMALL_PHONE,
    TWELVE,
    form_height,
    phone_posts,
    seed_table,
    small_targets,
)
from tests.browser.test_table_sizes_browser import (
    LONG_NAME,
    WIDER_THAN_VIEWPORT,
    hand,
    smallest_font,
)

pytestmark = pytest.mark.browser


@pytest.fixture()
def small_phone(browser, live_server) -> Iterator[Page]:
    with phone_page(browser, live_server, 15_000, **SMALL_PHONE) as page:
        yield page


def open_game(page: Page, token: str) -> None:
    page.goto(f"/g/{token}")
    expect(page.locator("#round-area form.round-form")).to_be_visible()
    page.wait_for_function("() => window.htmx !== undefined")


@pytest.mark.parametrize(("names", "set_size"), [(FOUR, 9), (LONG_TWELVE, 18)])
def test_the_round_form_fits_its_budget(small_phone: Page, live_server, names, set_size) -> None:
    table = seed_table(live_server.app, names, set_size)
    open_game(small_phone, table.edit)
    height = form_height(small_phone)
    assert height <= FORM_BUDGET[len(names)], height
    # a 60-character name takes two lines at most, cut there with an ellipsis (a name that
    # fits two lines is read whole: test_round_form_names_browser.py), the row stays compact;
    # the full name is still the hand's accessible name and its title
    row = hand(small_phone, names[-1])
    box = row.bounding_box()
    assert box is not None and box["height"] <= 80, box
    legend = row.locator("legend")
    assert legend.evaluate("e => e.getClientRects().length") == 1
    assert legend.evaluate("e => e.getBoundingClientRect().height") < 40  # 2 lines of 19.2 px
    expect(legend).to_have_attribute("title", names[-1])
    # each column head stays on one line over its narrow column ("Went out" wrapped to two)
    heads = small_phone.locator("#round-area .hands-head span")
    lines = heads.evaluate_all(
        "spans => spans.map(s => [s.textContent, s.getBoundingClientRect().height,"
        " parseFloat(getComputedStyle(s).lineHeight)])"
    )
    assert all(height < 1.5 * line for _, height, line in lines), lines
    size, where = smallest_font(small_phone, "#round-area")
    assert size >= 14, where
    assert small_targets(small_phone) == []
    # Save stays in reach: at the top of the form, it is on the screen already
    small_phone.evaluate("window.scrollTo(0, 0)")
    hand(small_phone, names[0]).scroll_into_view_if_needed()
    save = small_phone.locator("#round-area .actions button.big")
    box = save.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740, box


def test_twelve_hands_typed_in_fourteen_taps(small_phone: Page, live_server) -> None:
    table = seed_table(live_server.app, TWELVE, 18)
    open_game(small_phone, table.edit)
    taps = 0
    for i, name in enumerate(TWELVE):
        if i == 3:
            hand(small_phone, name).get_by_label("Went out").check()
        else:
            box = small_phone.get_by_label(f"Points for {name}")
            box.tap()
            box.press_sequentially(str(10 + i))
        taps += 1
    small_phone.get_by_role("button", name="Save round").last.tap()
    taps += 1
    expect(small_phone.locator("#round-area .flash.success")).to_have_text("Round saved.")
    assert taps <= 14
    expect(small_phone.locator("#scoreboard tbody.player").first).to_contain_text("0")


def test_twelve_hands_posted_from_the_phones_take_one_tap(small_phone: Page, live_server) -> None:
    table = seed_table(live_server.app, TWELVE, 18)
    open_game(small_phone, table.edit)
    phone_posts(live_server.app, table.id, {i: (None if i == 5 else 20 + i) for i in range(12)})
    # the form fills itself from the posts (no reload), each hand marked with its post
    lou = hand(small_phone, "Lou").locator(".post-mark")
    # the short time of day, as every time on the phone (static/js/app.js)
    expect(lou).to_have_text(re.compile(r"^posted \d{1,2}:\d\d( [AP]M)?$"))
    expect(small_phone.get_by_label("Points for Lou")).to_have_value("31")
    expect(hand(small_phone, "Finn").get_by_label("Went out")).to_be_checked()
    small_phone.get_by_role("button", name="Save round").last.tap()  # the one tap
    expect(small_phone.locator("#round-area .flash.success")).to_have_text("Round saved.")


def test_nothing_is_wider_than_the_phone_with_a_sixty_character_name(
    small_phone: Page, live_server
) -> None:
    table = seed_table(live_server.app, [LONG_NAME, *TWELVE[1:4]], 9)
    open_game(small_phone, table.edit)
    width, inner, wide = small_phone.evaluate(WIDER_THAN_VIEWPORT)
    assert width <= inner and wide == [], wide


def test_the_join_panel_comes_first_until_every_seat_joined(small_phone: Page, live_server) -> None:
    table = seed_table(live_server.app, FOUR, 9)
    open_game(small_phone, table.edit)
    panel = small_phone.locator("#join-panel")
    expect(panel.locator("svg.qr")).to_be_visible()
    # the QR code is on the first screen, above the round
    qr = panel.locator("svg.qr").bounding_box()
    first = hand(small_phone, "Ann").bounding_box()
    assert qr is not None and first is not None
    assert qr["y"] + qr["height"] <= 740 and qr["y"] < first["y"], (qr, first)
    expect(panel.locator(".share-link a")).to_contain_text(f"/j/{table.join}")
    # every seat joined: the panel leaves the top; the link stays below the scoreboard
    phone_posts(live_server.app, table.id, {})  # (nothing posted)
    small_phone.get_by_role("button", name="Close: everyone who plays has joined").click()
    expect(small_phone.locator("#join-panel")).to_have_count(0)
    expect(small_phone.locator(".table-box .share-link a")).to_contain_text(f"/j/{table.join}")


def test_the_scoreboard_is_one_tap_away(small_phone: Page, live_server) -> None:
    table = seed_table(live_server.app, FOUR, 9)
    open_game(small_phone, table.edit)
    small_phone.locator("nav.game-tabs a[data-tab=board]").tap()
    expect(small_phone.locator("#scoreboard")).to_be_in_viewport()
    expect(small_phone.locator("#round-area")).to_be_hidden()
    small_phone.locator("nav.game-tabs a[data-tab=round]").tap()
    expect(hand(small_phone, "Ann")).to_be_visible()
    expect(small_phone.locator("#scoreboard")).to_be_hidden()


def test_typing_over_a_tile_post_wins(small_phone: Page, live_server) -> None:
    """Cho tapped 42 points of tiles on her phone; the scorekeeper types 40 over them: the box
    showed the post's sum, the row says "typed over their post" and the save takes 40."""
    table = seed_table(live_server.app, FOUR, 9)
    open_game(small_phone, table.edit)
    phone_posts(live_server.app, table.id, {2: ["9-8", "8-7", "6-4"]})
    cho = small_phone.get_by_label("Points for Cho")
    expect(cho).to_have_attribute("placeholder", "42")
    expect(cho).to_have_value("")
    cho.fill("40")
    expect(hand(small_phone, "Cho").locator(".post-mark")).to_have_text(
        re.compile(r"^typed over their post")
    )
    hand(small_phone, "Ann").get_by_label("Went out").check()
    small_phone.get_by_label("Points for Bob").fill("10")
    small_phone.get_by_label("Points for Dee").fill("12")
    small_phone.get_by_role("button", name="Save round").last.tap()
    expect(small_phone.locator("#round-area .flash.success")).to_have_text("Round saved.")
    expect(small_phone.locator("#scoreboard")).to_contain_text("40")


#: every word under ``selector`` drawn over more than one line (SPLIT_CELLS of
#: test_tables_360_browser, measured per word: a name may wrap between its words, never in one)
SPLIT_WORDS = """(selector) => {
  const split = [];
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
        if (tops.length && Math.max(...tops) - Math.min(...tops) > 4) split.push(m[0]);
      }
    }
  }
  return split;
}"""


def test_sixty_character_names_never_split_a_word_at_360_px(small_phone: Page, live_server) -> None:
    """Issue 22: 60-character names broke mid-word on the scoreboard and the phones list."""
    table = seed_table(live_server.app, LONG_TWELVE, 18)
    open_game(small_phone, table.edit)
    phones = small_phone.locator("ul.joined li").first
    phones.scroll_into_view_if_needed()
    expect(phones).to_be_visible()
    assert small_phone.evaluate(SPLIT_WORDS, "ul.joined li") == []
    small_phone.locator("nav.game-tabs a[data-tab=board]").tap()
    expect(small_phone.locator("#scoreboard th.who").first).to_be_visible()
    assert small_phone.evaluate(SPLIT_WORDS, "#scoreboard th.who") == []
    width, inner, wide = small_phone.evaluate(WIDER_THAN_VIEWPORT)
    assert width <= inner and wide == [], wide
