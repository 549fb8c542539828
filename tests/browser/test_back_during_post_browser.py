"""Back tapped while a hand's post is on its way (a tester's finding at 360 x 740): the server
took the hand (303, the scorekeeper's row shows it), but the page Back led to, the game's
join page, said it was "Not sent yet … Kept on this phone" until reloaded.

Loaded afresh (as headless Chromium loads the no-store join page), that page's send pass
(static/js/offline.js, at load) posts the entry again with its Idempotency-Key, the server
answers it as saved and it leaves. Restored from the browser's back-forward cache there is no
load, and so no send pass until offline.js's next retry (15 s), the card saying "not sent yet"
meanwhile: static/js/waiting.js runs that pass at such a pageshow."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.table_screen import seed_table
from tests.browser.test_repost_and_reload_browser import joins
from tests.browser.test_waiting_hand_after_lost_session_browser import posted

pytestmark = pytest.mark.browser

#: a hand post of the phone's own seat (its form's action)
HAND_POST = re.compile(r"/p/[\w-]+\?seat=")


def boris_posts_7_and_taps_back_before_the_answer(
    phone: Page, live_server, cut_after: bool = False
) -> list[str]:
    """Boris posts 7; the server takes it, its answer never reaches the page; Back to the join
    page. ``cut_after``: the next hand POST (the join page's send pass at load) finds no
    connection. Returns the hand POSTs that reached the server after the first."""
    table = seed_table(live_server.app, ["Ann", "Boris", "Cho"], 6)
    joins(phone, table.join, "Boris")
    tries: list[str] = []
    later: list[str] = []

    def held(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        tries.append(route.request.url)
        if len(tries) == 1:
            route.fetch(max_redirects=0)  # taken by the server; the page never hears back
        elif len(tries) == 2 and cut_after:
            route.abort("internetdisconnected")
        else:
            later.append(route.request.url)
            route.continue_()

    phone.route(HAND_POST, held)
    phone.get_by_label("Points left in my hand").fill("7")
    phone.get_by_role("button", name="Post my hand").click()
    for _ in range(100):
        if posted(live_server, table.id) == [7]:
            break
        phone.wait_for_timeout(100)
    assert posted(live_server, table.id) == [7]
    phone.go_back()
    phone.wait_for_url(re.compile(r"/j/[\w-]+$"))
    return later


def test_the_join_page_loaded_afresh_sends_it_again_and_it_leaves(
    small_phone: Page, live_server
) -> None:
    later = boris_posts_7_and_taps_back_before_the_answer(small_phone, live_server)
    expect(small_phone.locator("#waiting-hands")).to_be_hidden(timeout=4000)
    assert len(later) == 1  # sent again once, with its key: answered as saved
    assert small_phone.evaluate("() => window.cfc.load().length") == 0


def test_the_join_page_restored_from_the_back_forward_cache_sends_it_at_once(
    small_phone: Page, live_server
) -> None:
    """A restored page runs no load: no send pass since the hand was kept. The join page's
    pass at load finds no connection here, to stand for that (the card says "Not sent yet");
    the pageshow of a restore (persisted) sends it, and the card leaves, well before
    offline.js's next try (15 s)."""
    phone = small_phone
    later = boris_posts_7_and_taps_back_before_the_answer(phone, live_server, cut_after=True)
    card = phone.locator("#waiting-hands")
    expect(card).to_be_visible()
    phone.evaluate(
        "() => window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }))"
    )
    expect(card).to_be_hidden(timeout=4000)
    assert len(later) == 1
    assert phone.evaluate("() => window.cfc.load().length") == 0
