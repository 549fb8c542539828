"""Installable and offline-tolerant, in Chromium at phone size (issue 14).

A scorekeeper's phone loses the Wi-Fi (``context.set_offline``, and the live server's Wi-Fi
cut too: see ``tests.browser.conftest.Wifi``) and saves a round: the round waits on the phone,
survives a reload made while still offline (the page comes from the service worker's copy,
marked offline with its time), and is saved once when the connection returns.
The same for a player's posted hand. A round another phone saved meanwhile is shown beside
this phone's values. Chromium reports the app installable; the handed-over game's copy is
deleted. Screenshots: test-artifacts/offline-*.png.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from sqlalchemy import func, select

from companion.extensions import db
from companion.models import AuditEntry, Device, Game, GameAccess, HandPost, Round
from tests.browser.conftest import PHONE, LiveServer, serve_app
from tests.browser.seeding import until
from tests.browser.test_pips_browser import read_hand_photo
from tests.browser.test_scorekeeper_browser import KEPT
from tests.web.playkit import add_scored_rounds, make_game, round_post, seat_ids

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Bob", "Cy")
#: the browser launch arguments a persistent context takes too
LAUNCH_KEYS = ("executable_path", "args", "headless", "slow_mo", "channel", "chromium_sandbox")


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    """A server of this module's own: its games and devices are counted."""
    with serve_app() as server:
        yield server


class Phone:
    """A phone whose browser can be closed and started again: a persistent Chromium profile
    (localStorage, the service worker and its caches survive a restart, as on a real phone;
    Chromium also never calls an incognito context's app installable)."""

    def __init__(self, playwright: Any, launch_args: dict, base_url: str, profile: str) -> None:
        launch_args = {k: v for k, v in launch_args.items() if k in LAUNCH_KEYS}
        device = {k: v for k, v in playwright.devices[PHONE].items() if k != "default_browser_type"}
        self._start = lambda: playwright.chromium.launch_persistent_context(
            profile, **launch_args, **device, base_url=base_url
        )
        self.context: BrowserContext = self._open()

    def _open(self) -> BrowserContext:
        ctx = self._start()
        ctx.set_default_timeout(15_000)
        # The CDN is out of reach (a table's Wi-Fi without internet): the local htmx loads.
        ctx.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))
        return ctx

    def page(self) -> Page:
        return self.context.pages[0] if self.context.pages else self.context.new_page()

    def restart(self, offline: bool) -> Page:
        """Close the browser and start it again (offline or not before the first page)."""
        self.context.close()
        self.context = self._open()
        self.context.set_offline(offline)
        return self.page()


@pytest.fixture()
def phone_app(
    playwright, browser_type_launch_args, live_server: LiveServer, tmp_path
) -> Iterator[Phone]:
    phone = Phone(playwright, browser_type_launch_args, live_server.url, str(tmp_path / "profile"))
    try:
        yield phone
    finally:
        phone.context.close()


@pytest.fixture()
def context(phone_app: Phone) -> BrowserContext:
    return phone_app.context


@pytest.fixture()
def page(phone_app: Phone) -> Page:
    return phone_app.page()


def new_game(server: LiveServer) -> dict[str, Any]:
    with server.app.app_context():
        game = make_game(NAMES)
        return {
            "id": game.id,
            "edit": game.edit_token,
            "share": game.share_token,
            "join": game.join_token,
            "round": round_post(game, 6, totals={"Bob": 20, "Cy": 5}, out="Ann"),
        }


@pytest.fixture(autouse=True)
def wifi_back(live_server: LiveServer) -> Iterator[None]:
    """Each test starts and ends with the server in reach, whatever happened in between."""
    live_server.wifi.cut = False
    yield
    live_server.wifi.cut = False


def offline(context: BrowserContext, server: LiveServer, lost: bool) -> None:
    """The phone's Wi-Fi lost (``lost``) or back: Chromium's offline mode, and the server out
    of reach for what that mode lets through (see ``tests.browser.conftest.Wifi``)."""
    server.wifi.cut = lost
    context.set_offline(lost)


def test_a_cut_wifi_reaches_nothing_and_the_page_sees_a_lost_connection(
    page: Page, live_server: LiveServer
) -> None:
    """The test's Wi-Fi (tests.browser.conftest.Wifi) cut, without Chromium's offline mode: a
    round posted from a page the service worker controls never reaches the app, and the page
    sees a network failure (fetch rejects, XMLHttpRequest status 0), not an answer."""
    game = new_game(live_server)
    kept_offline(page, f"/g/{game['edit']}")
    fill_round(page)
    post = """(how) => {
      const form = document.querySelector("form.round-form");
      const body = new URLSearchParams(new FormData(form));
      if (how === "xhr") {
        return new Promise((done) => {
          const xhr = new XMLHttpRequest();
          xhr.open("POST", form.action);
          xhr.onload = () => done("answered " + xhr.status);
          xhr.onerror = () => done("failed, status " + xhr.status);
          xhr.send(body);
        });
      }
      return fetch(form.action, { method: "POST", body: body, redirect: "manual" })
        .then((r) => "answered " + (r.status || r.type), (e) => "failed: " + e.name);
    }"""
    live_server.wifi.cut = True
    assert page.evaluate(post, "fetch") == "failed: TypeError"
    assert page.evaluate(post, "xhr") == "failed, status 0"
    assert [d for d in live_server.wifi.dropped if d.startswith("POST ")][-2:] == [
        f"POST /g/{game['edit']}/round"
    ] * 2
    assert rounds(live_server, game["id"]) == 0

    live_server.wifi.cut = False  # back: the same post is saved
    assert page.evaluate(post, "fetch") == "answered opaqueredirect"
    assert rounds(live_server, game["id"]) == 1

    live_server.wifi.cut = True  # last: the failed page leaves the tab on Chromium's error page
    with pytest.raises(PlaywrightError, match="ERR_CONNECTION_RESET"):
        page.goto("/history/")  # a page the worker does not keep: straight to the network


