"""The import page on a phone (Pixel 7), CSRF on: a refused file shows its problems, a valid
one its report; screenshots in test-artifacts/import-*.png and no axe violations.

The files used import nothing, so the shared live server's database is left as it was for the
other browser tests."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from companion.services.exchange.export import FORMAT

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def _offline_cdn(phone: Page) -> None:
    phone.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))


def _choose(page: Page, doc: object) -> None:
    payload = json.dumps(doc).encode()
    page.get_by_label("Export file (JSON)").set_input_files(
        {"name": "backup.json", "mimeType": "application/json", "buffer": payload}
    )
    page.get_by_role("button", name="Import").click()


def _no_axe(violations: list[dict]) -> None:
    assert violations == [], [(v["id"], [n.get("target") for n in v["nodes"]]) for v in violations]


def test_import_page_reports_problems_and_success(phone: Page, shot, axe_violations) -> None:
    phone.goto("/history/import")
    expect(phone.get_by_role("heading", name="Import a backup")).to_be_visible()
    _no_axe(axe_violations(phone))
    deep = {"games": [{"rounds": [{"hands": [{"tiles": ["9-9", "x"]}]}]}]}
    bad = {"format": FORMAT, "players": [], "nights": [{"played_on": "yesterday", **deep}]}
    _choose(phone, bad)
    report = phone.locator("#import-report")
    expect(report).to_contain_text("Nothing was imported")
    expect(report).to_contain_text("$.nights[0].played_on")
    shot(phone, "import-refused")
    assert phone.evaluate("document.documentElement.scrollWidth") <= phone.viewport_size["width"]
    _no_axe(axe_violations(phone))
    _choose(phone, {"format": FORMAT, "players": [], "nights": []})
    expect(phone.locator("#import-report")).to_contain_text("Added: 0 players")
    shot(phone, "import-accepted")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= phone.viewport_size["width"]
