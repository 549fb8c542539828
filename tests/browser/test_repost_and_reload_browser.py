"""Two defects a fresh tester saw at a table of phones at 360 x 740 (docs/TABLE.md, "A re-post
the form shows is seen" and "A Post tapped as the page reloads is not lost"):

1. The scorekeeper typed in Bo's box, Bo posted, then posted a changed hand; the form showed
   the re-post ("changed on their phone: 14 points") beside the typing, yet the first Save was
   refused (409) and only a second one saved. The live form now counts a post it shows beside
   the typing as seen: the first Save saves (the typing stands, Bo is told it was overruled);
   a post it has not shown is still refused.
2. A player typed their hand and tapped Post as their page reloaded: the tap fell between the
   two pages (or on the new page's empty box) and the page ended on "Not posted yet" with the
   typing gone. The hand page now keeps what was typed until it is posted: the reloaded page
   puts it back in the form and says it is not posted yet.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import phone_page
from tests.browser.table_screen import SMALL_PHONE, seed_table
from tests.browser.test_table_sizes_browser import hand

pytestmark = pytest.mark.browser

SAVE_URL = re.compile(r"/g/[\w-]+/round$")


def joins(page: Page, join: str, name: str) -> None:
    page.goto(f"/j/{join}")
    page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_url(re.compile(r"/p/[\w-]+$"))
    page.wait_for_function("() => window.htmx !== undefined")


def posts(page: Page, points: int) -> None:
    page.get_by_label("Points left in my hand").fill(str(points))
    page.get_by_role("button", name=re.compile("(Post|Change) my hand")).click()
    expect(page.locator(".post-state")).to_contain_text(f"Posted: {points} points")


def bo_joined(keeper: Page, bo: Page, live_server) -> Locator:
    """A new double-6 game of Ana, Bo and Cy, Bo joined, its form open on the scorekeeper's
    phone: Bo's box there."""
    table = seed_table(live_server.app, ["Ana", "Bo", "Cy"], 6)
    joins(bo, table.join, "Bo")
    keeper.goto(f"/g/{table.edit}")
    keeper.wait_for_function("() => window.htmx !== undefined")
    return hand(keeper, "Bo").get_by_role("textbox")


def saves_ana_5_cy_out(keeper: Page) -> None:
    """Ana 5 points, Cy went out, and Save."""
    hand(keeper, "Ana").get_by_role("textbox").fill("5")
    hand(keeper, "Cy").get_by_label("Went out").check()
    keeper.get_by_role("button", name="Save round").last.click()


def posts_unseen_and_saves(keeper: Page, bo: Page, points: int) -> None:
    """Bo posts ``points`` before the scorekeeper's poll shows it (the poll is held), and the
    scorekeeper saves (:func:`saves_ana_5_cy_out`)."""
    keeper.route(re.compile(r"/posts\?"), lambda route: route.abort())  # the poll sees nothing
    posts(bo, points)
    saves_ana_5_cy_out(keeper)


def typed_over_a_re_post(keeper: Page, bo: Page, live_server) -> Locator:
    """Bo joined (:func:`bo_joined`) posts 12, the scorekeeper types Bo's hand over the post
    (as Bo says it aloud), and Bo changes it to 14 on the phone. Bo's box on the scorekeeper's
    form."""
    bo_box = bo_joined(keeper, bo, live_server)
    posts(bo, 12)
    expect(bo_box).to_have_value("12")
    bo_box.fill("12")
    posts(bo, 14)
    return bo_box


def test_the_first_save_goes_through_when_the_form_shows_the_re_post(
    two_phones: tuple[Page, Page], live_server
) -> None:
    keeper, bo = two_phones
    saves: list[int] = []
    keeper.on(
        "response",
        lambda r: (
            saves.append(r.status)
            if r.request.method == "POST" and SAVE_URL.search(r.url)
            else None
        ),
    )
    bo_box = typed_over_a_re_post(keeper, bo, live_server)
    mark = hand(keeper, "Bo").locator(".post-mark")
    expect(mark).to_contain_text("changed on their phone")
    expect(mark).to_contain_text("14 points")
    expect(bo_box).to_have_value("12")  # the typing stays
    saves_ana_5_cy_out(keeper)
    expect(keeper.locator("#round-title")).to_have_text(re.compile(r"^Round 2 of"))
    assert saves == [200]  # one tap on Save: no 409 about a post the form showed
    # Bo's phone is told its post was overruled
    taken = bo.locator("#hand-live .taken")
    expect(taken).to_contain_text("12 points (the scorekeeper entered it)")
    expect(taken).to_contain_text("You posted: 14.")


