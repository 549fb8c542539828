"""A hand kept on a phone that can no longer be sent from where the phone is is posted at most
once, not on every page load and every 15 s (tester findings on hands kept on a phone, at
360 x 740).

* Bob's 12 waits offline and the phone loses its session meanwhile: back online it is refused
  as stale (its token is no longer the phone's). The player is on the game's join page, then
  the home page, then joins another game. Its token is refused for good: sent from any page
  but its own (whose fresh token it takes), it was posted again at every load and every 15 s,
  a 400 each time, and nothing shown there. It waits, said where the waiting hands are listed
  with what to do, and is posted from its own page only.
* The same hand of a game that ended meanwhile: every load of a page that did not know the
  game was over (the home page) posted it again, a 400 each. The home page says it was not
  counted, with Forget, and nothing is posted.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_screen import seed_table
from tests.browser.test_kept_hand_findings_browser import NOT_COUNTED, bobs_last_12_refused_as_stale
from tests.browser.test_offline_browser import last_round_saved_and_rematch
from tests.browser.test_repost_and_reload_browser import joins
from tests.browser.test_waiting_hand_after_lost_session_browser import (
    bobs_12_kept_by_a_phone_that_lost_its_session,
    waiting,
)

pytestmark = pytest.mark.browser


def posts_to(player: Page, share: str) -> list[str]:
    """The posts ``player`` makes from now on to the hand page of the game shared as ``share``."""
    posted: list[str] = []
    player.on(
        "request",
        lambda r: posted.append(r.url) if r.method == "POST" and f"/p/{share}" in r.url else None,
    )
    return posted


def test_a_stale_hand_is_not_posted_again_from_other_pages(small_phone: Page, live_server) -> None:
    player = small_phone
    table = bobs_12_kept_by_a_phone_that_lost_its_session(player, live_server)
    posted = posts_to(player, table.share)
    for _ in range(2):  # the join page, loaded again
        player.reload()
        expect(waiting(player)).to_have_count(1)
        player.wait_for_timeout(500)
    player.goto("/")
    expect(waiting(player).locator(".outbox-state")).to_contain_text("To send it, open the game")
    # the player joins another game: its hand page sends what it can, never this hand
    other = seed_table(live_server.app, ["Dee", "Eve", "Fay"], 6)
    joins(player, other.join, "Eve")
    player.reload()
    player.wait_for_timeout(1500)
    assert posted == []


def test_a_stale_hand_of_a_game_over_is_not_posted_on_every_load(
    small_phone: Page, live_server
) -> None:
    player = small_phone
    game, other = bobs_last_12_refused_as_stale(player, live_server)
    last_round_saved_and_rematch(live_server, game, other)
    posted = posts_to(player, game["share"])
    for _ in range(3):
        player.goto("/")
        entry = player.locator("#refused-hands .outbox-entry")
        expect(entry.locator(".outbox-state")).to_have_text(NOT_COUNTED, timeout=20_000)
        expect(entry.get_by_role("button", name="Forget what this phone had")).to_be_visible()
    player.wait_for_timeout(1000)
    assert posted == []
