"""The scoreboard rendered once per change and served from that render to every phone.

Many phones poll the same board: the read-only board (``/s/<share>`` and its poll
``/s/<share>/board``) and the board inside every joined phone's live part (``/p/<share>/live``).
Each save changes the game's version, and every waiting phone then asks for the new board at
once. Rendering it per phone cost one ``build_board`` and one template per phone (400 renders
of one version on 2 workers); here a board is rendered once per :class:`BoardKey` and process,
kept in a small LRU shared by the process's threads, and a phone that asks while another
thread renders that key waits for that render instead of starting its own (one render per
worker per save burst).

**What may be cached.** Only the scoreboard fragment (with a finished game's result before it,
drawn from the same board), which holds nothing of any one phone:
no CSRF token, no edit link, no join secret, no flashed message, no seat of its own. Whatever
carries those (the page around it, the phone's own posted hand) is rendered per request around
the cached fragment. The key holds everything the fragment depends on: the game, its version
(bumped by every change to the game's rounds, status or rules), the seat names (a rename does
not bump the version), the language, which board (:class:`BoardVariant`) and the window of
rounds asked for, and the templates' build.

**Validators.** :func:`etag_for` gives a strong ETag per key, so a repeat view of an unchanged
board is answered ``304 Not Modified`` with no body, before anything is loaded or rendered.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from cachetools import LRUCache
from flask import Flask, Response, current_app, g, request, session
from flask_babel import get_locale
from markupsafe import Markup
from sqlalchemy import select

from .config import ROOT
from .extensions import db
from .models import Game, Player, Seat

#: boards kept per process (a few games at once, each in a few languages and windows; a few
#: KB each: 3 KB for a new 12-player double-18 game, so at most a few MB)
CACHE_SIZE = 256
#: response header saying whether this response's board was rendered for it ("fresh") or
#: served from the cache ("cached"); sent only when ``BOARD_RENDER_HEADER`` is set (benchmarks)
RENDER_HEADER = "X-Board-Render"
#: seconds a whole page's ETag lasts (it holds a CSRF token, valid for an hour by default)
PAGE_ETAG_SECONDS = 1800
#: response header naming the game version of the board sent (with :data:`RENDER_HEADER`)
VERSION_HEADER = "X-Board-Version"


class BoardVariant(StrEnum):
    """Which rendering of a game's board is cached (they differ in markup, not in data)."""

    #: the read-only board of ``/s/<share>``: polled at its own address, links boosted; a
    #: finished game's result before it, swapped out of band (templates/games/_shared_board.html)
    SHARED = "shared"
    #: the board inside a joined phone's live part (``/p/<share>``): not polled by itself; a
    #: finished game's result before it (templates/table/_hand_board.html)
    HAND = "hand"
    #: not a board: the read-only page's notices that say "Game over" and who won, once, when
    #: its poll brings the game's end (templates/games/_game_news.html)
    NEWS = "news"


@dataclass(frozen=True)
class BoardKey:
    """Everything a cached scoreboard fragment depends on (see the module's docstring)."""

    game_id: int
    version: int
    names: str  # digest of the seats' player ids and names, in seat order
    language: str
    variant: BoardVariant
    upto: int | None
    who: int | None
    build: str


class BoardCache:
    """One app's cached boards (an app per process under gunicorn): the LRU, the renders in
    progress (one lock per key, so threads asking for one key wait for one render) and the
    count of renders per (game id, version)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.lock = threading.Lock()
        self.boards: LRUCache[BoardKey, Markup] = LRUCache(maxsize=size)
        self.rendering: dict[BoardKey, threading.Lock] = {}
        self.renders: Counter[tuple[int, int]] = Counter()


def _cache() -> BoardCache:
    found: BoardCache = current_app.extensions["board_cache"]
    return found


@cache
def _build() -> str:
    """A digest of the templates and compiled catalogs on disk (paths, sizes, mtimes): a new
    release gets new ETags, so no phone keeps a page of the old one. The same in every worker
    of a deployment (no start time in it)."""
    digest = hashlib.sha256()
    for folder in (ROOT / "templates", ROOT / "companion" / "translations"):
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".html", ".mo"):
                stat = path.stat()
                digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:12]


def _names(game_id: int) -> str:
    """A digest of the seats' players (ids and names, in seat order): one small query."""
    rows = db.session.execute(
        select(Seat.player_id, Player.name)
        .join(Player, Player.id == Seat.player_id)
        .where(Seat.game_id == game_id)
        .order_by(Seat.position)
    ).all()
    text = "\n".join(f"{row[0]}\t{row[1]}" for row in rows)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def board_key(
    game: Game, variant: BoardVariant, upto: int | None = None, who: int | None = None
) -> BoardKey:
    """The key of ``game``'s board as this request would render it (its language)."""
    return BoardKey(
        game_id=game.id,
        version=game.version,
        names=_names(game.id),
        language=str(get_locale() or "en"),
        variant=variant,
        upto=upto,
        who=who,
        build=_build(),
    )


