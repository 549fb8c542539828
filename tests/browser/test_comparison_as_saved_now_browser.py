"""A comparison of this phone's values with a round saved meanwhile shows the round as it is
saved NOW, and is asked for once, at 360 x 740 (fresh testers' MED B and LOW E): the outbox's
card of a round corrected since on another phone used to keep the answer it was given once
("Saved: Bob 9" after Bob was corrected to 12), and the scorekeeper's kept typing of a saved
round was posted again on every page load (a 409 in the console each time) until forgotten.
The page says which rounds are saved and as what (templates/games/_rounds_saved.html,
data-plays): a comparison is asked for again only when its round changed since."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_outbox_words_and_put_back_browser import keeper_corrects, saved_meanwhile
from tests.browser.test_table_screen_browser import small_phone
from tests.browser.test_table_sizes_browser import hand
from tests.browser.test_unsaid_typing_browser import typed_then_saved_elsewhere, waiting

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def posts_of_rounds(page: Page) -> list[str]:
    """The round saves (``/round`` posts) the page sends from now on, and the 409s it logs."""
    sent: list[str] = []
    page.on(
        "request",
        lambda r: sent.append(r.url) if r.method == "POST" and r.url.endswith("/round") else None,
    )
    page.on("console", lambda m: sent.append(m.text) if "409" in m.text else None)
    return sent


def settled(page: Page) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1000)


def test_the_outbox_card_shows_the_round_as_saved_now(small_phone: Page, live_server) -> None:
    page = small_phone
    game_id = saved_meanwhile(page, live_server)  # this phone: Bob 4; saved: Bob 9
    entry = page.locator("#outbox .outbox-entry")
    expect(entry.locator(".outbox-answer")).to_contain_text("Bob: 9")
    keeper_corrects(live_server.app, game_id, {"Ann": None, "Bob": 12, "Cho": 5, "Dee": 6})
    page.reload()
    expect(entry.locator(".outbox-answer")).to_contain_text("Bob: 12")
    expect(entry.locator(".outbox-answer")).not_to_contain_text("Bob: 9")
    expect(entry.locator(".outbox-own")).to_contain_text("Bob: 4")
    settled(page)
    sent = posts_of_rounds(page)
    page.reload()  # asked once: the next page shows it without asking again
    expect(entry.locator(".outbox-answer")).to_contain_text("Bob: 12")
    settled(page)
    assert sent == []
    # Put mine back: the round as saved now, Bob's 4 back in it, nothing "changed since"
    entry.get_by_role("button", name="Put mine back in the form").click()
    expect(page.locator("#round-title")).to_contain_text("Correct the round with 6-6")
    expect(hand(page, "Bob").get_by_role("textbox")).to_have_value("4")
    expect(page.locator("#round-area .flash.error")).to_have_count(0)


def test_an_outbox_card_of_a_round_corrected_to_this_phones_values_is_resolved(
    small_phone: Page, live_server
) -> None:
    page = small_phone
    game_id = saved_meanwhile(page, live_server)
    keeper_corrects(live_server.app, game_id, {"Ann": None, "Bob": 4, "Cho": 5, "Dee": 6})
    page.reload()
    expect(page.locator("#outbox")).to_have_count(0)
    # said among the page's notices: saved, with what was saved (this phone's values)
    said = page.locator("#flashes")
    expect(said).to_contain_text("already saved")
    expect(said).to_contain_text("Bob: 4")
    assert page.evaluate("() => JSON.parse(localStorage.getItem('cfc-outbox') || '[]')") == []
    settled(page)
    page.reload()
    settled(page)
    expect(page.locator("#outbox, #flashes .card.saved, ul.saved-hands.mine")).to_have_count(0)
    assert waiting(page) == 0


def test_kept_typing_answered_as_saved_is_sent_once_and_asked_again_when_corrected(
    small_phone: Page, live_server
) -> None:
    page = small_phone
    app = live_server.app
    table = typed_then_saved_elsewhere(page, app, "5")  # Bob 5 here; saved: Bob 12
    mine = page.locator("ul.saved-hands.mine")
    expect(mine).to_contain_text("saved: 12")
    settled(page)
    sent = posts_of_rounds(page)
    page.reload()
    expect(mine).to_contain_text("Bob: 5")
    expect(mine).to_contain_text("saved: 12")
    settled(page)
    assert sent == []  # not posted again, no 409 in the console
    expect(mine).to_have_count(1)

    # corrected on another phone: compared once more, with the round as saved now
    keeper_corrects(app, table.id, {"Ann": 7, "Bob": 9, "Cho": None})
    page.reload()
    expect(mine).to_contain_text("saved: 9")
    settled(page)
    sent.clear()
    page.reload()
    expect(mine).to_contain_text("saved: 9")
    settled(page)
    assert sent == []
    # Put mine back and Forget still work on the comparison shown from the phone
    page.get_by_role("button", name="Put mine back in the form").click()
    expect(hand(page, "Bob").get_by_role("textbox")).to_have_value("5")
    page.get_by_role("link", name="Cancel").click()
    expect(mine).to_contain_text("Bob: 5")

    # corrected to what this phone had: nothing left to compare, dropped
    keeper_corrects(app, table.id, {"Ann": 7, "Bob": 5, "Cho": None})
    page.reload()
    expect(page.locator("#round-area form.round-form")).to_be_visible()
    settled(page)
    expect(mine).to_have_count(0)
    assert waiting(page) == 0


class Compared(NamedTuple):
    """A comparison this phone shows, and the correction another phone makes of its round next."""

    game_id: int
    card: str  #: where the comparison is shown (a CSS selector)
    correction: dict[str, int | None]  #: the round as the other phone corrects it
    corrected: str  #: a line of the saved round once corrected
    listed: list[str]  #: "On this phone:" (the outbox's card lists every value of its entry)
    put_back: dict[str, str]  #: the correction "Put mine back" opens then: name -> box


def from_the_outbox(page: Page, live_server) -> Compared:
    """A Save sent from the outbox (offline.js recheck): this phone had Bob 4, Dee 6; another
    phone saved the round first with Bob 9, Dee 6; then it corrects Dee to 11."""
    game_id = saved_meanwhile(page, live_server)
    return Compared(
        game_id,
        "#outbox .outbox-entry",
        {"Ann": None, "Bob": 9, "Cho": 5, "Dee": 11},
        "Dee: 11",
        [],
        {"Bob": "4", "Dee": "11"},
    )


def from_kept_typing(page: Page, live_server) -> Compared:
    """Kept typing (kept.js compare): this phone typed Ann 7, Bob 5 and closed the tab; the
    round saved itself with Ann 7, Bob 12; then another phone corrects Ann to 10."""
    table = typed_then_saved_elsewhere(page, live_server.app, "5", ann="7")
    expect(page.locator("ul.saved-hands.mine")).to_have_text("Bob: 5 points (saved: 12 points)")
    return Compared(
        table.id,
        "#round-area [data-kept]",
        {"Ann": 10, "Bob": 12, "Cho": None},
        "Ann: 10",
        ["Bob: 5 points (saved: 12 points)"],
        {"Ann": "10", "Bob": "5"},
    )


@pytest.mark.parametrize("compared", [from_the_outbox, from_kept_typing], ids=["outbox", "kept"])
def test_a_comparison_asked_again_puts_back_only_what_was_this_phones(
    small_phone: Page, live_server, compared: Callable[[Page, Any], Compared]
) -> None:
    """Asked again after a correction on another phone, a comparison carries the seats its
    first answer named this phone's (``put_back``: offline.js window.cfc.withPutBack):
    the seat that agreed then and was corrected since is that phone's correction, not listed
    as this phone's, and Put mine back keeps it (was: the re-ask named every typed seat that
    differed now, and Put mine back undid the other phone's correction)."""
    page = small_phone
    asked = compared(page, live_server)
    card = page.locator(asked.card)
    expect(card.locator("input[name=put_back]")).to_have_count(1)  # the one seat that differed
    keeper_corrects(live_server.app, asked.game_id, asked.correction)
    page.reload()
    expect(card).to_contain_text(asked.corrected)  # asked again: the round as saved now
    expect(card.locator("input[name=put_back]")).to_have_count(1)
    expect(card.locator("ul.saved-hands.mine li")).to_have_text(asked.listed)
    card.get_by_role("button", name="Put mine back in the form").click()
    expect(page.locator("#round-title")).to_contain_text("Correct the round with")
    for name, value in asked.put_back.items():
        expect(hand(page, name).get_by_role("textbox")).to_have_value(value)
    expect(page.locator("#round-area .flash.error")).to_have_count(0)
