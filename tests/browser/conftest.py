"""Shared browser fixtures: Debian's Chromium, a live server on a temporary SQLite file, a phone.

Use them in any ``tests/browser/test_*.py``::

    pytestmark = pytest.mark.browser

    def test_home(phone, live_server, shot):
        phone.goto(live_server.url + "/")
        shot(phone, "home")

* ``live_server``: the app (``create_app`` with a temporary SQLite *file*, CSRF on) served by
  werkzeug on a free port in a daemon thread; ``.url`` is its base address, ``.app`` the app
  (use ``with live_server.app.app_context():`` to seed rows).
* ``phone``: a page in a fresh Pixel 7 context (412x839, touch), ``base_url`` = the live server.
* ``shot(page, name)``: a full-page screenshot saved as ``test-artifacts/<name>.png``.
* ``axe_violations(page)``: the axe-core violations of the current page (a list of dicts).
* ``csp_refusals``: the Content-Security-Policy refusals the ``phone`` page logs (a list that
  fills as the test runs; assert it is empty at the end).
"""

from __future__ import annotations

import os
import shutil
import socket
import struct
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import expect
from werkzeug.serving import WSGIRequestHandler, make_server

from companion import create_app
from companion.config import TestConfig
from companion.extensions import db

ROOT = Path(__file__).resolve().parents[2]
# Assertions wait up to 15 s for the state they expect (Playwright's default is 5 s): the CI
# machine's two cores are shared with the rest of the suite, and a save under that load can take
# longer than 5 s to land. A state that never comes still fails.
expect.set_options(timeout=15_000)
ARTIFACTS = ROOT / "test-artifacts"
PHONE = "Pixel 7"
#: the phone's width in CSS px, as a page script reads it. Not ``window.innerWidth``: on a mobile
#: page (``is_mobile``) it grows with content wider than the screen (the phone zooms out), so a
#: check against it can never fail; the root's client width stays the screen's (360 px).
PHONE_WIDTH = "document.documentElement.clientWidth"
#: a page script: true when nothing is wider than the phone (no sideways scrolling)
PAGE_FITS = f"document.documentElement.scrollWidth <= {PHONE_WIDTH}"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


def _system_chromium() -> str | None:
    """CHROMIUM_PATH if set, else Debian's /usr/bin/chromium if present, else None (then
    Playwright's own downloaded browser is used)."""
    path = os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium"
    return path if Path(path).exists() else shutil.which(path)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch arguments, pointed at the system Chromium when there is one."""
    args = {**browser_type_launch_args, "args": CHROMIUM_ARGS}
    executable = _system_chromium()
    if executable:
        args["executable_path"] = executable
    return args


class Wifi:
    """The Wi-Fi between the phones and the live server. Cut (``cut = True``), the server
    answers no request: each one is dropped as soon as it arrives, before the app sees it (no
    status, no headers: the connection is reset), and listed in ``dropped`` ("POST /g/…").

    Why, beside Playwright's ``context.set_offline``: Chromium's offline emulation does not
    cover a request that a page's service worker lets through to the network (Playwright issue
    #2311), so now and then, on a loaded machine, a save made "offline" reached the server. A
    phone without Wi-Fi reaches nothing; with the Wi-Fi cut, neither does the emulated one.

    The check is made per request, not per connection: a connection Chromium opened before the
    cut (a preconnect) carries nothing through it either. The page sees what it sees when the
    Wi-Fi is lost: ``fetch`` rejects, an XMLHttpRequest ends with status 0, a navigation fails
    (tests/browser/test_offline_browser.py checks it). Test clients (``app.test_client()``, a
    second phone in a test) call the app directly and are never cut."""

    def __init__(self) -> None:
        self.cut = False
        self.dropped: list[str] = []

    def handler(self) -> type[WSGIRequestHandler]:
        """werkzeug's request handler, with this Wi-Fi between the phone and the app."""
        wifi = self

        class ThroughTheWifi(WSGIRequestHandler):
            def run_wsgi(self) -> None:
                if not wifi.cut:
                    super().run_wsgi()
                    return
                wifi.dropped.append(f"{self.command} {self.path}")
                # Nothing written and nothing more read (an unread body would be taken for the
                # next request): the connection is reset at once (SO_LINGER 0, then closed; the
                # handler's own closing that follows finds it closed, without a word).
                self.close_connection = True
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                self.rfile.close()  # the socket's last file: its close() below is the real one
                self.connection.close()

        return ThroughTheWifi


