"""Installable and offline-tolerant (issue 14): the web app manifest, the service worker served
from the root, and which pages a phone may keep for reading offline.

* ``/manifest.webmanifest``: name, icons (static/icons, drawn by scripts/make_icons.py),
  ``display: standalone``, start URL ``/``.
* ``/sw.js``: static/sw.js preceded by one line naming the shell files (their versioned URLs,
  :mod:`companion.web.assets`) and a cache version made from their digests, so a changed CSS or
  script file makes a new service worker that fetches the new shell and drops the old one.
* Pages reached by an edit or join link are ``no-store`` for every HTTP cache
  (:mod:`companion.web.security`). The service worker keeps a copy in its own Cache Storage only
  of a page the server marks with ``X-Offline-Page: <game id>``: the scorekeeper's game page
  and a joined phone's hand page, answered 200 to a phone that holds that right now. Any other
  answer for such an address deletes the copy; and those pages and the start page carry
  ``X-Offline-Games``, the games this phone may keep now, so the copies of a game handed away
  (or a seat freed) are deleted at its next page online, without a request of their own.
* No request the worker makes by itself writes the session cookie back: the shell is fetched
  without cookies and ``/sw.js`` (fetched by the browser to look for updates) answers without
  saving the session, so an older cookie can never overwrite a fresher one (a notice).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, cast

from flask import (
    Flask,
    Response,
    get_flashed_messages,
    has_request_context,
    redirect,
    request,
    url_for,
)
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from sqlalchemy import select

from ..access import Grant, Role, current_device, holds, requires
from ..extensions import db
from ..models import Game, GameAccess

#: folders of static/ whose files make the app shell cached for offline use
SHELL_FOLDERS = ("css", "js", "icons", "vendor")
#: files of those folders left out of the shell: the PNG icons (141 KB) are for the home
#: screen, which the browser fetches by itself when the app is installed; no page shows them,
#: so a first visit need not download them (issue 26)
NOT_IN_SHELL = (".png",)
#: the response header naming the game whose page the service worker may keep
PAGE_HEADER = "X-Offline-Page"
#: the response header listing the games whose pages this phone may keep (comma-separated ids)
GAMES_HEADER = "X-Offline-Games"
#: the request header of the service worker's own fetch of a page to keep (static/sw.js,
#: "keep-first"): a page drawn for it shows no notice, so one meant for the phone (set by a
#: save or an undo the phone made meanwhile) waits for the page the phone opens
COPY_HEADER = "X-Offline-Copy"
#: the pages the service worker handles, which carry :data:`GAMES_HEADER`
LISTING_PAGES = ("games.index", "games.play", "table.hand")
#: the blueprints whose pages load static/js/offline.js: the pages kept offline, the forms
#: whose entries wait on the phone (the round form, a player's hand) and the start page (the
#: service worker's registration, the install hint). The history and the checker keep nothing
#: offline: they skip its 7 KB (issue 26: at most 30 KB a first visit)
OFFLINE_BLUEPRINTS = ("games", "table")
#: the endpoints whose pages may be kept offline: the view argument naming the game, the
#: game's column it matches and the right the phone must hold
KEPT_PAGES: dict[str, tuple[str, str, Grant]] = {
    "games.play": ("token", "edit_token", Grant.SCOREKEEPER),
    "table.hand": ("share_token", "share_token", Grant.PLAYER),
}
#: the theme colours of static/css/app.css (the top bar's background), light and dark
THEME_LIGHT = "#ffffff"
THEME_DARK = "#1d1d21"
#: the app's background behind the splash screen
BACKGROUND = "#fbfaf7"
#: the icons drawn by scripts/make_icons.py: file, size in px, purpose. Chrome fetches the
#: smallest one at least as large as its ideal size on every page's first load (its install
#: check): 144 px, the least it installs with and a launcher icon's size on phones up to 3x
#: density, so most phones fetch 1.9 KB instead of the 192 px icon's 3.2 (issue 26)
ICONS = (
    ("icons/icon-144.png", 144, "any"),
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
)


#: request flag (WSGI environ): this answer leaves the session cookie alone
#: (see :class:`QuietSessionInterface`)
QUIET_SESSION = "companion.quiet_session"
#: endpoints whose answers never set the session cookie: the same file for every phone (static
#: files, the manifest). Flask re-sends a permanent session's cookie (about 310 bytes) with
#: every answer, so a page's ten files carried it ten times on a first visit (issue 26: at
#: most 30 KB); the page itself renews it.
QUIET_ENDPOINTS = ("static", "web_manifest")


class QuietSessionInterface(SecureCookieSessionInterface):
    """Flask's cookie sessions, except that an answer flagged :data:`QUIET_SESSION`, from one
    of :data:`QUIET_ENDPOINTS` or to the service worker's own fetch of a page
    (:data:`COPY_HEADER`) never sets the cookie (Flask otherwise re-sends a permanent
    session's cookie with every answer).

    The worker's fetch runs in the background, at any moment: its answer wrote back the cookie
    it was sent with over whatever the phone did meanwhile (a browser test that drops the
    cookies saw the old session come back a few milliseconds later, under load)."""

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if has_request_context() and (
            request.environ.get(QUIET_SESSION)
            or request.endpoint in QUIET_ENDPOINTS
            or request.headers.get(COPY_HEADER)
        ):
            return False
        return super().should_set_cookie(app, session)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """As Flask's, except that an answer without a body (204: the scorekeeper's poll every
        few seconds while nothing changed) does not renew an unchanged cookie: the pages do."""
        if response.status_code == 204 and not session.modified:
            if session.accessed:  # the answer still depends on the cookie
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)


def shell_files(static: Path) -> list[str]:
    """The static files of the app shell, relative to ``static`` (sorted, so stable)."""
    found: list[str] = []
    for folder in SHELL_FOLDERS:
        root = static / folder
        if root.is_dir():
            found += [p.relative_to(static).as_posix() for p in root.rglob("*") if p.is_file()]
    return sorted(
        f for f in found if not f.startswith(".") and "/." not in f and not f.endswith(NOT_IN_SHELL)
    )


def manifest() -> dict[str, Any]:
    """The web app manifest (W3C Web Application Manifest)."""
    return {
        "id": "/",
        "name": _("Chicken Foot Companion"),
        "short_name": _("Chicken Foot"),
        "description": _("Score keeping, rules and history for Chicken Foot dominoes."),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME_LIGHT,
        "background_color": BACKGROUND,
        "icons": [
            {
                "src": url_for("static", filename=name),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for name, size, purpose in ICONS
        ],
    }


def _service_worker(app: Flask) -> Response:
    static = Path(app.static_folder or "static")
    assets = app.extensions["assets"]
    files = shell_files(static)
    digests = "".join(f"{f}:{assets.digest(f)}" for f in files)
    version = hashlib.sha256(digests.encode()).hexdigest()[:12]
    config = {
        "version": version,
        "shell": [url_for("static", filename=f) for f in files],
    }
    body = f"self.CFC = {json.dumps(config)};\n" + (static / "sw.js").read_text()
    response = Response(body, mimetype="text/javascript")
    # Always asked again (cheap): a new deploy's worker must replace the old one at once.
    response.cache_control.no_cache = True
    # The browser asks for this file by itself, at any moment (an update check on navigation):
    # its answer must not write back the cookie it was sent with, over one a form post has just
    # renewed (a "Round saved." notice would be lost).
    request.environ[QUIET_SESSION] = True
    return response


def kept_games() -> list[int]:
    """The ids of the games this phone keeps score of or has joined a seat of (their pages may
    be kept for reading offline)."""
    device = current_device(create=False)
    if device is None:
        return []
    rows = db.session.scalars(
        select(GameAccess.game_id).where(
            GameAccess.device_id == device.id,
            GameAccess.role.in_([str(Grant.SCOREKEEPER), str(Grant.PLAYER)]),
        )
    )
    return sorted(set(rows))


def _kept_page_game(response: Response) -> int | None:
    """The game id when this answer is a page this phone may keep offline, else None."""
    kept = KEPT_PAGES.get(request.endpoint or "")
    if kept is None or request.method != "GET" or response.status_code != 200:
        return None
    if request.headers.get("HX-Request") == "true" or request.query_string:
        return None
    arg, column, grant = kept
    token = (request.view_args or {}).get(arg)
    game = db.session.scalar(select(Game).where(getattr(Game, column) == token))
    if game is None or not holds(current_device(create=False), game, grant):
        return None
    return game.id


def page_notices() -> list[tuple[str, str]]:
    """The notices (category, message) the page drawn now shows, taken from the session; none
    for the service worker's own fetch of a page (:data:`COPY_HEADER`), which nobody sees:
    taking them there lost an "Undone: ..." made while the first page's copy was fetched."""
    if request.headers.get(COPY_HEADER):
        return []
    # with categories, Flask gives (category, message) pairs; its stub joins both shapes
    return cast(list[tuple[str, str]], get_flashed_messages(with_categories=True))


