"""One tap is one POST (docs/OFFLINE.md, "The outbox"), at 360 x 740. static/js/offline.js
sends a plain outbox form (a player's hand) itself, with its idempotency key; an answer other
than a redirect (a 422, a 409 for a round saved meanwhile) used to be shown by posting the form
once more, natively, with the same key (the server replayed its answer): two requests per tap,
twice the server's work and a second answer in the network log. Now the answer of the one post
is shown as the browser shows a page: at its address, its scripts run (htmx, hand.js), and a
reload asks for it with GET (nothing posted again)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, Request, expect

from tests.browser.table_screen import seed_table
from tests.browser.test_post_for_a_saved_round_browser import (
    at_round_one,
    post_statuses,
    saves_round_one,
)
from tests.browser.test_repost_and_reload_browser import joins

pytestmark = pytest.mark.browser

HAND_URL = re.compile(r"/p/[\w-]+(\?seat=\d+)?$")
CDN = "https://cdn.jsdelivr.net/**"
LOCAL_HTMX = Path(__file__).parents[2] / "static" / "vendor" / "htmx.min.js"


def counts_posts(page: Page, url: re.Pattern[str]) -> list[str]:
    """The bodies of the POSTs ``page`` sends to an address matching ``url``, as sent."""
    sent: list[str] = []

    def seen(r: Request) -> None:
        if r.method == "POST" and url.search(r.url):
            sent.append(r.post_data or "")

    page.on("request", seen)
    return sent


def runs_as_loaded(page: Page, stalled: bool = False) -> None:
    """The page's scripts ran as on a load: htmx took the live part, hand.js keeps typing
    (not while the CDN stalls: hand.js comes after it, as on any load of the page)."""
    page.wait_for_function("() => window.htmx !== undefined")
    page.wait_for_function(
        "() => !!document.querySelector('#hand-live')['htmx-internal-data']", timeout=5_000
    )
    if stalled:
        return
    page.get_by_label("Points left in my hand").fill("7")
    page.wait_for_function(
        "() => Object.keys(localStorage).some(k => k.startsWith('cfc-hand-typed:')"
        " && localStorage.getItem(k).includes('\"7\"'))"
    )


def test_a_player_post_is_one_request(two_phones: tuple[Page, Page], live_server) -> None:
    _, ann = two_phones
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    joins(ann, table.join, "Ann")
    sent = counts_posts(ann, HAND_URL)
    ann.get_by_label("Points left in my hand").fill("12")
    ann.get_by_role("button", name="Post my hand").click()
    expect(ann.locator(".post-state")).to_contain_text("Posted: 12 points")
    ann.wait_for_timeout(1000)
    assert len(sent) == 1, sent


@pytest.mark.parametrize("cdn", ["blocked", "served", "stalled"])
def test_a_refused_post_is_one_request_its_answer_shown_as_a_page(
    two_phones: tuple[Page, Page], live_server, cdn: str
) -> None:
    """An empty Post is refused (422): the page says why, at the hand page's address, its
    scripts run, htmx with them whether the CDN's copy is blocked (the local copy the page
    already runs takes the new page), served (its new copy does) or stalls on the answer
    page (the copy the page runs, after 3 s); a reload is a GET (no re-post)."""
    _, ann = two_phones
    if cdn == "served":  # the CDN's copy, with its CORS header (crossorigin="anonymous")
        ann.route(
            CDN,
            lambda route: route.fulfill(
                body=LOCAL_HTMX.read_bytes(),
                content_type="text/javascript",
                headers={"Access-Control-Allow-Origin": "*"},
            ),
        )
    elif cdn == "blocked":
        ann.route(CDN, lambda route: route.abort())
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    joins(ann, table.join, "Ann")
    vendor = "() => !!document.querySelector('script[src*=\"/static/vendor/\"]')"
    assert ann.evaluate(vendor) is (cdn != "served")
    if cdn == "stalled":  # the answer page's CDN request is held, never answered
        ann.route(CDN, lambda route: None)
    address = ann.url
    sent = counts_posts(ann, HAND_URL)
    answers = post_statuses(ann, HAND_URL)
    ann.get_by_role("button", name="Post my hand").click()
    expect(ann.locator(".flash.error, .error")).not_to_have_count(0)
    ann.wait_for_timeout(1000)
    assert len(sent) == 1, sent
    assert answers == [422]
    assert ann.url.split("?")[0] == address  # (the form's address names its seat)
    runs_as_loaded(ann, stalled=cdn == "stalled")
    if cdn == "stalled":  # the CDN fails at last: the page's load comes, the reload's too
        ann.unroute(CDN)
        ann.route(CDN, lambda route: route.abort())
    ann.reload()
    ann.wait_for_function("() => window.htmx !== undefined")
    ann.wait_for_timeout(500)
    assert len(sent) == 1, sent  # a reload asks with GET
    expect(ann.locator("#hand-form")).to_be_visible()


def test_a_post_for_a_saved_round_is_one_request(
    two_phones: tuple[Page, Page], live_server
) -> None:
    """A 409 (the round saved meanwhile, Ann's poll late): one POST, its answer said once."""
    keeper, ann = two_phones
    at_round_one(keeper, ann, live_server)
    sent = counts_posts(ann, HAND_URL)
    ann.route(re.compile(r"/p/[\w-]+/live"), lambda route: route.abort())
    ann.get_by_label("Points left in my hand").fill("9")
    saves_round_one(keeper, 8)
    ann.get_by_role("button", name="Post my hand").click()
    expect(ann.locator("#post-title")).to_contain_text("5-5", timeout=10_000)
    ann.wait_for_timeout(1500)
    expect(ann.get_by_text("The round with 6-6 was already saved")).to_have_count(1)
    assert len(sent) == 1, sent
    assert HAND_URL.search(ann.url)
    ann.unroute(re.compile(r"/p/[\w-]+/live"))
    runs_as_loaded(ann)
    ann.reload()
    ann.wait_for_function("() => window.htmx !== undefined")
    ann.wait_for_timeout(1000)
    assert len(sent) == 1, sent


def test_the_scorekeepers_save_is_one_request(two_phones: tuple[Page, Page], live_server) -> None:
    """The round form is posted by htmx (offline.js only adds its key): one POST too."""
    keeper, ann = two_phones
    at_round_one(keeper, ann, live_server)
    sent = counts_posts(keeper, re.compile(r"/g/[\w-]+/"))
    saves_round_one(keeper, 8)
    keeper.wait_for_timeout(1000)
    assert len(sent) == 1, sent
