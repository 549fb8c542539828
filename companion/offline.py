"""Installable and offline-tolerant (issue 14): the web app manifest, the service worker served
from the root, and which pages a phone may keep for reading offline.

* ``/manifest.webmanifest``: name, icons (static/icons, drawn by scripts/make_icons.py),
  ``display: standalone``, start URL ``/``.
* ``/sw.js``: static/sw.js preceded by one line naming the shell files (their versioned URLs,
  :mod:`companion.assets`) and a cache version made from their digests, so a changed CSS or
  script file makes a new service worker that fetches the new shell and drops the old one.
* Pages reached by an edit or join link are ``no-store`` for every HTTP cache
  (:mod:`companion.security`). The service worker keeps a copy in its own Cache Storage only
  of a page the server marks with ``X-Offline-Page: <game id>``: the scorekeeper's game page
  and a joined phone's hand page, answered 200 to a phone that holds that right now. Any other
  answer for such an address deletes the copy; ``/offline/games`` lists the games this phone
  may keep, so the copies of a game handed away (or a seat freed) are deleted too.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from .access import Grant, Role, current_device, holds, requires
from .extensions import db
from .models import Game, GameAccess

#: folders of static/ whose files make the app shell cached for offline use
SHELL_FOLDERS = ("css", "js", "icons", "vendor")
#: the response header naming the game whose page the service worker may keep
PAGE_HEADER = "X-Offline-Page"
#: the endpoints whose pages may be kept offline: the view argument naming the game, the
#: game's column it matches and the right the phone must hold
KEPT_PAGES: dict[str, tuple[str, str, Grant]] = {
    "games.play": ("token", "edit_token", Grant.SCOREKEEPER),
    "games.hand": ("share_token", "share_token", Grant.PLAYER),
}
#: the theme colours of static/css/app.css (the top bar's background), light and dark
THEME_LIGHT = "#ffffff"
THEME_DARK = "#1d1d21"
#: the app's background behind the splash screen
BACKGROUND = "#fbfaf7"
#: the icons drawn by scripts/make_icons.py: file, size in px, purpose
ICONS = (
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
)


def shell_files(static: Path) -> list[str]:
    """The static files of the app shell, relative to ``static`` (sorted, so stable)."""
    found: list[str] = []
    for folder in SHELL_FOLDERS:
        root = static / folder
        if root.is_dir():
            found += [p.relative_to(static).as_posix() for p in root.rglob("*") if p.is_file()]
    return sorted(f for f in found if not f.startswith(".") and "/." not in f)


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
        "pages": "/offline/games",
    }
    body = f"self.CFC = {json.dumps(config)};\n" + (static / "sw.js").read_text()
    response = Response(body, mimetype="text/javascript")
    # Always asked again (cheap): a new deploy's worker must replace the old one at once.
    response.cache_control.no_cache = True
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


def init_offline(app: Flask) -> None:
    """Add the manifest, the service worker and the offline page marks (see the module doc)."""

    @app.get("/manifest.webmanifest")
    @requires(Role.ANYONE)
    def web_manifest() -> Response:
        response = Response(json.dumps(manifest()), mimetype="application/manifest+json")
        response.cache_control.no_cache = True
        return response

    @app.get("/sw.js")
    @requires(Role.ANYONE)
    def service_worker() -> Response:
        return _service_worker(app)

    @app.get("/offline/games")
    @requires(Role.ANYONE)
    def offline_games() -> Response:
        response = jsonify(games=kept_games())
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.after_request
    def _mark_kept_page(response: Response) -> Response:
        game_id = _kept_page_game(response)
        if game_id is not None:
            response.headers[PAGE_HEADER] = str(game_id)
        return response
