"""What fresh testers found in the scorekeeper's outbox (static/js/offline.js), at 360 x 740:
its list of a queued round reads like the saved round's summary ("Who started: Bob", "Cho
(went out)"); a round saved meanwhile is compared once, not in the outbox and the round area
both, one column at 360 px; its "Put mine back in the form" goes through the server's rule
(the round as saved now, only this phone's seats put back); an entry queued before "went out"
lost its value attribute still ticks it; a correction sent from the outbox resolves the kept
typing it was opened with, as the online Save does."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from companion.extensions import db
from companion.models import Game
from companion.services.round_check import HandEntry, RoundEntry, check_round
from companion.services.round_plan import load_game
from companion.services.round_store import edit_round
from tests.browser.table_screen import FOUR, seed_table
from tests.browser.test_entries_kept_browser import keeper_saves, repost
from tests.browser.test_table_screen_browser import open_game, small_phone
from tests.browser.test_table_sizes_browser import hand
from tests.browser.test_unsaid_typing_browser import typed_then_saved_elsewhere, waiting

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser


def offline_save(page: Page, live_server, fill, meanwhile=lambda: None) -> None:
    """Without a connection: ``fill(page)``, then tap Save; the entry waits, and
    ``meanwhile()`` happens before the connection is back (back, the outbox sends at once:
    Chromium fires the page's "online" event as ``set_offline(False)`` returns, and the
    answered send reloads the page; an "online" dispatched by the test as well raced that
    reload: "Execution context was destroyed")."""
    try:
        live_server.wifi.cut = True
        page.context.set_offline(True)
        fill(page)
        page.locator("#round-form .actions button[type=submit]").click()
        expect(page.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
        meanwhile()
    finally:
        live_server.wifi.cut = False
        page.context.set_offline(False)


def keeper_corrects(app: Flask, game_id: int, totals: dict[str, int | None]) -> None:
    """Another scorekeeper's phone corrects the first round to ``totals`` (None: went out)."""
    with app.test_request_context():
        game = load_game(db.session.get(Game, game_id))
        rnd = game.rounds[0]
        hands = [
            HandEntry(
                seat=s,
                total="" if totals[s.player.name] is None else str(totals[s.player.name]),
                went_out=totals[s.player.name] is None,
            )
            for s in game.seats
        ]
        scored, errors = check_round(game, RoundEntry(double=rnd.start_double, hands=hands))
        assert scored is not None, errors
        assert edit_round(game, rnd, scored, str(game.version))
        db.session.remove()


@pytest.mark.parametrize(
    ("lang", "out", "started"),
    [
        ("en", "Cho (went out)", "Who started: Bob"),
        ("de", "Cho (alle abgelegt)", "Wer hat angefangen: Bob"),
    ],
)
def test_the_outbox_says_a_round_as_its_saved_summary_does(
    small_phone: Page, live_server, lang: str, out: str, started: str
) -> None:
    table = seed_table(live_server.app, FOUR, 6)
    small_phone.set_extra_http_headers({"Accept-Language": lang})
    open_game(small_phone, table.edit)

    def fill(page: Page) -> None:
        for name, points in (("Ann", 3), ("Bob", 4), ("Dee", 6)):
            hand(page, name).get_by_role("textbox").fill(str(points))
        hand(page, "Cho").locator("input[name^=out_]").check()
        page.locator("select[name=starter]").select_option(label="Bob")

    def while_it_waits() -> None:
        # read offline: back online the outbox sends it at once and the page reloads (the
        # full run of 2026-12-07 found the entry gone under load, read after the reload)
        own = small_phone.locator("#outbox .outbox-own li")
        expect(own).to_have_count(5)
        expect(own.nth(2)).to_have_text(out)
        expect(own.nth(4)).to_have_text(started)  # its own line: not how the round ended
        expect(own.nth(0)).to_have_text("Ann: 3")

    offline_save(small_phone, live_server, fill, meanwhile=while_it_waits)


def typed(totals: dict[str, int], out: str) -> Callable[[Page], None]:
    """The filling of the round form: ``totals`` typed (points), ``out`` went out."""

    def fill(page: Page) -> None:
        for name, points in totals.items():
            page.get_by_label(f"Points for {name}").fill(str(points))
        page.get_by_role("group", name=out, exact=True).get_by_label("Went out").check()

    return fill


