"""The whole table in real browsers (issue 10): a scorekeeper's phone and three player phones
(Pixel 7 contexts). The players join by the game page's link, post their own hands for two
rounds (typed totals, then tapped tiles), the scorekeeper's form fills itself without a reload,
one hand is overruled, then scorekeeping is handed over to a player's phone and the old phone
can no longer save. Screenshots of each phone at each step go to test-artifacts/table-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.test_scorekeeper_browser import create_game, hand, start_night

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Bo", "Cy"]


@pytest.fixture()
def phones(browser, playwright, live_server) -> Iterator[dict[str, Page]]:
    """One phone per player, each in its own browser context (its own cookies)."""
    contexts: list[BrowserContext] = []
    pages = {}
    for name in PLAYERS:
        context = browser.new_context(**playwright.devices["Pixel 7"], base_url=live_server.url)
        context.set_default_timeout(10_000)
        contexts.append(context)
        pages[name] = context.new_page()
    try:
        yield pages
    finally:
        for context in contexts:
            context.close()


def shots(shot, step: str, keeper: Page, phones: dict[str, Page]) -> None:
    """A screenshot of every phone at ``step``."""
    shot(keeper, f"table-{step}-scorekeeper")
    for name, page in phones.items():
        shot(page, f"table-{step}-{name.lower()}")


def post_total(page: Page, points: int) -> None:
    page.get_by_label("Points left in my hand").fill(str(points))
    page.get_by_role("button", name=re.compile("(Post|Change) my hand")).click()
    expect(page.locator(".post-state")).to_contain_text(f"Posted: {points} point")


def post_out(page: Page) -> None:
    page.get_by_label("I went out").check()
    page.get_by_role("button", name=re.compile("(Post|Change) my hand")).click()
    expect(page.locator(".post-state")).to_contain_text("Posted: went out")


def post_tiles(page: Page, tiles: list[str]) -> None:
    opener = page.get_by_role("button", name="Tap the tiles")
    if opener.count():  # the picker is fetched from the server when first wanted
        opener.click()
    box = page.locator("details.picker-box")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    for text in tiles:
        box.locator(f"label.pick:has(input[value='{text}'])").click()
    page.get_by_role("button", name=re.compile("(Post|Change) my hand")).click()
    expect(page.locator(".post-state")).to_contain_text(f"{len(tiles)} tiles")


def test_the_table_posts_its_own_hands_and_hands_scorekeeping_over(
    phone: Page, phones: dict[str, Page], shot
) -> None:
    keeper = phone
    start_night(keeper)
    token = create_game(keeper, PLAYERS)
    join = keeper.locator(".table-box .share-link a").get_attribute("href") or ""
    join_path = urlsplit(join).path
    assert re.fullmatch(r"/j/[\w-]+", join_path)
    expect(keeper.locator(".table-box svg.qr")).to_be_visible()

    # 1. join: each phone taps its own name
    for name, page in phones.items():
        page.goto(join_path)
        page.get_by_role("button", name=name, exact=True).click()
        page.wait_for_url(re.compile(r"/p/[\w-]+$"))
        expect(page.get_by_role("heading", name=f"{name}'s hand")).to_be_visible()
    keeper.reload()
    # every seat joined: the join panel left the top of the page; the list stays below
    expect(keeper.locator("#join-panel")).to_have_count(0)
    expect(keeper.locator(".table-box .joined")).to_contain_text("Ana: joined on a phone")
    shots(shot, "1-joined", keeper, phones)

    # 2. round 1 by typed totals; the scorekeeper's form fills itself without a reload
    keeper.evaluate("window.__sameDocument = true")
    post_total(phones["Ana"], 12)
    post_out(phones["Bo"])
    post_total(phones["Cy"], 7)
    expect(keeper.get_by_label("Points for Ana")).to_have_value("12")
    expect(keeper.get_by_label("Points for Cy")).to_have_value("7")
    expect(hand(keeper, "Bo").get_by_label("Went out")).to_be_checked()
    # each hand says it was posted, and when (hh:mm)
    expect(hand(keeper, "Ana").locator(".post-mark")).to_have_text(
        re.compile(r"^posted \d{1,2}:\d\d( [AP]M)?$")  # the short time of day (app.js)
    )
    assert keeper.evaluate("window.__sameDocument") is True
    shots(shot, "2-round1-posted", keeper, phones)

    # 3. the scorekeeper overrules Cy's hand and saves
    keeper.get_by_label("Points for Cy").fill("9")
    # the form says at once that the scorekeeper typed over Cy's post, and what Cy posted
    expect(hand(keeper, "Cy").locator(".post-mark")).to_contain_text("typed over their post")
    expect(hand(keeper, "Cy").locator(".post-mark")).to_contain_text("7 points")
    keeper.get_by_role("button", name="Save round").click()
    expect(keeper.locator("#round-title")).to_have_text(re.compile(r"^Round 2 of"))
    cy = phones["Cy"]
    expect(cy.locator("#hand-live .taken")).to_contain_text("the scorekeeper entered it")
    expect(cy.locator("#hand-live .taken")).to_contain_text("You posted: 7")
    expect(phones["Ana"].locator("#hand-live .taken")).to_contain_text("as you posted")
    for page in phones.values():  # the poll reloads the page: the form offers the next round
        expect(page.locator("#post-title")).to_have_text(re.compile(r"^Round 2: centre 8-8"))
    shots(shot, "3-round1-saved", keeper, phones)

    # 4. round 2 by tapped tiles (Ana), a typed total (Bo), Cy went out
    post_tiles(phones["Ana"], ["5-4", "3-2"])
    post_total(phones["Bo"], 6)
    post_out(phones["Cy"])
    ana = hand(keeper, "Ana")
    # Ana's tile picker is not open (pickers are built on demand): her posted tiles travel as
    # hidden fields of the form, and her hand's mark names them.
    expect(ana.locator("input[name^='tiles_'][value='5-4']")).to_have_count(1)
    expect(ana.locator("input[name^='tiles_'][value='3-2']")).to_have_count(1)
    expect(ana.locator(".post-mark")).to_contain_text("2 tiles: 3-2 5-4 (14 points)")
    expect(keeper.get_by_label("Points for Bo")).to_have_value("6")
    # Cy's post must have reached the form too: a save with a post it has not seen is refused
    # (nothing typed is lost), which on a busy machine the poll can still be catching up on.
    expect(hand(keeper, "Cy").get_by_label("Went out")).to_be_checked()
    shots(shot, "4-round2-posted", keeper, phones)
    keeper.get_by_role("button", name="Save round").click()
    expect(keeper.locator("#round-title")).to_have_text(re.compile(r"^Round 3 of"))
    expect(keeper.locator("#scoreboard thead th.rd")).to_have_count(2)
    expect(phones["Bo"].locator("#scoreboard thead th.rd")).to_have_count(2)  # live, no reload
    shots(shot, "5-round2-saved", keeper, phones)

    # 5. handover to Bo's phone; a stale form stays open on the old phone
    stale = keeper.context.new_page()
    stale.goto(f"/g/{token}")
    stale.get_by_label("Points for Ana").fill("4")
    bo = phones["Bo"]
    bo.goto(f"/g/{token}")  # the scorekeeping link from the share page's QR code
    expect(bo.get_by_role("heading", name="Another phone keeps score")).to_be_visible()
    bo.get_by_role("button", name="Make this phone the scorekeeper").click()
    keeper.reload()
    keeper.get_by_role("button", name="Hand scorekeeping over").click()
    expect(keeper.get_by_role("heading", name="This phone no longer keeps score")).to_be_visible()
    bo.goto(f"/g/{token}")
    expect(bo.locator("#round-title")).to_have_text(re.compile(r"^Round 3 of"))
    shots(shot, "6-handover", keeper, phones)

    # 6. the old phone can no longer save: its live poll says why and its Save is disabled
    refusal = stale.locator(".live-banner")
    expect(stale.get_by_role("button", name="Save round")).to_be_disabled()
    expect(refusal).to_contain_text("This phone no longer keeps score")
    # only the refusal, in its words: not "check the connection", not the page's install hint
    expect(refusal).not_to_contain_text("check the connection")
    expect(refusal).not_to_contain_text("Install the app")
    shot(stale, "table-7-old-phone-refused")
    expect(bo.locator("#scoreboard thead th.rd")).to_have_count(2)


def test_the_menu_words_stay_whole_on_a_360px_phone(browser, live_server) -> None:
    """At 360 px the body's ``overflow-wrap: anywhere`` split the top menu's words ("Game|s",
    "Rule|s", "Histor|y") on every page a player's phone shows: each link is one line."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        has_touch=True,
        is_mobile=True,
        base_url=live_server.url,
    )
    try:
        page = context.new_page()
        page.goto("/")
        lines = page.evaluate(
            """() => [...document.querySelectorAll('.topbar nav a')].map(a => {
                const r = document.createRange(); r.selectNodeContents(a);
                return [a.textContent.trim(), r.getClientRects().length];
            })"""
        )
        assert lines == [["Games", 1], ["Rules", 1], ["History", 1]]
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()


def test_the_join_page_seats_are_a_list_of_names_and_taken_ones_look_taken(
    browser, live_server, phone: Page
) -> None:
    """The join page showed a bullet before every name button, and a seat taken by another
    phone looked like a button to tap (only its small note said otherwise)."""
    start_night(phone)
    create_game(phone, PLAYERS)
    join = urlsplit(phone.locator(".table-box .share-link a").get_attribute("href") or "").path
    ana = browser.new_context(viewport={"width": 360, "height": 740}, base_url=live_server.url)
    try:
        page = ana.new_page()
        page.goto(join)
        page.get_by_role("button", name="Ana", exact=True).click()
        page.wait_for_url(re.compile(r"/p/[\w-]+$"))
    finally:
        ana.close()
    phone.goto(join)
    seats = phone.locator("ul.seats")
    assert seats.evaluate("e => getComputedStyle(e).listStyleType") == "none"
    taken = phone.get_by_role("button", name="Ana", exact=True)
    free = phone.get_by_role("button", name="Bo", exact=True)
    assert taken.evaluate("e => getComputedStyle(e).opacity") != free.evaluate(
        "e => getComputedStyle(e).opacity"
    )