def test_a_post_the_form_has_not_shown_is_still_refused(
    two_phones: tuple[Page, Page], live_server
) -> None:
    """The 409 stays for what the scorekeeper has not seen: Bo posts again just before Save,
    before the poll could show it (the poll is held). The typing kept beside the re-post the
    form showed stands, and the words under Bo's row say so."""
    keeper, bo = two_phones
    bo_box = typed_over_a_re_post(keeper, bo, live_server)
    expect(hand(keeper, "Bo").locator(".post-mark")).to_contain_text("14 points")
    posts_unseen_and_saves(keeper, bo, 16)
    expect(keeper.locator("#round-area")).to_contain_text(
        "after this form was filled, Bo changed their hand on their phone (now: 16 points"
    )
    expect(hand(keeper, "Bo")).to_contain_text("16 points")
    # typed over a post the form showed (14): the typing stands, and the words say so (they
    # said "the form holds their new hand now" beside the 12)
    expect(hand(keeper, "Bo")).to_contain_text("the value typed here will stand")
    expect(bo_box).to_have_value("12")


@pytest.fixture()
def player(browser, live_server) -> Iterator[Page]:
    """A player's phone at 360 x 740."""
    with phone_page(browser, live_server, 15_000, **SMALL_PHONE) as page:
        yield page


KEPT = "Not posted yet: what you typed before this page was loaded again is back in the form."


def test_typing_the_page_reload_would_drop_comes_back_until_posted(
    player: Page, live_server
) -> None:
    """The tap fell between the two pages: the reloaded page says "Not posted yet" and, now,
    holds the typing with a plain word that it is not posted, one tap from posting it."""
    table = seed_table(live_server.app, ["Ana", "Bo", "Cy"], 6)
    joins(player, table.join, "Bo")
    player.get_by_label("Points left in my hand").fill("12")
    player.reload()  # the Post tapped meanwhile never reached either page
    expect(player.locator(".post-state")).to_contain_text("Not posted yet")
    expect(player.get_by_label("Points left in my hand")).to_have_value("12")
    expect(player.locator(".kept-hand")).to_contain_text(KEPT)
    # drawn under the form (nothing being tapped moves): the button it names is above it
    # (tester-135: "tap the button below" named nothing there)
    expect(player.locator(".kept-hand")).to_contain_text("tap the button just above to post it")
    note = player.locator(".kept-hand").bounding_box()
    post = player.get_by_role("button", name="Post my hand").bounding_box()
    assert note and post and post["y"] + post["height"] <= note["y"], (post, note)
    player.get_by_role("button", name="Post my hand").click()
    expect(player.locator(".post-state")).to_contain_text("Posted: 12 points")
    player.reload()  # posted: nothing is kept any more
    expect(player.get_by_label("Points left in my hand")).to_have_value("12")
    expect(player.locator(".kept-hand")).to_have_count(0)
    assert player.evaluate("Object.keys(localStorage).filter(k => k.startsWith('cfc-hand'))") == []


def test_a_change_tapped_as_the_page_reloads_posts_what_was_typed(
    player: Page, live_server
) -> None:
    """The tap lands on the reloaded page: it posts the typed hand, not the older post the
    page was drawn with (nor an empty box, refused)."""
    table = seed_table(live_server.app, ["Ana", "Bo", "Cy"], 6)
    joins(player, table.join, "Bo")
    posts(player, 12)
    player.get_by_label("Points left in my hand").fill("13")
    player.reload()
    player.get_by_role("button", name="Change my hand").click()
    expect(player.locator(".post-state")).to_contain_text("Posted: 13 points")
    expect(player.locator(".kept-hand")).to_have_count(0)


def test_a_refused_save_that_filled_a_box_with_the_new_post_keeps_it_there(
    two_phones: tuple[Page, Page], live_server
) -> None:
    """A tester's HIGH: Bo posts 6, the scorekeeper types 6 in Bo's box (the same value: not
    typed over, "posted"), Bo posts 2 before the poll shows it, Save is refused and the form
    comes back with 2 in Bo's box and "the form holds their new hand now" under it; the page's
    kept typing put the 6 back over it (the words false) and the next Save overruled Bo. The
    box holds the 2 the words name, and the second Save saves 2 as Bo posted."""
    keeper, bo = two_phones
    bo_box = bo_joined(keeper, bo, live_server)
    mark = hand(keeper, "Bo").locator(".post-mark")
    posts(bo, 6)
    expect(bo_box).to_have_value("6")
    bo_box.fill("6")
    expect(mark).to_have_class(re.compile(r"\bposted\b"))
    posts_unseen_and_saves(keeper, bo, 2)
    expect(hand(keeper, "Bo")).to_contain_text("the form holds their new hand now")
    keeper.wait_for_timeout(500)  # the kept typing's restore has run
    expect(bo_box).to_have_value("2")
    expect(mark).to_have_class(re.compile(r"\bposted\b"))
    keeper.get_by_role("button", name="Save round").last.click()
    expect(keeper.locator("#round-title")).to_have_text(re.compile(r"^Round 2 of"))
    taken = bo.locator("#hand-live .taken")
    expect(taken).to_contain_text("2 points (as you posted)")
    expect(taken).not_to_contain_text("You posted")