def saved_meanwhile(page: Page, live_server) -> int:
    """A round this phone saved offline (Ann went out, Bob 4, Cho 5, Dee 6) that another
    scorekeeper's phone saved meanwhile with Bob 9; back online, the outbox shows it: the
    game's id."""
    table = seed_table(live_server.app, FOUR, 6)
    open_game(page, table.edit)
    fill = typed({"Bob": 4, "Cho": 5, "Dee": 6}, out="Ann")

    def meanwhile() -> None:
        # the live poll would find the round saved and Save it once more (table.js): a second
        # entry of it, racing the outbox's own send
        page.route("**/posts?*", lambda route: route.abort())
        keeper_saves(live_server.app, table.id, {"Ann": None, "Bob": 9, "Cho": 5, "Dee": 6})

    offline_save(page, live_server, fill, meanwhile=meanwhile)
    expect(page.locator("#outbox .outbox-entry")).to_contain_text("Saved meanwhile")
    # kept.js (the phone's typing of that round, kept aside) has had its say
    page.wait_for_function("() => window.cfcLater && window.cfcLater.keptOn")
    page.wait_for_load_state("networkidle")
    return table.id


def test_a_round_saved_meanwhile_is_compared_once_in_one_column(
    small_phone: Page, live_server
) -> None:
    saved_meanwhile(small_phone, live_server)
    # said once: the entry's own words, not also the server's red box
    expect(small_phone.get_by_text("Saved meanwhile, with other values")).to_have_count(1)
    expect(small_phone.get_by_text("already saved on another phone")).to_have_count(0)
    expect(small_phone.locator("h2, h3").filter(has_text="Saved: the round with")).to_have_count(1)
    # at 360 px: what is saved above this phone's values, each the card's whole width
    entry = small_phone.locator("#outbox .outbox-entry")
    theirs = entry.locator(".outbox-answer").bounding_box()
    mine = entry.locator(".outbox-own").bounding_box()
    assert theirs and mine
    assert mine["y"] >= theirs["y"] + theirs["height"], (theirs, mine)
    assert mine["width"] >= 250 and theirs["width"] >= 250, (theirs, mine)
    # removed from this phone: its kept typing of the round goes with it (not compared in the
    # round area from then on)
    small_phone.once("dialog", lambda dialog: dialog.accept())
    entry.get_by_role("button", name="Forget what this phone had").click()
    expect(small_phone.locator("#outbox")).to_have_count(0)
    assert waiting(small_phone) == 0
    small_phone.reload()
    expect(small_phone.locator("#round-area form.round-form")).to_be_visible()
    small_phone.wait_for_load_state("networkidle")
    expect(small_phone.locator("ul.saved-hands.mine")).to_have_count(0)


def test_put_mine_back_from_the_outbox_keeps_a_correction_made_since(
    small_phone: Page, live_server
) -> None:
    """The outbox's Put mine back opens the round as saved now with this phone's own seat
    (Bob's 4) put back: Cho's 7, corrected on another phone since, stays (the server's rule,
    companion/games/play.py _put_back), and the correction's Save resolves the kept typing."""
    app = live_server.app
    game_id = saved_meanwhile(small_phone, live_server)
    keeper_corrects(app, game_id, {"Ann": None, "Bob": 9, "Cho": 7, "Dee": 6})
    entry = small_phone.locator("#outbox .outbox-entry")
    expect(entry.get_by_role("link", name="Open the round as saved")).to_be_visible()
    entry.get_by_role("button", name="Put mine back in the form").click()
    expect(small_phone.locator("#round-title")).to_contain_text("Correct the round with 6-6")
    expect(hand(small_phone, "Bob").get_by_role("textbox")).to_have_value("4")
    expect(hand(small_phone, "Cho").get_by_role("textbox")).to_have_value("7")
    small_phone.get_by_role("button", name="Save the correction").click()
    expect(small_phone.locator("#round-area .flash.success")).to_contain_text("corrected")
    expect(small_phone.locator("#outbox")).to_have_count(0)  # the entry resolved too
    small_phone.reload()
    expect(small_phone.locator("#round-area form.round-form")).to_be_visible()
    small_phone.wait_for_load_state("networkidle")
    assert waiting(small_phone) == 0
    expect(small_phone.locator("ul.saved-hands.mine")).to_have_count(0)