@dataclass
class LiveServer:
    """A running app: ``url`` like ``http://127.0.0.1:54321``, the ``app`` itself and the
    ``wifi`` between it and the phones (``wifi.cut = True`` drops every request)."""

    url: str
    app: Flask
    wifi: Wifi


@contextmanager
def serve_app() -> Iterator[LiveServer]:
    """The app on a temporary SQLite file (CSRF on, as in production), served in a thread."""
    tmp = Path(tempfile.mkdtemp(prefix="companion-browser-"))

    class BrowserConfig(TestConfig):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{tmp / 'browser.db'}"
        WTF_CSRF_ENABLED = True

    app = create_app(BrowserConfig)
    with app.app_context():
        db.create_all()
    wifi = Wifi()
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=wifi.handler())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield LiveServer(f"http://127.0.0.1:{server.server_port}", app, wifi)
    finally:
        server.shutdown()
        thread.join(timeout=5)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    """One live server shared by the session's browser tests (a module may override it with
    a server of its own, through :func:`serve_app`, when it needs an empty database)."""
    with serve_app() as server:
        yield server


@contextmanager
def phone_page(browser, server: LiveServer, timeout_ms: int, **options) -> Iterator:
    """A page in a fresh browser context (``options``: the device, locale, JavaScript ...)
    whose base URL is ``server``, waiting at most ``timeout_ms`` for each step; the context is
    closed afterwards."""
    context = browser.new_context(**options, base_url=server.url)
    context.set_default_timeout(timeout_ms)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture()
def phone(browser, playwright, live_server: LiveServer) -> Iterator:
    """A page in a fresh phone-sized (Pixel 7) context whose base URL is the live server."""
    with phone_page(browser, live_server, 10_000, **playwright.devices[PHONE]) as page:
        yield page


@pytest.fixture()
def small_phone(browser, live_server: LiveServer) -> Iterator:
    """A player's 360 x 740 phone (``SMALL_PHONE``): a page in a fresh context, 15 s a step."""
    from tests.browser.table_screen import SMALL_PHONE

    with phone_page(browser, live_server, 15_000, **SMALL_PHONE) as page:
        yield page


@pytest.fixture()
def two_phones(browser, live_server: LiveServer) -> Iterator:
    """The scorekeeper's phone and a player's phone, each a 360 x 740 phone of its own
    (``SMALL_PHONE``), as (keeper, player)."""
    from tests.browser.table_screen import SMALL_PHONE

    with ExitStack() as stack:
        yield tuple(
            stack.enter_context(phone_page(browser, live_server, 15_000, **SMALL_PHONE))
            for _ in range(2)
        )


@pytest.fixture()
def shot() -> Callable:
    """``shot(page, name)`` saves a full-page PNG under test-artifacts/ and returns its path."""
    ARTIFACTS.mkdir(exist_ok=True)

    def _shot(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        # caret="initial": Playwright's default caret hiding injects a style into the page, which
        # the app's CSP then reports (console) at the next htmx swap: a false CSP violation.
        page.screenshot(path=str(path), full_page=True, caret="initial")
        return path

    return _shot


@pytest.fixture()
def axe_violations() -> Callable:
    """``axe_violations(page)`` runs axe-core (bundled, offline) and returns its violations."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()

    def _run(page) -> list[dict]:
        results = axe.run(page)
        return list(results.response.get("violations", []))

    return _run


def watch_csp(page) -> list[str]:
    """Collect ``page``'s Content-Security-Policy refusals (console messages) from now on."""
    found: list[str] = []

    def _on_console(message) -> None:
        if "Content Security Policy" in message.text:
            found.append(f"{message.location.get('url')}: {message.text}")

    page.on("console", _on_console)
    return found


@pytest.fixture()
def csp_refusals(phone) -> list[str]:
    """The CSP refusals of the ``phone`` page during the test (see :func:`watch_csp`)."""
    return watch_csp(phone)
