"""Fresh testers saw about 12 Content-Security-Policy refusals of inline styles in the console
after a refused save (409, 422) on a 360 px phone with the CDN blocked (the local htmx copy in
use). The cause: htmx's settle step copies each swapped element's old ``style`` attribute onto
its new copy (``attributesToSettle``), with ``setAttribute``, which the CSP (``style-src
'self'``) refuses. Nothing of the app sets an inline style, but anything that styles a field
before the swap (the browser's or an extension's marking of a field, a password manager's icon)
leaves one for htmx to copy. ``attributesToSettle`` now leaves ``style`` out
(templates/base.html's htmx-config); the CSP is as strict as before."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import watch_csp
from tests.browser.table_screen import FOUR, seed_table
from tests.browser.test_entries_kept_browser import keeper_saves
from tests.browser.test_table_screen_browser import small_phone

__all__ = ["small_phone"]  # the fixture: a 360 x 740 phone

pytestmark = pytest.mark.browser

#: what an extension or the browser does to a form's fields: an inline style set through the
#: CSSOM (which the CSP allows), on every element of the round area that has an id
STYLE_THE_FIELDS = """() => {
  const styled = document.querySelectorAll('#round-area [id]');
  styled.forEach(e => { e.style.outline = '1px solid transparent'; });
  return styled.length;
}"""

#: htmx's swap and settle are over (it marks the swapped area while they last)
SETTLED = "() => !document.querySelector('.htmx-swapping, .htmx-settling, .htmx-added')"


def save(page: Page) -> None:
    assert page.evaluate(STYLE_THE_FIELDS) > 0
    page.get_by_role("button", name="Save round").last.click()


def test_refused_saves_log_no_csp_refusal_with_the_local_htmx(
    small_phone: Page, live_server
) -> None:
    page = small_phone
    page.route("https://cdn.jsdelivr.net/**", lambda route: route.abort())  # blocked
    refusals = watch_csp(page)
    table = seed_table(live_server.app, FOUR, 6)
    page.goto(f"/g/{table.edit}")
    page.wait_for_function("() => window.htmx !== undefined && !!window.htmx.version")
    assert page.evaluate("() => !!document.querySelector('script[src*=\"/static/vendor/\"]')")
    # a 422: nobody went out of a round that was not blocked
    for name, points in zip(FOUR, (3, 4, 5, 6), strict=True):
        page.get_by_label(f"Points for {name}").fill(str(points))
    save(page)
    expect(page.locator("#round-area .flash.error")).to_be_visible()
    page.wait_for_function(SETTLED)
    # a 409: another scorekeeper's phone saved the round first
    keeper_saves(live_server.app, table.id, {"Ann": None, "Bob": 4, "Cho": 5, "Dee": 6})
    page.get_by_role("group", name="Ann", exact=True).get_by_label("Went out").check()
    page.get_by_label("Points for Ann").fill("")
    save(page)
    expect(page.locator("#round-area .card.saved")).to_be_visible()
    page.wait_for_function(SETTLED)
    assert refusals == []
