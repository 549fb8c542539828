"""A tester's finding on a player's phone at 360 x 740 (static/js/offline.js): Ann posted her
hand (9) without a connection, the scorekeeper saved the round meanwhile with 8 for her, and
back online her outbox sent it, answered 409 ("The round with 6-6 was already saved"). Her
page said "tell the scorekeeper" twice (the outbox's own words and the server's card) and her
9 twice (the card's "What you typed: 9" and the outbox's "On this phone: Points left in my
hand: 9"), with blank gaps between the card's lines. Now it reads as the answer does online
(tests/browser/test_post_for_a_saved_round_browser.py): each thing said once, no gaps."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from companion.extensions import db
from companion.models import Game
from tests.browser.table_screen import seed_table
from tests.browser.test_repost_and_reload_browser import joins
from tests.browser.test_table_screen_browser import small_phone
from tests.web.playkit import round_post

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser

#: a gap between two lines of the answer, beyond which it shows as an empty line
#: (body: 17 px at line-height 1.45)
ONE_LINE = 17 * 1.45

#: each line of text in ``box`` (paragraphs, headings, list items): [top, bottom] in px
LINES = """box => [...box.querySelectorAll('h2, h3, p, li')]
  .filter(n => n.innerText.trim())
  .map(n => { const r = n.getBoundingClientRect(); return [r.top, r.bottom]; })"""


def test_a_hand_sent_after_the_round_was_saved_is_answered_once_without_gaps(
    small_phone: Page, live_server
) -> None:
    ann = small_phone
    table = seed_table(live_server.app, ["Ann", "Bob", "Cho"], 6)
    keeper = live_server.app.test_client()  # the scorekeeper's phone: the first on the game page
    form = keeper.get(f"/g/{table.edit}").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', form)
    assert token
    joins(ann, table.join, "Ann")
    with live_server.app.app_context():
        saved = round_post(
            db.session.get(Game, table.id), 6, totals={"Ann": 8, "Bob": 5}, out="Cho"
        )
    try:
        live_server.wifi.cut = True
        ann.context.set_offline(True)
        ann.get_by_label("Points left in my hand").fill("9")
        ann.get_by_role("button", name="Post my hand").click()
        entry = ann.locator("#outbox .outbox-entry")
        expect(entry).to_have_attribute("data-state", "waiting")
        answer = keeper.post(f"/g/{table.edit}/round", data={**saved, "csrf_token": token[1]})
        assert answer.status_code == 303
    finally:
        live_server.wifi.cut = False
    ann.context.set_offline(False)
    expect(ann.locator("#post-title")).to_contain_text("5-5", timeout=20_000)
    expect(entry).to_have_attribute("data-state", "conflict")
    expect(entry.locator("h3")).to_have_text("The round with 6-6 was already saved")
    expect(entry).to_contain_text("Saved: 8 (the scorekeeper entered it)")
    expect(entry).to_contain_text("What you typed: 9")

    # each thing said once: what to do, and her 9
    page_text = ann.locator("main").inner_text()
    assert page_text.count("tell the scorekeeper") == 1, page_text
    assert re.findall(r"\b9\b", entry.inner_text()) == ["9"], entry.inner_text()
    expect(entry.locator(".outbox-own")).to_have_count(0)

    # no empty gaps: the answer's lines follow each other as a card's lines do
    card = entry.locator(".card.closed")
    box = card.bounding_box()
    lines = card.evaluate(LINES)
    assert box and len(lines) == 3, lines
    assert lines[0][0] - box["y"] <= 12 + 1 + 4, (box, lines)  # its padding and border
    gaps = [b[0] - a[1] for a, b in zip(lines, lines[1:], strict=False)]
    assert all(gap < ONE_LINE for gap in gaps), gaps
