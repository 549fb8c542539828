"""Screenshots of the scorekeeper's screen for the docs, made with the browser tests' own set-up
(so they show the screen as it is): docs/img/scorekeeper-4.png (4 players, double-9) and
docs/img/scorekeeper-12.png (12 players, double-18), at 360 x 740 CSS px, 2x.

It also prints the round form's height (first hand to Save) beside its budget. Each shows
the first round with some hands posted from the players' phones (one changed after
the form was filled for 4 players) and the rest not posted. Run from the checkout:

    .venv/bin/python scripts/screenshots.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM_ARGS, phone_page, serve_app  # noqa: E402
from tests.browser.table_screen import (  # noqa: E402
    FORM_BUDGET,
    FOUR,
    SMALL_PHONE,
    TWELVE,
    form_height,
    phone_posts,
    seed_table,
)

OUT = ROOT / "docs" / "img"


def shoot(page: Page, names: list[str], path: Path) -> None:
    """The game page from its top to the round form's Save button (the sticky Save in its own
    place), as a PNG at ``path``."""
    expect(page.locator("#round-area form.round-form")).to_be_visible()
    last = page.get_by_role("group", name=names[-1], exact=True)
    expect(last.locator(".post-mark")).to_be_visible()
    bottom = page.evaluate(
        "() => { const b = document.querySelector('#round-area .actions');"
        " window.scrollTo(0, document.body.scrollHeight);"
        " const end = b.getBoundingClientRect().bottom + window.scrollY + 8;"
        " window.scrollTo(0, 0); return end; }"
    )
    # A viewport as tall as the shot: the sticky Save then stands at its own place under the
    # form (in a stitched full-page shot it would float over the hands).
    page.set_viewport_size({"width": 360, "height": int(bottom)})
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), caret="initial", animations="disabled")
    page.set_viewport_size(SMALL_PHONE["viewport"])


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with serve_app() as server, sync_playwright() as p:
        from companion.extensions import db

        with server.app.app_context():
            db.create_all()
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for names, set_size, posted in (
            (FOUR, 9, {0: 12, 2: None}),
            (TWELVE, 18, {0: 23, 1: 8, 3: None, 4: 41, 7: 17, 10: 5}),
        ):
            table = seed_table(server.app, names, set_size)
            with phone_page(browser, server, 15_000, **SMALL_PHONE) as page:
                page.goto(f"/g/{table.edit}")
                phone_posts(server.app, table.id, posted)
                page.reload()
                path = OUT / f"scorekeeper-{len(names)}.png"
                shoot(page, names, path)
                height = form_height(page)
                print(
                    f"{path.relative_to(ROOT)}: round form {height:.0f} px from its first hand"
                    f" to Save (budget {FORM_BUDGET[len(names)]} px)"
                )
        browser.close()


if __name__ == "__main__":
    main()
