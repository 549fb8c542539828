"""Games stored straight into the live server's database for browser tests, and the round form
filled the same way by each test."""

from __future__ import annotations

from datetime import date
from typing import Any

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from companion.engine import RuleSet
from companion.extensions import db
from companion.models import Game, GameNight, Player, Seat


def seed_game(names: tuple[str, ...]) -> str:
    """A double-6 game of ``names`` in a new night, reusing players already stored under those
    names (the live server's database is shared by every browser test: no duplicate people on
    the other tests' new-game pages). Returns its edit token."""
    keys = [name.casefold() for name in names]
    known = {
        p.name_key: p
        for p in db.session.scalars(db.select(Player).where(Player.name_key.in_(keys)))
    }
    night = GameNight(played_on=date(2026, 11, 29))
    game = Game(night=night, set_size=6, rules=RuleSet.from_dict({"set_size": 6}).to_dict())
    for position, name in enumerate(names):
        player = known.get(name.casefold()) or Player(name=name, name_key=name.casefold())
        game.seats.append(Seat(player=player, position=position))
    db.session.add(game)
    db.session.commit()
    return game.edit_token


def open_new_game(page: Page, live_server) -> str:
    """Seed a 3-player double-6 game and open its page (htmx loaded); returns the edit token."""
    with live_server.app.app_context():
        token = seed_game(("Ann", "Bob", "Cy"))
        db.session.remove()
    page.goto(f"/g/{token}")
    page.wait_for_function("() => window.htmx !== undefined")
    return token


def fill_round(page: Page) -> None:
    """Ann 12, Bob 7, Cy went out."""
    page.get_by_label("Points for Ann").fill("12")
    page.get_by_label("Points for Bob").fill("7")
    page.locator("fieldset.hand", has_text="Cy").get_by_label("Went out").check()


def until(page: Page, check: str, arg: Any = None, timeout: float = 30_000) -> None:
    """Wait (up to ``timeout`` ms) until the async JavaScript ``check`` is true in ``page``.
    ``page.wait_for_function`` does not await a check's promise: it takes the promise itself
    as true and returns at once (tried 2026-12-06), so a cache check there waited for nothing."""
    waited = 0
    while not page.evaluate(check, arg):
        if waited >= timeout:
            raise PlaywrightTimeoutError(f"not true after {timeout} ms: {check}")
        page.wait_for_timeout(200)
        waited += 200


def lose_session_cookie(page: Page) -> None:
    """Drop the phone's cookies once nothing in flight can bring them back.

    A fresh browser's service worker fetches the first page once it takes over, to keep it for
    offline. Its answer renewed the session cookie and, under load, put the session back after
    the cookies were cleared (two CI runs); it sets no cookie now, and the wait for the
    page to be kept still leaves the worker idle before the cookies go.
    """
    until(
        page,
        "async () => !!(navigator.serviceWorker && navigator.serviceWorker.controller"
        " && await caches.match(location.origin + location.pathname))",
    )
    page.context.clear_cookies()


def join_secret(app, share: str) -> str:
    """The join secret of the game shared as ``share`` (shown on the scorekeeper's screen)."""
    with app.app_context():
        found = db.session.scalar(db.select(Game.join_token).where(Game.share_token == share))
        db.session.remove()
    return found or ""


def share_of_join(app, join: str) -> str:
    """The share token of the game whose join secret is ``join``."""
    with app.app_context():
        found = db.session.scalar(db.select(Game.share_token).where(Game.join_token == join))
        db.session.remove()
    return found or ""