def test_an_entry_queued_with_went_out_as_y_is_put_back_ticked(
    small_phone: Page, live_server
) -> None:
    """Entries queued before the last release posted "went out" as ``y`` (the tick had
    value="y"; now it has none, "on"): the outbox's own Put mine back ticks it too."""
    table = seed_table(live_server.app, FOUR, 6)
    open_game(small_phone, table.edit)
    small_phone.evaluate(
        """() => {
          const form = document.querySelector("#round-form");
          const seat = name => [...form.querySelectorAll("fieldset.hand")]
            .find(f => f.querySelector("legend").textContent.trim() === name)
            .querySelector("input[name^=out_]").name.slice(4);
          const fields = [["double", form.querySelector("[name=double]").value],
            ["out_" + seat("Cho"), "y"], ["total_" + seat("Bob"), "4"]];
          localStorage.setItem("cfc-outbox", JSON.stringify([{key: "old",
            url: form.getAttribute("action"), page: location.pathname,
            label: "The round with 6-6", fields: fields,
            own: ["Bob: 4", "Cho: Went out"], keeper: true, state: "refused",
            answer: "<p>Not accepted</p>", at: new Date().toISOString()}]));
        }"""
    )
    small_phone.reload()
    small_phone.locator("#outbox").get_by_role("button", name="Put mine back in the form").click()
    expect(hand(small_phone, "Bob").get_by_role("textbox")).to_have_value("4")
    expect(hand(small_phone, "Cho").get_by_label("Went out")).to_be_checked()


def test_a_correction_sent_from_the_outbox_resolves_the_kept_typing(
    small_phone: Page, live_server
) -> None:
    """Put mine back, Bob's 5 changed to 9 in the correction, saved without a connection: the
    outbox sends it later (answered by a redirect) and the kept 5 is resolved all the same,
    not compared once more ("Bob: 5 (saved: 9)")."""
    table = typed_then_saved_elsewhere(small_phone, live_server.app, "5")
    small_phone.get_by_role("button", name="Put mine back in the form").click()
    expect(hand(small_phone, "Bob").get_by_role("textbox")).to_have_value("5")
    offline_save(
        small_phone, live_server, lambda page: hand(page, "Bob").get_by_role("textbox").fill("9")
    )
    small_phone.wait_for_url(f"**/g/{table.edit}")  # sent: the outbox opens the game page
    expect(small_phone.locator("#round-area form.round-form")).to_be_visible()
    small_phone.wait_for_function("() => window.cfcLater && window.cfcLater.keptOn")
    small_phone.wait_for_load_state("networkidle")
    expect(small_phone.locator("#outbox")).to_have_count(0)
    expect(small_phone.locator("ul.saved-hands.mine")).to_have_count(0)
    assert waiting(small_phone) == 0
    small_phone.reload()
    expect(small_phone.locator("#round-area form.round-form")).to_be_visible()
    small_phone.wait_for_load_state("networkidle")
    expect(small_phone.locator("ul.saved-hands.mine")).to_have_count(0)