def cached_board(key: BoardKey, render: Callable[[], str]) -> Markup:
    """The board for ``key``: from the cache, else ``render()`` once (threads asking for the
    same key meanwhile wait for that render and share it)."""
    cache = _cache()
    with cache.lock:
        found = cache.boards.get(key)
        gate = None if found is not None else cache.rendering.setdefault(key, threading.Lock())
    if gate is not None:
        with gate:
            with cache.lock:
                found = cache.boards.get(key)  # rendered by another thread while this one waited
            if found is None:
                try:
                    found = Markup(render())
                    with cache.lock:
                        cache.boards[key] = found
                        cache.renders[(key.game_id, key.version)] += 1
                    _mark(key, fresh=True)
                    return found
                finally:
                    with cache.lock:
                        cache.rendering.pop(key, None)
    assert found is not None  # found in the cache, or rendered by the thread that held gate
    _mark(key, fresh=False)
    return found


def render_count(game_id: int, version: int) -> int:
    """How many times this app rendered the board of ``game_id`` at ``version``."""
    cache = _cache()
    with cache.lock:
        return cache.renders[(game_id, version)]


def etag_for(key: BoardKey, *extra: str) -> str:
    """A strong ETag for a response made of ``key``'s board and ``extra`` (what else the
    response depends on, e.g. a digest of the phone's own CSRF secret)."""
    text = repr(key) + "".join(f"\n{part}" for part in extra)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def page_etag(key: BoardKey) -> str | None:
    """The ETag of a whole page around ``key``'s board, for this phone only: it also depends on
    the phone's own CSRF secret (in its language picker; a digest, never the secret), the
    half hour (so a kept page's CSRF token is at most that much older than a fresh one) and
    the address's query. None when the page cannot be validated: a message is waiting to be
    shown once, or the phone has no CSRF secret yet (its first page makes one)."""
    if session.get("_flashes"):
        return None
    secret = session.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
    if not isinstance(secret, str) or not secret:
        return None
    mine = hashlib.sha256(f"page-etag\n{secret}".encode()).hexdigest()
    return etag_for(
        key, mine, str(int(time.time()) // PAGE_ETAG_SECONDS), request.query_string.decode()
    )


def not_modified(etag: str) -> bool:
    """True when the request's ``If-None-Match`` names ``etag``, also as compressed by
    Flask-Compress (``<etag>:br``, ``<etag>:gzip``: one strong ETag per encoding)."""
    return any(tag == etag or tag.startswith(f"{etag}:") for tag in request.if_none_match.as_set())


def with_etag(response: Response, etag: str) -> Response:
    """``response`` validated by ``etag``; a repeat view must ask again (``no-cache``) and
    only the phone's own browser may keep it (``private``)."""
    response.set_etag(etag)
    response.cache_control.no_cache = True
    response.cache_control.private = True
    return response


def unchanged(etag: str) -> Response:
    """``304 Not Modified`` (no body) for a repeat view of a response validated by ``etag``."""
    return with_etag(Response(status=304), etag)


def _mark(key: BoardKey, *, fresh: bool) -> None:
    g.board_render = ("fresh" if fresh else "cached", key.version)


def init_render_cache(app: Flask) -> None:
    """Send :data:`RENDER_HEADER` and :data:`VERSION_HEADER` on responses that carry a board
    when ``BOARD_RENDER_HEADER`` is set (the crowd benchmark counts renders per version)."""
    app.extensions["board_cache"] = BoardCache()

    @app.after_request
    def _render_header(response: Response) -> Response:
        mark = g.get("board_render")
        if mark is not None and current_app.config.get("BOARD_RENDER_HEADER"):
            response.headers[RENDER_HEADER] = mark[0]
            response.headers[VERSION_HEADER] = str(mark[1])
        return response
