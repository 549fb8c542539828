"""The README's pictures, taken from the running app so they stay current.

    .venv/bin/python scripts/screenshots.py              # every picture -> docs/img/<name>.png
    .venv/bin/python scripts/screenshots.py player-phone # only the ones named
    .venv/bin/python scripts/screenshots.py --list       # the names

It uses the browser tests' set-up: the app on a temporary SQLite file served in a thread
(``serve_app`` in tests/browser/conftest.py), games stored with ``seed_game``
(tests/browser/seeding.py), and Chromium (/usr/bin/chromium, or CHROMIUM_PATH) at a phone's
size. Every picture starts from a fresh database, so one picture's games never show in another.

To add a picture, write one function taking a :class:`Studio` and decorate it with
``@picture("its-name")``; it saves ``docs/img/its-name.png`` by calling ``studio.save(page)``.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import (  # noqa: E402
    Browser,
    Locator,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

from tests.browser.conftest import (  # noqa: E402
    CHROMIUM_ARGS,
    PHONE,
    LiveServer,
    _system_chromium,
    serve_app,  # noqa: E402
)
from tests.browser.seeding import join_secret, seed_game  # noqa: E402

IMAGES = ROOT / "docs" / "img"
# Device pixels per CSS pixel: 2 keeps the text sharp on a high-density screen at a width a
# page shows (412 CSS px), for about a fifth of the Pixel 7's own 2.625 in bytes.
SCALE = 2
MARGIN = 8  # CSS px kept above and below a band of the page
STEP_MS = 15_000  # each step may wait this long for what it expects (a loaded machine)


@dataclass
class Studio:
    """What a picture function works with: the live ``server`` (empty database), a way to open
    phones, and :meth:`save`."""

    name: str
    server: LiveServer
    browser: Browser
    playwright: Playwright
    saved: list[Path] = field(default_factory=list)

    @contextmanager
    def phone(self, **overrides: object) -> Iterator[Page]:
        """A page in a fresh phone-sized context (its own cookies: its own device) on the
        server; the htmx CDN is cut so the local copy loads at once (no network here)."""
        options = {**self.playwright.devices[PHONE], "device_scale_factor": SCALE, **overrides}
        context = self.browser.new_context(**options, base_url=self.server.url)
        context.set_default_timeout(STEP_MS)
        context.route("https://cdn.jsdelivr.net/**", lambda route: route.abort())
        try:
            yield context.new_page()
        finally:
            context.close()

    def seed_game(self, names: tuple[str, ...]) -> tuple[str, str]:
        """A double-6 game of ``names`` stored in a new night: (edit token, share token)."""
        from companion.extensions import db
        from companion.models import Game

        with self.server.app.app_context():
            edit = seed_game(names)
            share = db.session.scalar(db.select(Game.share_token).where(Game.edit_token == edit))
            db.session.remove()
        return edit, share or ""

    def seed_played_game(
        self, names: tuple[str, ...], set_size: int, rounds: int
    ) -> tuple[str, str]:
        """A game of ``names`` on a double-``set_size`` set with ``rounds`` rounds already
        scored through the score keeper's own services (``seed_game`` of
        tests/browser/test_table_sizes_browser.py): (edit token, share token). For a picture
        of a table of some size, e.g.::

            @picture("scorekeeper-12")
            def scorekeeper_12(studio: Studio) -> None:
                names = tuple(f"Player {i + 1}" for i in range(12))
                edit, _ = studio.seed_played_game(names, 18, 6)
                with studio.phone() as page:
                    open_game(page, edit)
                    studio.save(page)
        """
        from tests.browser.test_table_sizes_browser import seed_game as seed_played

        edit, share, _night = seed_played(self.server.app, list(names), set_size, rounds)
        return edit, share

    def save(self, page: Page, *, parts: tuple[Locator, ...] = ()) -> Path:
        """Save what ``page`` shows as docs/img/<this picture's name>.png: the screen, or the
        band of the whole page from the first of ``parts`` to the last (full width)."""
        IMAGES.mkdir(parents=True, exist_ok=True)
        path = IMAGES / f"{self.name}.png"
        options: dict = {"path": str(path), "caret": "initial"}
        # caret="initial": hiding the caret injects a style the app's CSP would refuse
        if parts:
            boxes = [box for part in parts if (box := part.bounding_box())]
            top = min(b["y"] for b in boxes) + page.evaluate("window.scrollY") - MARGIN
            bottom = max(b["y"] + b["height"] for b in boxes) + page.evaluate("window.scrollY")
            width = page.viewport_size["width"] if page.viewport_size else 412
            clip = {"x": 0, "y": max(0, top), "width": width, "height": bottom - top + MARGIN}
            options.update(full_page=True, clip=clip)
        page.screenshot(**options)
        self.saved.append(path)
        return path


PICTURES: dict[str, Callable[[Studio], None]] = {}


def picture(name: str) -> Callable[[Callable[[Studio], None]], Callable[[Studio], None]]:
    """Register a picture function under ``name`` (the file docs/img/<name>.png)."""

    def register(function: Callable[[Studio], None]) -> Callable[[Studio], None]:
        PICTURES[name] = function
        return function

    return register


def open_game(page: Page, edit: str) -> None:
    """The scorekeeper's game page, htmx loaded (the first phone to open it keeps score)."""
    page.goto(f"/g/{edit}")
    page.wait_for_function("() => window.htmx !== undefined")


def play_round(page: Page, number: int, scores: dict[str, int | None]) -> None:
    """Type round ``number``'s hands (points; None: went out), save, wait for the next form."""
    for name, points in scores.items():
        if points is None:
            page.locator("fieldset.hand", has_text=name).get_by_label("Went out").check()
        else:
            page.get_by_label(f"Points for {name}").fill(str(points))
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_text(f"Round {number + 1} of")).to_be_visible()