def test_a_round_refused_as_saved_twice_is_one_entry(small_phone: Page, live_server) -> None:
    """The live poll, finding the round saved as the outbox sent it, Saves it once more; the
    reload cuts that request short and the next page sends it again: refused as saved too, it
    is the round's comparison from then on, not a second entry of the same round."""
    table = seed_table(live_server.app, FOUR, 6)
    open_game(small_phone, table.edit)
    small_phone.get_by_label("Points for Bob").fill("4")
    small_phone.evaluate(
        """() => {
          const form = document.querySelector("#round-form");
          const entry = (key, state, saved) => ({key: key, url: form.getAttribute("action"),
            page: location.pathname, label: "The round with 6-6", fields: [...new FormData(form)],
            own: ["Bob: 4"], keeper: true, state: state, saved: saved,
            answer: saved ? '<section class="card saved"><h2>Saved</h2></section>' : "",
            at: new Date().toISOString()});
          localStorage.setItem("cfc-outbox", JSON.stringify(
            [entry("1" + crypto.randomUUID().slice(1), "conflict", true),
             entry("2" + crypto.randomUUID().slice(1), "sending", false)]));
        }"""
    )
    # the live poll stopped first: finding the round saved, it would Save Bob's 4 once more
    # (table.js), a third entry of the round, cut short by the reload too
    small_phone.route("**/posts?*", lambda route: route.abort())
    keeper_saves(live_server.app, table.id, {"Ann": None, "Bob": 9, "Cho": 5, "Dee": 6})
    small_phone.reload()  # the entry left "sending" is sent: refused, the round saved
    entries = small_phone.locator("#outbox .outbox-entry")
    # (its title: the answer's heading)
    expect(entries.locator("h3", has_text="Saved: the round with")).to_have_count(1)
    expect(entries).to_have_count(1)
    assert small_phone.evaluate(
        "() => JSON.parse(localStorage.getItem('cfc-outbox')).map(e => e.key[0])"
    ) == ["2"]


def test_a_save_refused_over_a_hand_changed_on_a_phone_says_so_once(
    small_phone: Page, live_server
) -> None:
    """A tester's finding: the scorekeeper saved offline (Ann 9, Bob 5, Cho went out) while Bob
    posted 8 from his phone; back online the entry said "Not saved: the game changed on
    another phone meanwhile. Here is what is saved, beside what this phone has." over the
    server's "Nothing was saved yet", and showed no saved values. Now one message, the
    server's, says the round is not saved and names Bob's 8 beside this phone's 5."""
    table = seed_table(live_server.app, FOUR, 6)
    open_game(small_phone, table.edit)
    offline_save(
        small_phone,
        live_server,
        typed({"Ann": 9, "Bob": 5, "Dee": 7}, out="Cho"),
        meanwhile=lambda: repost(live_server.app, table.id, "Bob", 8),
    )
    entry = small_phone.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "conflict")
    expect(entry.locator(".outbox-answer")).to_have_text(
        "The round is not saved yet: after this form was filled, Bob changed their hand on "
        "their phone (now: 8 points; this phone: 5 points). Check it, then save again: the "
        "round is saved as the form shows it."
    )
    expect(entry.get_by_text("Here is what is saved")).to_have_count(0)
    expect(entry.get_by_text("Nothing was saved yet")).to_have_count(0)
    expect(entry.locator(".outbox-own")).to_contain_text("Bob: 5")


def test_put_mine_back_makes_only_the_posts_its_refusal_named_typed_over(
    small_phone: Page, live_server
) -> None:
    """A tester's finding: "Put mine back" turned every row marked "changed on their phone"
    into "typed over their post", a post made after the refusal too (Bob's 10 here, which the
    scorekeeper was never told of by it). The rows the refusal named (Bob's 8, Dee's 4) become
    "typed over"; a post newer than the refusal stays "changed on their phone"."""
    table = seed_table(live_server.app, FOUR, 6)
    open_game(small_phone, table.edit)

    def meanwhile() -> None:
        repost(live_server.app, table.id, "Bob", 8)
        repost(live_server.app, table.id, "Dee", 4)

    offline_save(
        small_phone, live_server, typed({"Ann": 9, "Bob": 5, "Dee": 7}, out="Cho"), meanwhile
    )
    entry = small_phone.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "conflict")
    repost(live_server.app, table.id, "Bob", 10)  # after the refusal
    bob, dee = (hand(small_phone, n).locator(".post-mark") for n in ("Bob", "Dee"))
    expect(bob).to_contain_text("10 points")  # the poll shows it
    entry.get_by_role("button", name="Put mine back in the form").click()
    expect(small_phone.get_by_label("Points for Dee")).to_have_value("7")
    expect(dee).to_have_text(re.compile(r"^typed over their post .*: 4 points$"))
    expect(bob).to_have_text(re.compile(r"^changed on their phone .*: 10 points$"))
    expect(small_phone.get_by_label("Points for Bob")).to_have_value("5")
