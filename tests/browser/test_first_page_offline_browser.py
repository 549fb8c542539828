"""The first game page a fresh browser opens is kept for offline at once (issue 22): it was
loaded before the service worker controlled it, and was kept only from its second load on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.table_screen import FOUR, seed_table
from tests.browser.test_offline_browser import Phone, offline

pytestmark = pytest.mark.browser

#: true once the worker keeps a copy of the page at the path given (asked every 100 ms, for at
#: most 15 s: the worker keeps it in the background)
KEPT = """async (path) => {
  for (let i = 0; i < 150; i++) {
    if (await caches.match(location.origin + path)) return true;
    await new Promise((done) => setTimeout(done, 100));
  }
  return false;
}"""


def test_the_first_game_page_a_fresh_browser_opens_is_kept_offline(
    playwright, browser_type_launch_args, live_server, tmp_path
) -> None:
    table = seed_table(live_server.app, FOUR, 9)
    phone = Phone(playwright, browser_type_launch_args, live_server.url, str(tmp_path / "p"))
    try:
        page = phone.page()
        path = f"/g/{table.edit}"
        page.goto(path)  # once: no second load
        page.wait_for_function(
            "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"
        )
        # (wait_for_function does not wait for a promise: the page polls the cache itself)
        assert page.evaluate(KEPT, path), "the first page was not kept"
        offline(phone.context, live_server, True)
        page.reload()
        expect(page.locator("body[data-offline-copy]")).to_have_count(1)
        expect(page.get_by_label("Points for Ann")).to_be_visible()
    finally:
        offline(phone.context, live_server, False)
        phone.context.close()