def offline_scripts() -> bool:
    """Whether this request's page loads the offline script (see :data:`OFFLINE_BLUEPRINTS`);
    an error page outside any blueprint does not."""
    return has_request_context() and request.blueprint in OFFLINE_BLUEPRINTS


def init_offline(app: Flask) -> None:
    """Add the manifest, the service worker and the offline page marks (see the module doc)."""
    if type(app.session_interface) is SecureCookieSessionInterface:
        app.session_interface = QuietSessionInterface()

    app.jinja_env.globals["offline_scripts"] = offline_scripts
    app.jinja_env.globals["page_notices"] = page_notices

    @app.get("/manifest.webmanifest")
    @requires(Role.ANYONE)
    def web_manifest() -> Response:
        # compact, and its words as UTF-8 (not \u escapes): it is on every first visit
        body = json.dumps(manifest(), separators=(",", ":"), ensure_ascii=False)
        response = Response(body, mimetype="application/manifest+json")
        response.cache_control.no_cache = True
        return response

    @app.get("/favicon.ico")
    @requires(Role.ANYONE)
    def favicon() -> ResponseReturnValue:
        # asked for by browsers and tools that do not read the pages' icon link: the app icon
        # (302: the icon's address carries its version, which changes with it)
        return redirect(url_for("static", filename="icons/icon-144.png"), 302)

    @app.get("/sw.js")
    @requires(Role.ANYONE)
    def service_worker() -> Response:
        return _service_worker(app)

    @app.after_request
    def _mark_kept_page(response: Response) -> Response:
        game_id = _kept_page_game(response)
        if game_id is not None:
            response.headers[PAGE_HEADER] = str(game_id)
        if request.endpoint in LISTING_PAGES and request.method == "GET":
            response.headers[GAMES_HEADER] = ",".join(str(i) for i in kept_games())
        return response
