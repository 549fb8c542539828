"""A post for a round just saved, at a table of two phones at 360 x 740 (docs/TABLE.md, "A post
for a round just saved is answered"): the scorekeeper saved the round with 6-6 (Ann 8, typed
by the scorekeeper) while Ann typed 9 on her phone; her page moved to the next round before
her Post landed. Her Post was refused twice (422) with "Type the points left in your hand…"
on the next round's empty box, her 9 was gone, and "Taken into the round …" named an older
round. Now the page says the round with 6-6 was already saved, with 8 for her as the
scorekeeper entered it, beside her 9, and the "… round …" line names the round just saved.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_screen import seed_table
from tests.browser.test_repost_and_reload_browser import joins
from tests.browser.test_table_sizes_browser import hand

pytestmark = pytest.mark.browser

HAND_URL = re.compile(r"/p/[\w-]+(\?seat=\d+)?$")


def post_statuses(page: Page, url: re.Pattern[str]) -> list[int]:
    """The HTTP statuses of the POSTs ``page`` sends to ``url`` from now on (filled as they
    come)."""
    statuses: list[int] = []
    page.on(
        "response",
        lambda r: (
            statuses.append(r.status) if r.request.method == "POST" and url.search(r.url) else None
        ),
    )
    return statuses


def at_round_one(keeper: Page, ann: Page, live_server) -> None:
    """A new double-6 game of Ann, Bob and Cho, Ann joined: both phones at its first round."""
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    joins(ann, table.join, "Ann")
    keeper.goto(f"/g/{table.edit}")
    keeper.wait_for_function("() => window.htmx !== undefined")
    expect(ann.locator("#post-title")).to_contain_text("6-6")


def saves_round_one(keeper: Page, ann_points: int) -> None:
    hand(keeper, "Ann").get_by_role("textbox").fill(str(ann_points))
    hand(keeper, "Bob").get_by_role("textbox").fill("5")
    hand(keeper, "Cho").get_by_label("Went out").check()
    keeper.get_by_role("button", name="Save round").last.click()
    expect(keeper.locator("#round-title")).to_have_text(re.compile(r"^Round 2 of"))


@pytest.mark.parametrize("typed", [9, 8])
def test_a_post_typed_for_the_round_just_saved_is_answered_not_refused(
    two_phones: tuple[Page, Page], live_server, typed: int
) -> None:
    keeper, ann = two_phones
    answers = post_statuses(ann, HAND_URL)
    at_round_one(keeper, ann, live_server)
    ann.get_by_label("Points left in my hand").fill(str(typed))
    saves_round_one(keeper, 8)
    # Ann's poll sees the round saved and loads the page again: her tap lands on the new page
    expect(ann.locator("#post-title")).to_contain_text("5-5", timeout=10_000)
    ann.get_by_role("button", name="Post my hand").click()
    answer = ann.locator(".kept-answer")
    if typed == 8:  # what was saved: said so, no comparison
        expect(answer).to_contain_text(
            "The round with 6-6 was already saved, with your hand as you typed it."
        )
    else:
        expect(answer).to_contain_text("The round with 6-6 was already saved")
        expect(answer).to_contain_text("Saved: 8 (the scorekeeper entered it)")
        expect(answer).to_contain_text(f"What you typed: {typed}")
        expect(answer).to_contain_text("tell the scorekeeper")
    expect(ann.locator(".flash.error")).to_have_count(0)
    assert 422 not in answers
    expect(ann.locator("#hand-live .taken")).to_contain_text(
        "the round with 6-6: 8 points (the scorekeeper entered it)"
    )


def test_typing_for_the_round_that_ended_the_game_is_answered_on_the_game_over_page(
    two_phones: tuple[Page, Page], live_server
) -> None:
    """The last round (0-0) saved while Ann typed: her page, reloaded to "Game over" (no hand
    form), says what became of her typing instead of dropping it."""
    from companion.extensions import db
    from companion.models import Game
    from tests.web.playkit import add_scored_rounds
    from tests.web.table.test_table import FIRST_SIX

    keeper, ann = two_phones
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    with live_server.app.test_request_context():
        add_scored_rounds(
            db.session.get(Game, table.id),
            [
                {"Ann" if k == "Ann" else ("Cho" if k == "Cy" else k): v for k, v in r.items()}
                for r in FIRST_SIX
            ],
        )
        db.session.remove()
    joins(ann, table.join, "Ann")
    keeper.goto(f"/g/{table.edit}")
    keeper.wait_for_function("() => window.htmx !== undefined")
    expect(ann.locator("#post-title")).to_contain_text("0-0")
    ann.get_by_label("Points left in my hand").fill("9")
    hand(keeper, "Ann").get_by_role("textbox").fill("8")
    hand(keeper, "Bob").get_by_role("textbox").fill("5")
    hand(keeper, "Cho").get_by_label("Went out").check()
    keeper.get_by_role("button", name="Save round").last.click()
    expect(ann.locator("h1")).to_have_text("Game over", timeout=10_000)
    answer = ann.locator(".kept-answer")
    expect(answer).to_contain_text("The round with 0-0 was already saved")
    expect(answer).to_contain_text("Saved: 8 (the scorekeeper entered it)")
    expect(answer).to_contain_text("What you typed: 9")
    expect(ann.get_by_text("Ann's hand")).to_have_count(0)


def test_a_tap_on_post_as_the_round_is_saved_sends_one_post_and_says_it_once(
    two_phones: tuple[Page, Page], live_server
) -> None:
    """Ann's Post tapped 0-300 ms after the scorekeeper saved the round, before her page's poll
    moved on: the tap sent three POSTs (the outbox's, the native post, then the next page's
    saved_only ask), all 409, and the "already saved" answer showed three times (the outbox
    card, the page, the ask's copy); every reload asked again. Now one tap is one post (its
    answer shown as the page), the answer is said once, and a reload sends nothing."""
    keeper, ann = two_phones
    sent: list[str] = []
    ann.on(
        "request",
        lambda r: (
            sent.append(r.post_data or "")
            if r.method == "POST" and HAND_URL.search(r.url)
            else None
        ),
    )
    at_round_one(keeper, ann, live_server)
    ann.route(re.compile(r"/p/[\w-]+/live"), lambda route: route.abort())  # her poll is late
    ann.get_by_label("Points left in my hand").fill("9")
    saves_round_one(keeper, 8)
    ann.get_by_role("button", name="Post my hand").click()
    expect(ann.locator("#post-title")).to_contain_text("5-5", timeout=10_000)
    ann.wait_for_timeout(1500)  # any further post the page would send
    said = ann.get_by_text("The round with 6-6 was already saved")
    expect(said).to_have_count(1)
    expect(ann.get_by_text("Saved: 8 (the scorekeeper entered it)")).to_have_count(1)
    expect(ann.get_by_text("What you typed: 9")).to_have_count(1)
    posts_of_the_tap = [s for s in sent if "saved_only" not in s]
    # the outbox's send, its answer shown as the page (no native post again), no ask
    assert len(posts_of_the_tap) == len(sent) == 1, sent
    expect(ann.locator("#outbox")).to_have_count(0)
    ann.unroute(re.compile(r"/p/[\w-]+/live"))
    # the answer page's hand.js has let the typing go (on a loaded machine it can run after
    # the checks above; a reload before it would ask once more, harmlessly)
    ann.wait_for_function(
        "() => !Object.keys(localStorage).some(k => k.startsWith('cfc-hand-typed:'))"
    )
    before = len(sent)
    ann.reload()
    ann.wait_for_function("() => window.htmx !== undefined")
    ann.wait_for_timeout(1500)
    assert len(sent) == before, sent[before:]  # nothing posted or asked again on a reload
    # seen, it is resolved (as the scorekeeper's Forget): the live line says what was saved
    expect(said).to_have_count(0)
    expect(ann.locator("#outbox")).to_have_count(0)
    expect(ann.locator("#hand-live .taken")).to_contain_text(
        "the round with 6-6: 8 points (the scorekeeper entered it)"
    )
    ann.reload()
    ann.wait_for_timeout(1500)
    assert len(sent) == before, sent[before:]


def test_the_tap_after_an_empty_post_stopped_by_the_answer_posts(
    two_phones: tuple[Page, Page], live_server
) -> None:
    """Ann's Post of the next round's empty box, as the answer about her typing shows, is not
    sent (it was that typing's tap: static/js/hand.js). Her next Post, the new round's hand
    typed, did nothing: the first tap's "sending" mark (static/js/app.js's data-sending, its
    guard against a double tap) stayed on the form. Now it posts."""
    keeper, ann = two_phones
    at_round_one(keeper, ann, live_server)
    ann.get_by_label("Points left in my hand").fill("9")
    saves_round_one(keeper, 8)
    expect(ann.locator("#post-title")).to_contain_text("5-5", timeout=10_000)
    ann.get_by_role("button", name="Post my hand").click()
    expect(ann.locator(".kept-answer")).to_contain_text("The round with 6-6 was already saved")
    ann.get_by_label("Points left in my hand").fill("4")
    ann.get_by_role("button", name="Post my hand").click()
    expect(ann.locator(".post-state")).to_contain_text("Posted: 4 points")
