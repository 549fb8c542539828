"""A player's hand kept in the outbox while the phone's CSRF token went stale (static/js/offline.js,
companion/web/stale_forms.py): Bob posts 12 without a connection; meanwhile the session's
token is gone (the browser lost it, as a session that lost its CSRF secret does), so the entry's
token and the page's are both stale. Back online the outbox sends it and the server refuses it
as a stale form: the entry is never dropped as if saved, the phone says it is kept; the page is
loaded again (a fresh token) and the entry is sent with that token: the hand is posted as
typed, once."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from companion.extensions import db
from companion.models import Game, HandPost
from tests.browser.table_screen import seed_table
from tests.browser.test_repost_and_reload_browser import joins
from tests.web.playkit import seat_ids

pytestmark = pytest.mark.browser


def forget_csrf_secret(page: Page, app) -> None:
    """The phone's session cookie without its CSRF secret (the phone, its device and its seat
    stay): every token the phone holds is stale now; the next page gets a fresh one."""
    serializer = app.session_interface.get_signing_serializer(app)
    cookies = [c for c in page.context.cookies() if c["name"] == app.config["SESSION_COOKIE_NAME"]]
    assert len(cookies) == 1, cookies
    cookie = cookies[0]
    session = serializer.loads(cookie["value"])
    assert session.pop("csrf_token", None)
    page.context.add_cookies([{**cookie, "value": serializer.dumps(session)}])


def posts_12_offline(phone: Page, live_server, meanwhile: Callable[[], None]) -> None:
    """Bob posts 12 without a connection (his first post, or a change of it): the entry waits;
    ``meanwhile`` happens to the phone before the connection is back."""
    try:
        live_server.wifi.cut = True
        phone.context.set_offline(True)
        phone.get_by_label("Points left in my hand").fill("12")
        phone.get_by_role("button", name=re.compile("(Post|Change) my hand")).click()
        expect(phone.locator("#outbox .outbox-entry")).to_have_attribute("data-state", "waiting")
        meanwhile()
    finally:
        live_server.wifi.cut = False
    phone.context.set_offline(False)


def test_a_hand_kept_with_a_stale_token_is_never_dropped_and_is_posted_as_typed(
    phone: Page, live_server
) -> None:
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    joins(phone, table.join, "Bob")
    answers: list[int] = []
    phone.on(
        "response",
        lambda r: answers.append(r.status) if r.request.method == "POST" else None,
    )
    posts_12_offline(phone, live_server, lambda: forget_csrf_secret(phone, live_server.app))

    # sent with the stale token, refused as a stale form: kept and said so (never "posted"),
    # then, on the page loaded again, sent with its fresh token and posted as typed
    expect(phone.locator(".post-state")).to_contain_text("Posted: 12 point", timeout=20_000)
    expect(phone.locator("#outbox")).to_have_count(0)
    assert 400 in answers, answers  # the stale send was refused, not taken for a save
    with live_server.app.app_context():
        posts = list(db.session.scalars(select(HandPost).where(HandPost.game_id == table.id)))
    assert [(p.total, p.revision) for p in posts] == [(12, 1)]
    assert re.search(r"/p/[\w-]+$", phone.url)


def test_a_hand_posted_with_a_stale_token_is_posted_as_typed_after_its_page_loads_again(
    phone: Page, live_server
) -> None:
    """The same online: Bob taps Post with a page whose token went stale. The answer (the form
    as typed, "open too long") is not a save: the entry stays, its page is loaded again and it
    is sent with the fresh token, the player typing nothing again."""
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    joins(phone, table.join, "Bob")
    forget_csrf_secret(phone, live_server.app)
    phone.get_by_label("Points left in my hand").fill("12")
    phone.get_by_role("button", name="Post my hand").click()
    expect(phone.locator(".post-state")).to_contain_text("Posted: 12 point", timeout=20_000)
    expect(phone.locator("#outbox")).to_have_count(0)
    with live_server.app.app_context():
        posts = list(db.session.scalars(select(HandPost).where(HandPost.game_id == table.id)))
    assert [(p.total, p.revision) for p in posts] == [(12, 1)]


def test_a_hand_kept_by_a_phone_that_lost_its_session_waits_until_it_joins_again(
    phone: Page, live_server
) -> None:
    """Bob's browser lost its session cookie while his hand waited: the phone is a new one, not
    joined. The entry is refused as stale, never taken for a save by the join page's redirect
    (a fresh token there is not this seat's); the scorekeeper frees his seat, he joins it again
    and the entry is posted as typed."""
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    keeper = live_server.app.test_client()  # the scorekeeper's phone: the first on the game page
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', keeper.get(f"/g/{table.edit}").text)
    assert token
    joins(phone, table.join, "Bob")
    posts_12_offline(phone, live_server, phone.context.clear_cookies)
    phone.wait_for_url(re.compile(r"/j/[\w-]+$"), timeout=20_000)  # "holds no seat"
    phone.wait_for_timeout(1_000)
    kept = phone.evaluate("() => localStorage.getItem('cfc-outbox')")
    assert kept and '["total","12"]' in kept, kept

    with live_server.app.app_context():
        bob = seat_ids(db.session.get(Game, table.id))["Bob"]
    freed = keeper.post(f"/g/{table.edit}/seats/{bob}/free", data={"csrf_token": token[1]})
    assert freed.status_code == 303
    with live_server.app.app_context():  # (freeing a seat gives the game a new join link)
        join = db.session.get(Game, table.id).join_token
    joins(phone, join, "Bob")  # the scorekeeper's QR code scanned again
    expect(phone.locator(".post-state")).to_contain_text("Posted: 12 point", timeout=20_000)
    with live_server.app.app_context():
        posts = list(db.session.scalars(select(HandPost).where(HandPost.game_id == table.id)))
    assert [p.total for p in posts] == [12]


def test_a_hand_whose_fresh_token_is_refused_too_waits_saying_so(phone: Page, live_server) -> None:
    """A phone whose every token is refused (its cookies kept from the server: answered here
    by a stand-in) is not reloaded over and over: after the one reload, the entry waits on the
    hand page saying why and what to do, its values listed; once a post gets through, it is
    posted as typed."""
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    joins(phone, table.join, "Bob")
    refused = {"count": 0}

    def stale(route) -> None:
        refused["count"] += 1
        route.fulfill(status=400, headers={"X-Stale-Form": "1"}, body="<p>open too long</p>")

    phone.route(
        re.compile(r"/p/[\w-]+(\?seat=\d+)?$"),
        lambda r: stale(r) if r.request.method == "POST" else r.continue_(),
    )
    phone.get_by_label("Points left in my hand").fill("12")
    phone.get_by_role("button", name="Post my hand").click()
    entry = phone.locator("#outbox .outbox-entry")
    expect(entry).to_have_attribute("data-state", "waiting", timeout=20_000)
    expect(entry.locator(".outbox-state")).to_have_text(
        "Not sent yet: this page was open too long. Kept on this phone: reload the page to send it."
    )
    expect(entry).to_contain_text("Points left in my hand: 12")
    phone.wait_for_timeout(1_000)
    assert refused["count"] == 2  # the tap, then once from the page loaded again
    phone.unroute(re.compile(r"/p/[\w-]+(\?seat=\d+)?$"))
    entry.get_by_role("button", name="Send now").click()
    expect(phone.locator(".post-state")).to_contain_text("Posted: 12 point", timeout=20_000)
    with live_server.app.app_context():
        posts = list(db.session.scalars(select(HandPost).where(HandPost.game_id == table.id)))
    assert [p.total for p in posts] == [12]


def test_a_stale_hand_of_another_game_does_not_hold_back_this_pages_hand(
    phone: Page, live_server
) -> None:
    """Bob's hand in one game is kept while the phone loses its session (stale for good: the
    phone never joins that game again). The phone then joins Eve's seat in another game, and
    her 12 is kept offline there. Back online, the other game's stale hand (sent first, with
    its own token) no longer ends the pass: it ended every pass (the others' tokens taken for
    as stale), so Eve's hand, sent with this page's fresh token, waited forever, "Send now"
    and reloads alike."""
    app = live_server.app
    one = seed_table(app, ["Ann", "Bob", "Cho"], 6)
    two = seed_table(app, ["Dee", "Eve", "Fay"], 6)
    joins(phone, one.join, "Bob")
    posts_12_offline(phone, live_server, phone.context.clear_cookies)
    phone.wait_for_url(re.compile(r"/j/[\w-]+$"), timeout=20_000)  # "holds no seat"
    joins(phone, two.join, "Eve")
    posts_12_offline(phone, live_server, lambda: None)
    expect(phone.locator(".post-state")).to_contain_text("Posted: 12 point", timeout=20_000)
    with app.app_context():
        posts = db.session.scalars(select(HandPost).where(HandPost.game_id.in_([one.id, two.id])))
        assert [(p.game_id, p.total) for p in posts] == [(two.id, 12)]
