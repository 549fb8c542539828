"""A phone on the hall's Wi-Fi over plain HTTP (docs/OFFLINE.md, "The outbox"), at 360 x 740.

``crypto.randomUUID`` exists only in a secure context (HTTPS or localhost), so on a LAN
address such as ``http://192.168.1.20:5000`` static/js/offline.js makes its idempotency keys
from four random 32-bit numbers instead. Every other browser test runs on localhost, where the
UUID is there; here the page's ``randomUUID`` is taken away before its scripts run, so the
fallback's keys are the ones sent, and the server must take them: a hand kept offline is
posted once when the connection is back, and a second send of the same entry is a replay."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from playwright.sync_api import Page, Request, expect
from sqlalchemy import select

from companion.extensions import db
from companion.models import HandPost
from tests.browser.table_screen import seed_table
from tests.browser.test_outbox_stale_token_browser import posts_12_offline
from tests.browser.test_repost_and_reload_browser import joins

pytestmark = pytest.mark.browser

#: what offline.js's fallback sends: four unsigned 32-bit numbers joined by "-"
FALLBACK_KEY = re.compile(r"\d{1,10}(-\d{1,10}){3}")

#: run before the page's own scripts: the page is as in an insecure context
NO_UUID = "delete Crypto.prototype.randomUUID;"


def keys_sent(page: Page) -> list[str]:
    """The ``Idempotency-Key`` header of each POST ``page`` sends, in order."""
    keys: list[str] = []

    def seen(r: Request) -> None:
        if r.method == "POST":
            keys.append(r.headers.get("idempotency-key", ""))

    page.on("request", seen)
    return keys


def revisions(app: Flask, game_id: int) -> list[int]:
    """The revision of each hand posted in game ``game_id`` (a post sent twice is 2)."""
    with app.app_context():
        return list(db.session.scalars(select(HandPost.revision).filter_by(game_id=game_id)))


def test_a_hand_kept_offline_without_random_uuid_is_posted_once(
    small_phone: Page, live_server
) -> None:
    ann = small_phone
    ann.add_init_script(NO_UUID)
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    joins(ann, table.join, "Ann")
    assert ann.evaluate("() => crypto.randomUUID === undefined")
    keys = keys_sent(ann)
    posts_12_offline(ann, live_server, meanwhile=lambda: None)
    expect(ann.locator(".post-state")).to_contain_text("Posted: 12 points", timeout=20_000)
    expect(ann.locator("#outbox .outbox-entry")).to_have_count(0)

    sent = [k for k in keys if k]
    assert sent and all(FALLBACK_KEY.fullmatch(k) for k in sent), keys
    assert revisions(live_server.app, table.id) == [1]  # posted once