TABLE = ("Ann", "Bjørn", "Chen", "Dara")


def shoot_round(studio: Studio, names: list[str], set_size: int, posted: dict) -> None:
    """The scorekeeper's screen of a game of ``names`` on a double-``set_size`` set, from its
    top to the round form's Save button, some hands ``posted`` from the players' phones
    (seat index -> points, None: went out); prints the form's height against its budget."""
    from tests.browser.table_screen import (
        FORM_BUDGET,
        SMALL_PHONE,
        form_height,
        phone_posts,
        seed_table,
    )

    table = seed_table(studio.server.app, names, set_size)
    with studio.phone(**SMALL_PHONE) as page:
        page.goto(f"/g/{table.edit}")
        phone_posts(studio.server.app, table.id, posted)
        page.reload()
        expect(page.locator("#round-area form.round-form")).to_be_visible()
        last = page.get_by_role("group", name=names[-1], exact=True)
        expect(last.locator(".post-mark")).to_be_visible()
        height = form_height(page)
        bottom = page.evaluate(
            "() => { const b = document.querySelector('#round-area .actions');"
            " window.scrollTo(0, document.body.scrollHeight);"
            " const end = b.getBoundingClientRect().bottom + window.scrollY + 8;"
            " window.scrollTo(0, 0); return end; }"
        )
        # A viewport as tall as the shot: the sticky Save then stands at its own place under
        # the form (in a stitched full-page shot it would float over the hands).
        page.set_viewport_size({"width": 360, "height": int(bottom)})
        page.evaluate("window.scrollTo(0, 0)")
        studio.save(page)
        print(
            f"round form {height:.0f} px from its first hand to Save"
            f" (budget {FORM_BUDGET[len(names)]} px)"
        )


@picture("scorekeeper-4")
def scorekeeper_4(studio: Studio) -> None:
    """The scorekeeper's screen: four players on double-9, two hands posted from phones."""
    from tests.browser.table_screen import FOUR

    shoot_round(studio, FOUR, 9, {0: 12, 2: None})


@picture("scorekeeper-12")
def scorekeeper_12(studio: Studio) -> None:
    """The scorekeeper's screen: twelve players on double-18, six hands posted from phones."""
    from tests.browser.table_screen import TWELVE

    shoot_round(studio, TWELVE, 18, {0: 23, 1: 8, 3: None, 4: 41, 7: 17, 10: 5})


@picture("player-phone")
def player_phone(studio: Studio) -> None:
    """A player's phone after joining its seat and posting its hand by tapping its tiles."""
    edit, share = studio.seed_game(TABLE)
    with studio.phone() as keeper, studio.phone() as page:
        open_game(keeper, edit)  # the scorekeeper's phone holds the game first
        page.goto(f"/j/{join_secret(studio.server.app, share)}")
        page.get_by_role("button", name="Chen", exact=True).click()
        page.wait_for_url(re.compile(r"/p/[\w-]+$"))
        box = page.locator("details.picker-box")
        if box.get_attribute("open") is None:
            box.locator("summary").click()
        for tile in ("6-4", "3-2", "5-0"):
            box.locator(f"label.pick:has(input[value='{tile}'])").click()
        page.get_by_role("button", name=re.compile("(Post|Change) my hand")).click()
        expect(page.locator(".post-state")).to_contain_text("3 tiles")
        page.evaluate("window.scrollTo(0, 0)")
        studio.save(page)


OPEN_FOOT = "9-5 on C; 9-4 on C; 9-3 on C; 9-2 on C; 5-5 on S1"


@picture("checker-verdict")
def checker_verdict(studio: Studio) -> None:
    """The rules checker's verdict on a tile played beside an open chicken foot, with its
    drawing (the refused tile in red)."""
    with studio.phone() as page:
        page.goto(f"/checker/?q=move&pos={OPEN_FOOT}")
        page.locator("label.chip:has(input[value='6-4'])").click()
        page.locator('svg.layout a.end-link[data-on="S2"]').click()
        verdict = page.locator("#verdict")
        expect(verdict).to_contain_text("No, it cannot go there.")
        expect(page.locator("svg.layout g.tile.illegal")).to_have_count(1)
        studio.save(page, parts=(verdict, page.locator("svg.layout")))


@picture("player-history")
def player_history(studio: Studio) -> None:
    """A player's history page (record, head-to-head, latest games) over demo game nights."""
    from companion.extensions import db
    from companion.history.demo import generate

    with studio.server.app.app_context():
        generate(db.session, games=60, players=8)
        db.session.remove()
    with studio.phone() as page:
        page.goto("/history/players")
        page.get_by_role("link", name="Anna", exact=True).first.click()
        page.wait_for_url(re.compile(r"/history/players/\d+"))
        studio.save(page)


def main(argv: list[str] | None = None) -> int:
    """Take the pictures named on the command line (all by default); print each file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="pictures to take (default: all)")
    parser.add_argument("--list", action="store_true", help="print the pictures' names")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(PICTURES))
        return 0
    unknown = sorted(set(args.names) - set(PICTURES))
    if unknown:
        parser.error(f"no picture named {', '.join(unknown)} (--list names them)")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=_system_chromium(), args=CHROMIUM_ARGS)
        try:
            for name in args.names or list(PICTURES):
                with serve_app() as server:
                    studio = Studio(name, server, browser, playwright)
                    PICTURES[name](studio)
                for path in studio.saved:
                    print(path.relative_to(ROOT))
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