def kept_offline(page: Page, path: str) -> None:
    """Open ``path`` until the service worker controls it and keeps a copy of it."""
    page.goto(path)
    # Under load a fresh-clone run's worker took over 15 s (2026-12-05), and once over 30 s
    # (2026-12-06), to take over a player's first page; a worker already active controls a
    # page loaded again, so wait up to 20 s, then reload, three times
    controlled = "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"
    for attempt in range(3):
        try:
            page.wait_for_function(controlled, timeout=20_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise
            page.reload()
    kept = "async (p) => !!(await caches.match(location.origin + p))"
    # Through the worker now, which keeps the page. Rarely (about 1 in 40 under load, cause not
    # found) no copy shows up after one load: a page online again is kept again, so reload.
    for _ in range(3):
        page.reload()
        try:
            until(page, kept, path, timeout=7_000)
            return
        except PlaywrightError:
            continue
    until(page, kept, path)


def bob_joined(page: Page, game: dict[str, Any]) -> None:
    """``page`` joins ``game`` as Bob, on his hand page."""
    page.goto(f"/j/{game['join']}")
    page.get_by_role("button", name="Bob", exact=True).click()
    page.wait_for_url(re.compile(r"/p/[\w-]+$"))


def bobs_photo_read_as_5_4(
    page: Page, live_server: LiveServer, game: dict[str, Any] | None = None
) -> tuple[dict[str, Any], Any]:
    """A new game (or ``game``), Bob joined on ``page`` (his hand page kept for offline), his
    photo (:data:`~tests.browser.test_hand_photo_browser.PHOTO`) read, its first tile picked
    as 5-4 and the others as not a tile: the game and the reading's pickers."""
    from tests.browser.test_hand_photo_browser import PHOTO, PHOTOS

    game = game or new_game(live_server)
    bob_joined(page, game)
    kept_offline(page, f"/p/{game['share']}")
    page.get_by_role("button", name="Count my pips from a photo").click()
    page.wait_for_url(re.compile(r"/p/[\w-]+/photo$"))
    page.get_by_label("Photo of the tiles, face up and apart").set_input_files(
        files=[{"name": PHOTO, "mimeType": "image/jpeg", "buffer": (PHOTOS / PHOTO).read_bytes()}]
    )
    page.get_by_role("button", name="Count the pips").click()
    pickers = page.locator("select[name='tile'][data-read]")
    expect(pickers.first).to_be_visible()
    pickers.first.select_option("5-4")
    for i in range(1, pickers.count()):
        pickers.nth(i).select_option("none")
    return game, pickers


def rounds(server: LiveServer, game_id: int) -> int:
    with server.app.app_context():
        return db.session.scalar(select(func.count(Round.id)).where(Round.game_id == game_id)) or 0


def audit(server: LiveServer, game_id: int, action: str) -> int:
    with server.app.app_context():
        return (
            db.session.scalar(
                select(func.count(AuditEntry.id)).where(
                    AuditEntry.game_id == game_id, AuditEntry.action == action
                )
            )
            or 0
        )


def fill_round(page: Page) -> None:
    page.get_by_label("Points for Bob").fill("12")
    page.get_by_label("Points for Cy").fill("3")
    page.locator("fieldset.hand").filter(has_text="Ann").get_by_label("Went out").check()


def type_round(page: Page) -> None:
    fill_round(page)
    page.get_by_role("button", name="Save round", exact=True).click()


def test_a_round_saved_offline_waits_survives_a_reload_and_is_saved_once(
    phone_app: Phone, page: Page, live_server: LiveServer, shot
) -> None:
    context = phone_app.context
    game = new_game(live_server)
    kept_offline(page, f"/g/{game['edit']}")

    offline(context, live_server, True)
    type_round(page)
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting")
    expect(entry).to_contain_text("Waiting to be sent")
    expect(page.locator(".save-status")).to_have_text(KEPT)  # the card's own words
    # only the outbox's word: not also app.js's contradicting "Not saved — tap Save again"
    expect(page.locator(".save-status")).not_to_contain_text("Not saved")

    page.reload()  # still offline: the worker's copy, and the entry is still there
    expect(page.locator(".flash.offline-copy")).to_contain_text(
        "Offline: this is the page as last updated at"
    )
    expect(entry).to_have_attribute("data-state", "waiting")
    expect(entry).to_contain_text("Bob: 12")
    expect(page.locator("#scoreboard")).to_be_visible()
    shot(page, "offline-scoreboard")
    assert rounds(live_server, game["id"]) == 0

    page = phone_app.restart(offline=True)  # the browser closed and opened again, still offline
    page.goto(f"/g/{game['edit']}")
    entry = page.locator("#outbox .outbox-entry")
    expect(page.locator(".flash.offline-copy")).to_be_visible()
    expect(entry).to_have_attribute("data-state", "waiting")
    context = phone_app.context

    offline(context, live_server, False)  # the "online" event sends it; the page reloads fresh
    expect(page.locator("#outbox")).to_have_count(0)
    expect(page.locator(".flash.offline-copy")).to_have_count(0)
    expect(page.locator("#round-title")).to_have_text(re.compile("Round 2 of"))
    assert rounds(live_server, game["id"]) == 1
    offline(context, live_server, True)  # the kept copy is now the saved game
    page.reload()
    expect(page.locator(".flash.offline-copy")).to_be_visible()
    expect(page.locator("#round-title")).to_have_text(re.compile("Round 2 of"))
    offline(context, live_server, False)
    page.goto(f"/g/{game['edit']}/audit")
    expect(page.locator("ol.audit > li")).to_have_count(1)
    assert audit(live_server, game["id"], "round_saved") == 1


def posts_12_offline_and_reloads(
    context: BrowserContext, page: Page, live_server: LiveServer, button: str
) -> Locator:
    """Bob's hand page offline: 12 typed and ``button`` tapped (kept, waiting), then the page
    loaded again, the worker's copy; the outbox entries' locator."""
    offline(context, live_server, True)
    page.get_by_label("Points left in my hand").fill("12")
    page.get_by_role("button", name=button).click()
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting")
    page.reload()
    expect(page.locator(".flash.offline-copy")).to_be_visible()
    return entry


def test_a_hand_posted_offline_waits_survives_a_reload_and_is_posted_once(
    context: BrowserContext, page: Page, live_server: LiveServer, shot
) -> None:
    game = new_game(live_server)
    bob_joined(page, game)
    kept_offline(page, f"/p/{game['share']}")

    entry = posts_12_offline_and_reloads(context, page, live_server, "Post my hand")
    expect(entry).to_have_attribute("data-state", "waiting")
    expect(entry).to_contain_text("12")
    shot(page, "offline-hand-waiting")

    offline(context, live_server, False)
    expect(page.locator("#outbox")).to_have_count(0)
    expect(page.locator(".post-state")).to_contain_text("Posted: 12 point")
    with live_server.app.app_context():
        posts = list(db.session.scalars(select(HandPost).where(HandPost.game_id == game["id"])))
    assert [(p.total, p.revision) for p in posts] == [(12, 1)]


def test_a_hand_changed_offline_and_reloaded_offline_waits_once_without_old_notices(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """Bob posts 10 online, changes it to 12 offline and reloads while still offline: the
    worker's copy shows no "Hand posted" of the earlier answer (a notice is news, not part of
    the page kept), the waiting 12 is not also announced as typing to post, and a second tap
    with the same 12 makes no second entry; back online, 12 is posted once, said once."""
    game = new_game(live_server)
    bob_joined(page, game)
    kept_offline(page, f"/p/{game['share']}")
    page.get_by_label("Points left in my hand").fill("10")
    page.get_by_role("button", name="Post my hand").click()
    hand_posted = page.locator("#flashes .flash", has_text="Hand posted")
    expect(hand_posted).to_have_count(1)

    entry = posts_12_offline_and_reloads(context, page, live_server, "Change my hand")
    expect(entry).to_contain_text("12")
    expect(page.locator("#flashes .flash")).to_have_count(0)
    expect(page.locator(".kept-hand")).to_have_count(0)
    page.get_by_label("Points left in my hand").fill("12")
    page.get_by_role("button", name="Change my hand").click()
    page.wait_for_timeout(300)
    expect(entry).to_have_count(1)

    offline(context, live_server, False)
    expect(page.locator("#outbox")).to_have_count(0)
    expect(page.locator(".post-state")).to_contain_text("Posted: 12 point")
    expect(hand_posted).to_have_count(1)
    with live_server.app.app_context():
        posts = list(db.session.scalars(select(HandPost).where(HandPost.game_id == game["id"])))
    assert [(p.total, p.revision) for p in posts] == [(12, 2)]


def test_a_waiting_hand_says_what_was_typed_in_the_players_words(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """A typed total is shown as points, not under the tile picker's "Tiles left in …"."""
    game = new_game(live_server)
    bob_joined(page, game)
    page.wait_for_function("() => !!document.querySelector('form[data-outbox]')")

    offline(context, live_server, True)
    page.get_by_label("Points left in my hand").fill("12")
    page.get_by_role("button", name="Post my hand").click()
    own = page.locator("#outbox .outbox-entry .outbox-own")
    expect(own).to_contain_text("Points left in my hand: 12")
    expect(own).not_to_contain_text("Tiles left")


def second_scorekeeper(server: LiveServer, game: dict[str, Any]) -> Any:
    """Another phone (a test client) that keeps score of ``game`` too."""
    other = server.app.test_client()
    with server.app.app_context():
        before = set(db.session.scalars(select(Device.id)))
    assert other.get(f"/g/{game['edit']}").status_code == 403  # a device of its own, refused
    with server.app.app_context():
        (device_id,) = set(db.session.scalars(select(Device.id))) - before
        db.session.add(GameAccess(game_id=game["id"], device_id=device_id, role="scorekeeper"))
        db.session.commit()
    return other


def other_posts(other: Any, game: dict[str, Any], path: str, data: dict[str, Any]) -> int:
    """The other phone posts ``data`` to ``path`` (CSRF: its own page's token): the status."""
    form_page = other.get(f"/g/{game['edit']}").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', form_page)
    return int(
        other.post(path, data={**data, "csrf_token": token.group(1) if token else ""}).status_code
    )


def test_a_round_another_phone_saved_meanwhile_is_shown_beside_this_phones(
    context: BrowserContext, page: Page, live_server: LiveServer, shot
) -> None:
    game = new_game(live_server)
    kept_offline(page, f"/g/{game['edit']}")
    other = second_scorekeeper(live_server, game)

    offline(context, live_server, True)
    type_round(page)
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting")
    expect(page.locator("#outbox .outbox-group > h2")).to_have_text(["Not sent yet"])
    # Meanwhile the other phone saves that round differently.
    assert other_posts(other, game, f"/g/{game['edit']}/round", game["round"]) == 303

    offline(context, live_server, False)
    expect(entry).to_have_attribute("data-state", "conflict")
    # the round is saved (by the other phone): never "not saved" about it
    expect(entry).to_contain_text("Saved meanwhile, with other values")
    expect(entry.locator(".outbox-answer")).to_contain_text("Bob: 20")
    expect(entry.locator(".outbox-own")).to_contain_text("Bob: 12")
    # the server's "On this phone:" box is not repeated in the entry (it lists this phone's
    # values itself; a fresh tester saw Bob's 12 three times and a Forget there that did
    # nothing): the round area shows that comparison, with its buttons
    expect(entry.locator(".outbox-answer .saved-hands.mine")).to_have_count(0)
    expect(entry.locator(".outbox-answer [data-forget]")).to_have_count(0)
    shot(page, "offline-conflict")
    assert rounds(live_server, game["id"]) == 1
    # A refused entry is not "not sent yet": it is under a heading of its own.
    expect(page.locator("#outbox .outbox-group > h2")).to_have_text(
        ["Saved with other values than this phone sent"]
    )
    page.reload()  # never dropped silently: it stays until the player removes it
    expect(entry).to_have_attribute("data-state", "conflict")

    offline(context, live_server, True)  # the next round, typed offline, waits beside it
    type_round(page)
    expect(page.locator("#outbox .outbox-group > h2")).to_have_text(
        ["Saved with other values than this phone sent", "Not sent yet"]
    )
    expect(page.locator("#outbox .outbox-group.saved .outbox-entry")).to_have_attribute(
        "data-state", "conflict"
    )
    expect(page.locator("#outbox .outbox-group.waiting .outbox-entry")).to_have_attribute(
        "data-state", "waiting"
    )
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.locator(".outbox-entry.conflict").get_by_role(
        "button", name="Forget what this phone had"
    ).click()
    expect(page.locator("#outbox .outbox-group > h2")).to_have_text(["Not sent yet"])
    assert asked and "not saved" not in asked[0], asked  # the round is saved
    expect(page.locator("#outbox .outbox-group > h2")).to_have_text(["Not sent yet"])
    offline(context, live_server, False)
    expect(page.locator("#outbox")).to_have_count(0)
    assert rounds(live_server, game["id"]) == 2


def test_a_waiting_round_says_everything_the_phone_typed(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """The outbox's summary of a round: every hand (typed points, tapped tiles with their sum,
    went out) and how the round ended (blocked, who started), then exactly that is saved."""
    game = new_game(live_server)
    page.goto(f"/g/{game['edit']}")
    page.wait_for_function("() => !!window.htmx")
    cy = page.locator("fieldset.hand").filter(has_text="Cy")
    cy.get_by_role("button", name="Tap the tiles").click()  # the picker comes from the server
    expect(cy.get_by_label("6-4", exact=True)).to_be_visible()

    offline(context, live_server, True)
    page.get_by_label("Points for Ann").fill("7")
    page.get_by_label("Points for Bob").fill("12")
    cy.get_by_label("6-4", exact=True).check()
    cy.get_by_label("3-2", exact=True).check()
    page.get_by_label("Nobody went out: the round was blocked").check()
    page.get_by_label("Who started this round?").select_option(label="Cy")
    page.get_by_role("button", name="Save round", exact=True).click()
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting")
    expect(entry.locator(".outbox-own li")).to_have_text(
        [
            "Ann: 7",
            "Bob: 12",
            "Cy: 6-4 3-2 (2 tiles: 15 points)",
            "How the round ended: Nobody went out: the round was blocked",
            "Who started: Cy",
        ]
    )

    offline(context, live_server, False)
    expect(page.locator("#outbox")).to_have_count(0)
    with live_server.app.app_context():
        (saved,) = db.session.scalars(select(Round).where(Round.game_id == game["id"]))
        names = {h.seat_id: h.seat.player.name for h in saved.hands}
        assert saved.outcome == "blocked"
        assert names[saved.starter_seat_id] == "Cy"
        assert {names[h.seat_id]: (h.points, h.tiles) for h in saved.hands} == {
            "Ann": (7, None),
            "Bob": (12, None),
            "Cy": (15, ["6-4", "3-2"]),
        }


def test_a_correction_another_phone_saved_meanwhile_is_shown_beside_this_phones(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    game = new_game(live_server)
    kept_offline(page, f"/g/{game['edit']}")
    other = second_scorekeeper(live_server, game)
    assert other_posts(other, game, f"/g/{game['edit']}/round", game["round"]) == 303
    page.goto(f"/g/{game['edit']}/round/1")  # opened while online
    page.wait_for_function("() => !!window.htmx")

    offline(context, live_server, True)
    page.get_by_label("Points for Bob").fill("12")
    page.get_by_role("button", name="Save the correction", exact=True).click()
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting")
    expect(entry.locator("h3")).to_contain_text("Correction of the round with")
    # Meanwhile the other phone corrects that round too.
    with live_server.app.app_context():
        current = db.session.get(Game, game["id"])
        theirs = round_post(current, 6, totals={"Bob": 30, "Cy": 5}, out="Ann")
    assert other_posts(other, game, f"/g/{game['edit']}/round/1", theirs) == 303

    offline(context, live_server, False)
    expect(entry).to_have_attribute("data-state", "conflict")
    # the round is saved (by the other phone): never "not saved" about it
    expect(entry).to_contain_text("Saved meanwhile, with other values")
    expect(entry.locator(".outbox-answer")).to_contain_text("Bob: 30")
    expect(entry.locator(".outbox-own")).to_contain_text("Bob: 12")
    with live_server.app.app_context():
        (saved,) = db.session.scalars(select(Round).where(Round.game_id == game["id"]))
        assert sorted(h.points for h in saved.hands) == [0, 5, 30]
    page.goto(f"/g/{game['edit']}")  # the game page shows it too, until the player removes it
    expect(entry).to_have_attribute("data-state", "conflict")


def test_a_hand_posted_offline_after_the_round_was_saved_shows_the_saved_score(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    game = new_game(live_server)
    other = live_server.app.test_client()  # the scorekeeper's phone: the first to open the game
    assert other.get(f"/g/{game['edit']}").status_code == 200
    bob_joined(page, game)
    kept_offline(page, f"/p/{game['share']}")

    offline(context, live_server, True)
    page.get_by_label("Points left in my hand").fill("12")
    page.get_by_role("button", name="Post my hand").click()
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting")
    # Meanwhile the scorekeeper saves the round with Bob's 20.
    assert other_posts(other, game, f"/g/{game['edit']}/round", game["round"]) == 303

    offline(context, live_server, False)
    expect(entry).to_have_attribute("data-state", "conflict")
    expect(page.locator("#outbox .outbox-group.saved > h2")).to_have_text(
        "Saved with other values than this phone sent"
    )
    # the answer's heading is the entry's title: the round named once
    expect(entry.locator("h3")).to_contain_text("was already saved")
    expect(entry.locator(".outbox-answer")).to_contain_text("Saved: 20")
    # the answer says Bob's 12 beside it: not said again under "On this phone:"
    expect(entry.locator(".outbox-answer")).to_contain_text("What you typed: 12")
    expect(entry.locator(".outbox-own")).to_have_count(0)
    with live_server.app.app_context():
        posts = list(db.session.scalars(select(HandPost).where(HandPost.game_id == game["id"])))
    assert 12 not in [p.total for p in posts]  # the saved round stands, nothing overwritten


def test_a_hand_kept_for_the_last_round_is_shown_in_the_rematch_after_it(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """Bob's phone posts 12 offline in the game's last round (0-0); the scorekeeper saves that
    round with his 20 and starts a rematch, which carries his phone. Back online, his hand got
    its answer (the round already saved, with 20) on the old game's page, which now leads to
    the rematch: the entry was kept, but shown on no page the phone ever opens again (a
    tester at 360 px), and Bob never learned his 12 was not taken. The rematch's hand page
    shows it, with Forget."""
    game, other = last_round_to_play(live_server)
    bob_joined(page, game)
    kept_offline(page, f"/p/{game['share']}")

    offline(context, live_server, True)
    page.get_by_label("Points left in my hand").fill("12")
    page.get_by_role("button", name="Post my hand").click()
    expect(page.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
    last_round_saved_and_rematch(live_server, game, other)

    offline(context, live_server, False)
    shown_in_the_rematch(page, game, "What you typed: 12")


def test_a_photo_confirmed_after_the_rematch_started_is_shown_in_the_rematch(
    page: Page, live_server: LiveServer
) -> None:
    """Bob's photo of his last hand is read; the scorekeeper saves the game's last round (Bob
    20) and starts a rematch; then Bob taps Confirm. The answer (that round already saved,
    with his tiles beside it) showed for about two seconds, then the old page's poll led the
    phone to the rematch, where nothing said it (a tester at 360 px). It stays there."""
    game, other = last_round_to_play(live_server)
    bobs_photo_read_as_5_4(page, live_server, game)
    last_round_saved_and_rematch(live_server, game, other)
    page.get_by_role("button", name="Confirm these tiles").click()
    shown_in_the_rematch(page, game, "5-4")


def last_round_to_play(live_server: LiveServer) -> tuple[dict[str, Any], Any]:
    """A game whose last round (0-0) is to be played, opened by the scorekeeper's phone (a
    test client): the game (with its last round's post, ``last``) and that phone."""
    with live_server.app.app_context():
        made = make_game(NAMES)
        add_scored_rounds(made, [{"Ann": 0, "Bob": 5, "Cy": 7}] * 6)
        game = {"id": made.id, "edit": made.edit_token, "share": made.share_token}
        game["join"] = made.join_token
        game["last"] = round_post(made, 0, totals={"Bob": 20, "Cy": 5}, out="Ann")
    other = live_server.app.test_client()
    assert other.get(f"/g/{game['edit']}").status_code == 200
    return game, other


def last_round_saved_and_rematch(live_server: LiveServer, game: dict[str, Any], other) -> None:
    """The scorekeeper saves the last round (Bob 20) and starts the rematch (carrying Bob)."""
    assert other_posts(other, game, f"/g/{game['edit']}/round", game["last"]) == 303
    with live_server.app.app_context():
        version = db.session.get(Game, game["id"]).version
    assert other_posts(other, game, f"/g/{game['edit']}/rematch", {"version": version}) == 303


def shown_in_the_rematch(page: Page, game: dict[str, Any], typed: str) -> None:
    """``page`` is led to the rematch's hand page, which shows the kept answer: the round saved
    with Bob's 20, ``typed`` beside it, and Forget."""
    page.wait_for_url(re.compile(r"/p/(?!" + re.escape(game["share"]) + r")[\w-]+$"))
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "conflict")
    expect(entry.locator(".outbox-answer")).to_contain_text("Saved: 20")
    expect(entry.locator(".outbox-answer")).to_contain_text(typed)
    expect(entry.get_by_role("button", name="Forget what this phone had")).to_be_visible()


def test_without_service_workers_the_outbox_still_keeps_and_sends_a_round(
    browser, playwright, live_server: LiveServer
) -> None:
    """A plain-HTTP LAN address has no service worker (not a secure context): no page is kept
    offline, but a round saved without a connection still waits and is saved once."""
    options: dict[str, Any] = {**playwright.devices[PHONE], "base_url": live_server.url}
    ctx = browser.new_context(**options, service_workers="block")
    try:
        page = ctx.new_page()
        game = new_game(live_server)
        page.goto(f"/g/{game['edit']}")
        page.wait_for_function("() => !!window.htmx")
        offline(ctx, live_server, True)
        type_round(page)
        entry = page.locator("#outbox .outbox-entry")
        expect(entry).to_have_attribute("data-state", "waiting")
        expect(page.locator("#outbox .outbox-group > h2")).to_have_text("Not sent yet")
        assert rounds(live_server, game["id"]) == 0
        offline(ctx, live_server, False)
        expect(page.locator("#outbox")).to_have_count(0)
        expect(page.locator("#round-title")).to_have_text(re.compile("Round 2 of"))
        assert rounds(live_server, game["id"]) == 1
        assert audit(live_server, game["id"], "round_saved") == 1
    finally:
        ctx.close()


def test_a_save_the_server_never_answers_waits_in_the_outbox_and_is_saved_once(
    browser, playwright, live_server: LiveServer
) -> None:
    """Weak Wi-Fi: the phone is online but the server never answers. After htmx's timeout the
    round waits in the outbox (not "Saving…" for ever); when the held first request arrives
    late after all and the outbox sends it again, the round is saved exactly once (its key)."""
    options: dict[str, Any] = {**playwright.devices[PHONE], "base_url": live_server.url}
    ctx = browser.new_context(**options, service_workers="block")
    try:
        page = ctx.new_page()
        game = new_game(live_server)
        page.goto(f"/g/{game['edit']}")
        page.wait_for_function("() => !!window.htmx")
        held: list[Any] = []
        page.route("**/round*", lambda route: held.append(route))  # never answered
        type_round(page)
        entry = page.locator("#outbox .outbox-entry")
        expect(entry).to_have_attribute("data-state", "waiting", timeout=25_000)
        expect(entry).to_contain_text("Waiting to be sent")
        expect(page.locator(".save-status")).not_to_contain_text("Not saved")
        assert rounds(live_server, game["id"]) == 0
        page.unroute("**/round*")
        for route in held:  # the first request arrives late (if Chromium still sends it)
            with contextlib.suppress(PlaywrightError):
                route.continue_()
        page.get_by_role("button", name="Send now").first.click()
        expect(page.locator("#outbox")).to_have_count(0, timeout=20_000)
        assert rounds(live_server, game["id"]) == 1
        assert audit(live_server, game["id"], "round_saved") == 1
    finally:
        ctx.close()


def test_chromium_reports_the_app_installable(context: BrowserContext, page: Page, shot) -> None:
    page.goto("/")
    page.wait_for_function(
        "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"
    )
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest.get("errors") == []
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    scope = page.evaluate("navigator.serviceWorker.controller.scriptURL")
    assert scope.endswith("/sw.js")
    shot(page, "offline-installable-home")


def test_kept_typing_waiting_offline_is_shown_when_the_connection_is_back(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """table.js loads kept.js (kept typing of a round saved meanwhile) and handover.js (this
    phone no longer keeps score) only when needed, at its own address with their name, so at
    table.js's version: offline the service worker answers them from its shell (they waited
    for a page loaded online before). Kept typing waiting on the page's copy is compared with
    the saved round as soon as the connection is back, without a reload."""
    game = new_game(live_server)
    path = f"/g/{game['edit']}"
    kept_offline(page, path)
    other = second_scorekeeper(live_server, game)
    assert other_posts(other, game, f"{path}/round", game["round"]) == 303  # Bob 20
    # nothing typed here: the page reloads by itself into the next round, and is kept so
    draft = f"{game['id']}:1:"
    expect(page.locator("form.round-form")).to_have_attribute("data-draft", re.compile(draft))
    until(
        page,
        """async ([p, d]) => { const r = await caches.match(location.origin + p);
             return !!r && (await r.text()).includes('data-draft="' + d); }""",
        [path, draft],
    )
    # what this phone typed in the first round (Bob 12) before that save, kept aside
    with live_server.app.app_context():
        bob = seat_ids(db.session.get(Game, game["id"]))["Bob"]
    first = f"{game['id']}:0:6"
    hand = {"total": "12", "out": False, "tiles": [], "seen": "", "filled": ""}
    entry = {first: {"key": first, "seats": {str(bob): hand}, "own": {}}}
    page.evaluate(
        "([name, entry]) => localStorage.setItem(name, JSON.stringify(entry))",
        [f"cf-round-typed:{game['id']}!", entry],
    )

    offline(context, live_server, True)
    page.reload()  # the copy; kept typing waits aside, so table.js loads kept.js
    expect(page.locator("body")).to_have_attribute("data-offline-copy", re.compile(r"."))
    page.wait_for_function("() => !!(window.cfcLater && window.cfcLater.keptOn)")
    later = page.evaluate(
        """async () => {
          const here = document.querySelector("script[src*='/js/table.js']").src;
          const found = {};
          for (const name of ["kept", "handover"]) {
            try {
              const r = await fetch(here.replace("table.js", name + ".js"));
              const text = await r.text();  // (its set-up: window.cfcLater.<name>)
              const ours = text.includes("cfcLater") && text.includes("." + name + ";");
              found[name] = r.status + " " + ours;
            } catch (e) { found[name] = "failed"; }
          }
          return found;
        }"""
    )
    assert later == {"kept": "200 true", "handover": "200 true"}
    mine = page.locator("#round-area ul.saved-hands.mine")
    expect(mine).to_have_count(0)  # offline: nothing to compare with yet

    offline(context, live_server, False)  # back: compared at once, the page not reloaded
    expect(mine).to_contain_text("Bob: 12")
    expect(mine).to_contain_text("saved: 20")
    assert page.evaluate("() => !!window.cfcLater.keptOn")  # the same page
    assert rounds(live_server, game["id"]) == 1


def test_a_copy_kept_while_typing_waited_shows_it_offline_and_catches_up_online(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """A fresh tester's steps (2026-12-06): the copy the page keeps of itself (a snapshot
    after a save) held what its scripts put in at run time, the ``<script>`` that loads
    kept.js and the round form's "started" mark: reloaded offline, kept.js threw before its
    set-up, the form was not started (its typing not put back), and back online the copy
    never asked the server (still the round another phone had saved, no comparison). Now
    the copy runs as the page did: typing back in the form offline, and once the connection
    is back the round saved meanwhile is compared with this phone's typing, by itself."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    game = new_game(live_server)
    path = f"/g/{game['edit']}"
    kept_offline(page, path)
    other = second_scorekeeper(live_server, game)
    # round 1: typed here, saved differently on the other phone, compared here
    page.get_by_label("Points for Bob").fill("12")
    page.get_by_label("Points for Cy").fill("3")
    assert other_posts(other, game, f"{path}/round", game["round"]) == 303  # Bob 20
    mine = page.locator("#round-area ul.saved-hands.mine")
    expect(mine.first).to_contain_text("Bob: 12", timeout=15_000)
    # round 2: typed here; the page's copy follows what the phone shows
    draft = f"{game['id']}:1:"
    form = page.locator("form.round-form")
    expect(form).to_have_attribute("data-draft", re.compile(draft))
    page.get_by_label("Points for Bob").fill("7")
    in_copy = """async ([p, d]) => { const r = await caches.match(location.origin + p);
         const html = r ? await r.text() : "";
         const form = html.match(/<form[^>]*id="round-form"[^>]*>/);
         return !!form && form[0].includes('data-draft="' + d)
           && html.includes("saved-hands mine"); }"""
    until(page, in_copy, [path, draft])

    offline(context, live_server, True)
    with live_server.app.app_context():
        second = round_post(
            db.session.get(Game, game["id"]), 5, totals={"Ann": 21, "Bob": 9}, out="Cy"
        )
    assert other_posts(other, game, f"{path}/round", second) == 303
    page.reload()  # the copy
    expect(page.locator("body")).to_have_attribute("data-offline-copy", re.compile(r"."))
    expect(page.get_by_label("Points for Bob")).to_have_value("7")  # the typing, back
    expect(form).to_have_attribute("data-draft", re.compile(draft))

    offline(context, live_server, False)  # back: up to date by itself, nothing tapped
    expect(page.locator("#round-area")).to_contain_text("Bob: 7", timeout=15_000)
    expect(mine.filter(has_text="Bob: 7")).to_contain_text("saved: 9")
    expect(page.locator("#round-title")).to_have_text(re.compile(r"Round 3 of"))
    expect(page.locator(".flash.offline-copy")).to_have_count(0)  # the page is live again
    expect(page.locator("body")).not_to_have_attribute("data-offline-copy", re.compile(r".*"))
    assert rounds(live_server, game["id"]) == 2
    assert errors == []


def test_a_handed_over_games_copy_is_deleted(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    game = new_game(live_server)
    kept_offline(page, f"/g/{game['edit']}")
    asking = live_server.app.test_client()
    asking.get(f"/g/{game['edit']}")
    form_page = asking.get(f"/g/{game['edit']}").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', form_page)
    assert (
        asking.post(
            f"/g/{game['edit']}/ask", data={"csrf_token": token.group(1) if token else ""}
        ).status_code
        == 303
    )
    page.reload()
    page.get_by_role("button", name="Hand scorekeeping over").click()
    expect(page.get_by_text("This phone no longer keeps score")).to_be_visible()
    until(page, "async (p) => !(await caches.match(location.origin + p))", f"/g/{game['edit']}")
    page.goto("/")
    until(page, "async (id) => !(await caches.keys()).includes('cfc-game-' + id)", game["id"])
    offline(context, live_server, True)
    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED|ERR_FAILED"):
        page.goto(f"/g/{game['edit']}")  # no copy left to show


@pytest.mark.parametrize("without", ["javascript", "service workers"])
def test_without_javascript_or_service_workers_a_round_saves_as_before(
    browser, playwright, live_server: LiveServer, without: str
) -> None:
    options: dict[str, Any] = {**playwright.devices[PHONE], "base_url": live_server.url}
    if without == "javascript":
        options["java_script_enabled"] = False
    else:
        options["service_workers"] = "block"
    ctx = browser.new_context(**options)
    try:
        page = ctx.new_page()
        game = new_game(live_server)
        page.goto(f"/g/{game['edit']}")
        type_round(page)
        expect(page.locator(".flash.success")).to_contain_text("Round saved.")
        expect(page.locator("#outbox")).to_have_count(0)
        assert rounds(live_server, game["id"]) == 1
        if without == "service workers":
            assert page.evaluate("() => !!navigator.serviceWorker.controller") is False
            # a save the server answered leaves nothing in the outbox to send again
            page.wait_for_function("() => localStorage.getItem('cfc-outbox') === '[]'")
    finally:
        ctx.close()


def test_a_photo_confirmed_offline_waits_and_is_posted_once_with_the_picks(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """The photo page's Confirm with the network down: the picks wait in the outbox (not the
    browser's offline page) and are posted once when the network is back."""
    game, pickers = bobs_photo_read_as_5_4(page, live_server)

    offline(context, live_server, True)
    page.get_by_role("button", name="Confirm these tiles").click()
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting")
    expect(page.locator(".outbox-kept")).to_be_visible()
    expect(pickers.first).to_have_value("5-4")  # the picks are still on the page
    # the entry lists the picks, and no added-tile picker left at "none"
    expect(entry).to_contain_text("5-4")
    expect(entry).not_to_contain_text("Added tile")

    offline(context, live_server, False)
    page.wait_for_url(re.compile(r"/p/[\w-]+$"))
    expect(page.locator(".post-state")).to_contain_text("1 tile")
    with live_server.app.app_context():
        posts = list(db.session.scalars(select(HandPost).where(HandPost.game_id == game["id"])))
    assert [(p.tiles, p.revision) for p in posts] == [(["5-4"], 1)]


def test_a_photo_confirm_waiting_offline_is_shown_again_on_a_reload_not_posted_twice(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """At 360 px: a player's photo Confirm waits in the outbox; a reload made while it waits
    showed the browser's offline page (the reading has no address of its own). The reload now
    opens the hand page's copy, which says the photo's hand is waiting, with its picks and
    points and no Confirm to post it again; once back, it is posted once."""
    page.set_viewport_size({"width": 360, "height": 740})
    game, pickers = bobs_photo_read_as_5_4(page, live_server)

    offline(context, live_server, True)
    page.get_by_role("button", name="Confirm these tiles").click()
    expect(page.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
    page.reload()
    page.wait_for_url(re.compile(r"/p/[\w-]+$"))
    expect(page.locator("body")).to_have_attribute("data-offline-copy", re.compile(r"."))
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting")
    expect(entry.get_by_role("heading")).to_have_text(
        re.compile(r"^Bob's hand from a photo for the round with .+, points: 9$")
    )
    expect(entry.locator(".outbox-own")).to_contain_text("Tile 1: 5-4")
    expect(page.get_by_role("button", name="Confirm these tiles")).to_have_count(0)

    offline(context, live_server, False)
    expect(page.locator(".post-state")).to_contain_text("1 tile")
    expect(page.locator("#outbox")).to_have_count(0)
    with live_server.app.app_context():
        posts = list(db.session.scalars(select(HandPost).where(HandPost.game_id == game["id"])))
    assert [(p.tiles, p.revision) for p in posts] == [(["5-4"], 1)]


def test_the_scorekeepers_photo_confirm_offline_waits_on_the_game_page_and_fills_the_hand_once(
    context: BrowserContext, page: Page, live_server: LiveServer, shot
) -> None:
    """At 360 px: the scorekeeper counts Bob's hand from a photo, fixes a tile and confirms
    with the network down. The browser's offline page showed and the picks were lost; now the
    phone goes back to the game page (its copy) where "Bob's hand from a photo, points: 20"
    waits with its tiles; once back it is sent once and the round form has Bob's tiles, as an
    online Confirm gives, ready to save."""
    page.set_viewport_size({"width": 360, "height": 740})
    game = new_game(live_server)
    kept_offline(page, f"/g/{game['edit']}")
    page.get_by_label("Points for Cy").fill("3")
    read_hand_photo(page, "Bob")
    page.locator("select[name='tile'][data-read='3-1']").select_option("4-1")
    expect(page.get_by_role("heading", name="Points to post: 20")).to_be_visible()

    offline(context, live_server, True)
    page.get_by_role("button", name="Confirm these tiles").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("body")).to_have_attribute("data-offline-copy", re.compile(r"."))
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting")
    expect(entry.get_by_role("heading")).to_have_text("Bob's hand from a photo, points: 20")
    for tile in ("6-5", "4-1", "2-2"):  # each pick said by its tile's name, not every option
        expect(entry.locator(".outbox-own")).to_contain_text(re.compile(rf"Tile \d: {tile}"))
    shot(page, "offline-photo-keeper-360")
    page.reload()  # still waiting, still shown
    expect(page.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")

    offline(context, live_server, False)
    flash = page.get_by_text("Bob: 3 tiles from the photo, 20 points")
    expect(flash).to_be_visible()
    expect(flash).to_have_count(1)
    expect(page.locator("#outbox")).to_have_count(0)
    page.wait_for_function("() => localStorage.getItem('cfc-outbox') === '[]'")
    bob = page.locator("fieldset.hand").filter(has_text="Bob")
    for tile in ("6-5", "4-1", "2-2"):
        expect(bob.get_by_role("checkbox", name=tile, exact=True)).to_be_checked()
    expect(page.get_by_label("Points for Cy")).to_have_value("3")
    page.locator("fieldset.hand").filter(has_text="Ann").get_by_label("Went out").check()
    page.get_by_role("button", name="Save round", exact=True).click()
    expect(page.get_by_text("Round saved.")).to_be_visible()
    assert rounds(live_server, game["id"]) == 1
    expect(page.locator("#scoreboard tbody.player", has_text="Bob")).to_contain_text("20")


def test_a_second_photo_confirm_offline_replaces_the_waiting_entry_and_its_picks_are_posted(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """At 360 px, a player confirms a photo offline, sees a tile wrong, fixes it and taps
    Confirm again. The second tap was swallowed (app.js's guard against a double tap left the
    form marked as sending), so the outbox kept the first picks and posted them once back
    online: the fixed tile was lost without a word. Now the second Confirm replaces the entry,
    and the fixed picks are what is posted, once."""
    page.set_viewport_size({"width": 360, "height": 740})
    game, pickers = bobs_photo_read_as_5_4(page, live_server)

    offline(context, live_server, True)
    page.get_by_role("button", name="Confirm these tiles").click()
    entry = page.locator("#outbox .outbox-entry")
    expect(entry.get_by_role("heading")).to_have_text(re.compile(r", points: 9$"))
    pickers.first.select_option("6-5")  # the player sees the tile was a 6-5
    page.get_by_role("button", name="Confirm these tiles").click()
    expect(entry).to_have_count(1)
    expect(entry.get_by_role("heading")).to_have_text(re.compile(r", points: 11$"))
    expect(entry.locator(".outbox-own")).to_contain_text("Tile 1: 6-5")

    offline(context, live_server, False)
    page.wait_for_url(re.compile(r"/p/[\w-]+$"))
    expect(page.locator(".post-state")).to_contain_text("6-5")
    with live_server.app.app_context():
        posts = list(db.session.scalars(select(HandPost).where(HandPost.game_id == game["id"])))
    assert [(p.tiles, p.revision) for p in posts] == [(["6-5"], 1)]


def test_a_hand_posted_again_offline_replaces_the_waiting_entry(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """A typed hand posted offline, then typed again and posted again: the second post
    replaces the waiting entry (it was swallowed, and the first total was posted)."""
    game = new_game(live_server)
    bob_joined(page, game)
    kept_offline(page, f"/p/{game['share']}")

    offline(context, live_server, True)
    page.get_by_label("Points left in my hand").fill("12")
    page.get_by_role("button", name="Post my hand").click()
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_contain_text("Points left in my hand: 12")
    page.get_by_label("Points left in my hand").fill("21")
    page.get_by_role("button", name="Post my hand").click()
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("Points left in my hand: 21")

    offline(context, live_server, False)
    expect(page.locator("#outbox")).to_have_count(0)
    expect(page.locator(".post-state")).to_contain_text("Posted: 21 point")
    with live_server.app.app_context():
        posts = list(db.session.scalars(select(HandPost).where(HandPost.game_id == game["id"])))
    assert [(p.total, p.revision) for p in posts] == [(21, 1)]


def keepers_photo_confirmed_offline(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> dict[str, Any]:
    """At 360 px, a new game whose page is kept offline: Bob's photo (6-5, 3-1, 2-2, 19
    points) read from the round form and confirmed with the network down, its Confirm
    waiting in the outbox on the game page's copy. The game."""
    page.set_viewport_size({"width": 360, "height": 740})
    game = new_game(live_server)
    kept_offline(page, f"/g/{game['edit']}")
    read_hand_photo(page, "Bob")
    offline(context, live_server, True)
    page.get_by_role("button", name="Confirm these tiles").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
    return game


def test_typing_done_while_the_scorekeepers_photo_confirm_waits_is_kept_when_it_is_sent(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """At 360 px: the scorekeeper's photo Confirm for Bob waits offline on the game page, and
    the scorekeeper types Cy's 3 there meanwhile. Once sent, the page came back with the
    photo's draft (data-fresh) and table.js dropped all the phone's kept typing: Cy's 3 was
    gone without a word. Only the photo's own hand gives way now."""
    keepers_photo_confirmed_offline(context, page, live_server)
    page.get_by_label("Points for Cy").fill("3")
    page.get_by_label("Points for Bob").fill("40")  # the photo's hand: its tiles win

    offline(context, live_server, False)
    expect(page.get_by_text("Bob: 3 tiles from the photo, 19 points")).to_be_visible()
    expect(page.get_by_label("Points for Cy")).to_have_value("3")
    bob = page.locator("fieldset.hand").filter(has_text="Bob")
    for tile in ("6-5", "3-1", "2-2"):
        expect(bob.get_by_role("checkbox", name=tile, exact=True)).to_be_checked()
    expect(page.get_by_label("Points for Bob")).to_have_value("")
    page.reload()  # not fresh any more: Bob's 40 must not come back over the tiles either
    expect(page.get_by_label("Points for Cy")).to_have_value("3")
    expect(page.get_by_label("Points for Bob")).to_have_value("")


def test_a_round_saved_offline_after_the_scorekeepers_photo_confirm_says_its_tiles_were_not_used(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """At 360 px: the scorekeeper confirms Bob's photo offline, then types and saves the round
    on the game page's copy (Bob's 12 typed). Back online the outbox sends the Confirm, then
    the save: the page said "Bob: 3 tiles from the photo ... Check the round and save it"
    over a round already saved without them. It says the round was saved with what was
    typed, and the photo's tiles."""
    game = keepers_photo_confirmed_offline(context, page, live_server)
    type_round(page)
    expect(page.locator("#outbox .outbox-entry")).to_have_count(2)

    offline(context, live_server, False)
    expect(page.get_by_text("Round saved.")).to_be_visible()
    expect(
        page.get_by_text(
            "Bob's hand from the photo was not used: the round with 6-6 was saved with what was "
            "typed. The photo's tiles: 6-5, 3-1, 2-2 (19 points). To use them, correct that round."
        )
    ).to_be_visible()
    expect(page.get_by_text("Check the round and save it")).to_have_count(0)
    expect(page.locator("#outbox")).to_have_count(0)
    assert rounds(live_server, game["id"]) == 1
    expect(page.locator("#round-title")).to_have_text(re.compile("Round 2 of"))
    expect(page.locator("#scoreboard tbody.player", has_text="Bob")).to_contain_text("12")


def test_the_offline_copys_time_is_written_in_the_pages_language(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """A player who chose German on an English phone: the kept page's "as last updated at"
    time was written the browser's way (Dec 5, 2026, 5:31 PM), not the page's."""
    game = new_game(live_server)
    bob_joined(page, game)
    page.goto("/")
    page.locator("details.language-picker > summary").click()
    page.locator("details.language-picker button[value='de']").click()
    kept_offline(page, f"/p/{game['share']}")
    expect(page.locator("html")).to_have_attribute("lang", "de")

    offline(context, live_server, True)
    page.reload()
    note = page.locator(".flash.offline-copy")
    expect(note).to_be_visible()
    german, english = page.evaluate(
        """() => ["de", "en-US"].map((lang) => new Date(document.body.dataset.offlineCopy)
            .toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" }))"""
    )
    assert german != english
    expect(note).to_contain_text(german)


@pytest.mark.parametrize("button", ["Auto-save: off · Turn on", "Lock the seats: everyone is in"])
def test_a_switch_tapped_offline_is_not_told_to_tap_save_and_the_word_goes_once_online(
    context: BrowserContext, page: Page, live_server: LiveServer, button: str
) -> None:
    """The auto-save switch and the seat lock submit the round form (games/play.py
    _table_button): offline, they were told the round form's "Not saved — … tap Save again.
    Your entries are still here.", though no round was to be saved, and it stayed after the
    connection came back."""
    game = new_game(live_server)
    page.goto(f"/g/{game['edit']}")
    page.locator("fieldset.hand", has_text="Bob").get_by_role("textbox").fill("12")
    offline(context, live_server, True)
    page.get_by_role("button", name=button).first.click()
    said = page.locator(".save-status .flash.error")
    expect(said).to_have_count(1)
    # the page's words for a failed save (base.html), not the round form's "tap Save again"
    expect(said).to_have_text("Not saved — check the connection and try again.")
    expect(page.get_by_text("tap Save again")).to_have_count(0)
    expect(page.locator("fieldset.hand", has_text="Bob").get_by_role("textbox")).to_have_value("12")
    offline(context, live_server, False)  # back online: the message no longer applies
    expect(said).to_have_count(0)
    page.get_by_role("button", name=button).first.click()  # and the tap now does it
    expect(page.get_by_role("button", name=button)).to_have_count(0)
    expect(page.locator("fieldset.hand", has_text="Bob").get_by_role("textbox")).to_have_value("12")


def test_a_round_saved_offline_in_two_tabs_keeps_both_and_compares_the_second(
    context: BrowserContext, page: Page, live_server: LiveServer, shot
) -> None:
    """At 360 px, the scorekeeper's game page open in two tabs of one phone, offline: tab A
    saves the round (Bob 12), then tab B saves it too (Bob 7). Tab B's Save replaced A's
    waiting entry (one outbox per phone), so A's values were lost without a word once back
    online. Now both wait; the first sent is saved, the second comes back as the comparison
    ("Saved meanwhile, with other values") with what that tab typed, as from two phones.
    Back online, both tabs sent the outbox at once, each writing its own copy of it back over
    the other's answers: the compared entry was sent again and again, and now and then lost;
    and tab B's live poll, seeing the round saved, tapped Save again, its new entry "sending"
    beside the comparison or replacing it. Now one tab sends the outbox, tab B's kept Save is
    compared there (tab B is reloaded), and each entry is posted once."""
    page.set_viewport_size({"width": 360, "height": 740})
    game = new_game(live_server)
    path = f"/g/{game['edit']}"
    kept_offline(page, path)
    tab_b = context.new_page()
    tab_b.set_viewport_size({"width": 360, "height": 740})
    tab_b.goto(path)

    offline(context, live_server, True)
    type_round(page)  # tab A: Bob 12, Cy 3, Ann went out
    expect(page.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
    tab_b.get_by_label("Points for Bob").fill("7")
    tab_b.get_by_label("Points for Cy").fill("9")
    tab_b.locator("fieldset.hand").filter(has_text="Ann").get_by_label("Went out").check()
    tab_b.get_by_role("button", name="Save round", exact=True).click()
    expect(tab_b.locator("#outbox .outbox-entry")).to_have_count(2)
    kept = "() => JSON.parse(localStorage.getItem('cfc-outbox')).map(e => e.own.join(', '))"
    assert page.evaluate(kept) == [
        "Ann (went out), Bob: 12, Cy: 3",
        "Ann (went out), Bob: 7, Cy: 9",
    ]

    posted: list[str] = []
    for tab in (page, tab_b):
        tab.on("request", lambda r: r.method == "POST" and posted.append(r.url))
    offline(context, live_server, False)
    for tab in (page, tab_b):
        entry = tab.locator("#outbox .outbox-entry")
        expect(entry).to_have_count(1)
        expect(entry).to_have_attribute("data-state", "conflict")
        expect(entry).to_contain_text("Saved meanwhile, with other values")
        expect(entry.locator(".outbox-answer")).to_contain_text("Bob: 12")
        expect(entry.locator(".outbox-own")).to_contain_text("Bob: 7")
    # Tab B is the one in front: a screenshot of a tab behind another waits for a frame that
    # a hidden tab may not draw (it timed out once under load on CI).
    shot(tab_b, "offline-two-tabs-compared-360")
    page.wait_for_timeout(1_000)  # (a second tab's late sending would show by now)
    assert len(posted) == 2, posted
    assert rounds(live_server, game["id"]) == 1
    assert audit(live_server, game["id"], "round_saved") == 1


def test_an_entry_kept_in_one_tab_shows_in_the_other_tab_at_once(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """The scorekeeper's game page open in two tabs, offline: tab A saves the round. Tab B
    showed only its own card (none) until a reload or a send; the outbox is the phone's, so
    tab B's card shows A's waiting entry at once (localStorage's "storage" event), and
    without it once it is sent."""
    game = new_game(live_server)
    path = f"/g/{game['edit']}"
    kept_offline(page, path)
    tab_b = context.new_page()
    tab_b.goto(path)
    expect(tab_b.locator("#round-area form.round-form")).to_be_visible()
    expect(tab_b.locator("#outbox")).to_have_count(0)

    offline(context, live_server, True)
    type_round(page)  # tab A: Bob 12, Cy 3, Ann went out
    expect(page.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
    entry = tab_b.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting")
    expect(entry.locator(".outbox-own")).to_contain_text("Bob: 12")

    offline(context, live_server, False)  # sent (by whichever tab first): gone from both
    for tab in (page, tab_b):
        expect(tab.locator("#outbox")).to_have_count(0)
    assert rounds(live_server, game["id"]) == 1


def test_a_hand_posted_offline_keeps_its_kept_card_in_view(
    context: BrowserContext, page: Page, live_server: LiveServer, shot
) -> None:
    """At 360 px, Bob posts his hand offline. The live part's poll failed a moment later and
    its "Could not reach the server" scrolled the page to the bottom (the scoreboard): the
    card saying the hand is kept on the phone was off-screen at the top. Now a failed poll
    says so where it is without moving the view, and the kept card is what is in view."""
    page.set_viewport_size({"width": 360, "height": 740})
    game = new_game(live_server)
    bob_joined(page, game)
    kept_offline(page, f"/p/{game['share']}")

    offline(context, live_server, True)
    page.get_by_label("Points left in my hand").fill("14")
    page.evaluate("() => scrollBy(0, 300)")  # scrolled on, as a player reading the board
    page.get_by_role("button", name="Post my hand").click()
    entry = page.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting")
    # the live part's poll (every 2 s) fails meanwhile
    expect(
        page.locator(".flash.error").filter(has_text="Could not reach the server")
    ).to_have_count(1, timeout=10_000)
    page.wait_for_timeout(2_500)  # and again
    shot(page, "offline-hand-kept-in-view-360")
    expect(entry.get_by_text("kept on this phone")).to_be_in_viewport()


def test_a_round_saved_offline_says_it_is_kept_where_the_scorekeeper_tapped(
    context: BrowserContext, page: Page, live_server: LiveServer
) -> None:
    """At 360 px, the scorekeeper's Save offline: the word that the round is kept on the phone
    is in view by Save (the outbox card is at the top), and stays there a poll's time later."""
    page.set_viewport_size({"width": 360, "height": 740})
    game = new_game(live_server)
    kept_offline(page, f"/g/{game['edit']}")

    offline(context, live_server, True)
    type_round(page)
    expect(page.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
    page.wait_for_timeout(2_500)
    expect(page.locator(".save-status .outbox-kept")).to_be_in_viewport()
    expect(page.get_by_role("button", name="Save round", exact=True)).to_be_in_viewport()
