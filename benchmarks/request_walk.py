"""A request's walk through the code: how often a round save and a hand post change rooms.

Follows one request's run through the ``companion`` package with :func:`sys.setprofile` (the
standard library only; no timings, so the figures are the same on a busy machine) and prints,
per request, the yardstick of issue 23 (docs/ARCHITECTURE.md, "A request's walk through the
code"):

- **room**: one module of ``companion`` (``companion.services.hand_posts``...), plus one
  *render* room, ``templates``, for the code Jinja compiles from ``templates/`` (a template's
  own code; what it calls in ``companion`` counts in that module's room). Only frames whose
  code lives in ``companion/`` or ``templates/`` count: Flask, Werkzeug, SQLAlchemy, WTForms
  and Jinja internals are the corridors between rooms, not rooms.
- **stay**: a maximal run of the request's time inside one room. Where the request is at any
  moment is the innermost ``companion``/template frame on the stack: a call into another room
  starts a stay there, and coming back from it starts a new stay in the caller's room.
- **rooms entered**: distinct rooms of the walk. **return**: a stay in a room the request had
  already left (so returns = stays - rooms). **climb back up**: a return into a room on a higher
  floor than the room just left, floors being blueprint (``games``, ``table``, ``checker``,
  ``history``, ``api`` and ``templates``) > web (``companion.web``, the app package's hooks
  and the root modules that import ``flask`` itself: ``access``, ``errors``...) > services
  (``companion.services``) > the rest (models, mapping, words, engine...).

The same figures are printed per package too (``services``, ``engine``, ``web``, root modules
as ``(root)``...). Requests traced, on a 4-player double-6 game (Ann, Bob, Cy, Dee) whose four
phones have joined, on a temporary SQLite file, through Flask's test client (CSRF off), each
form filled from the page the browser would have (its fields scraped, so field names are not
written here twice), after one untraced request of each kind so that first-use caches are
warm:

1. ``round save``: the scorekeeper's round form (an htmx POST, as the page sends it: its
   answer renders the round area and the scoreboard);
2. ``hand post``: Ann posts her hand from her phone (a plain form POST answered by a redirect;
   auto-save is on and the round waits for the other hands);
3. ``hand post saving the round``: Dee posts the last hand and auto-save saves the round.

The redirect a POST answers with is not followed: its page is another request.

Usage::

    .venv/bin/python benchmarks/request_walk.py [--modules] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import date
from enum import IntEnum
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from companion.config import TestConfig  # noqa: E402
from companion.engine import RuleSet  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.models import Game, GameNight, Player, Seat  # noqa: E402

PACKAGE = ROOT / "companion"
TEMPLATES = ROOT / "templates"
#: the render room: code compiled from a template
RENDER = "templates"
#: the blueprint packages (as in tests/test_architecture.py)
BLUEPRINTS = ("games", "table", "checker", "history", "api")
PLAYERS = ("Ann", "Bob", "Cy", "Dee")
SET_SIZE = 6


class Floor(IntEnum):
    """The layering a climb back up is measured on: higher = nearer the request."""

    BELOW = 1  # models, mapping, words, vocab, engine, ...
    SERVICES = 2
    WEB = 3
    BLUEPRINT = 4


# --- rooms ----------------------------------------------------------------------------------


def module_of(path: str) -> str | None:
    """``.../companion/services/hand_posts.py`` -> ``companion.services.hand_posts``; a
    template's file -> the render room; None for code outside the house."""
    real = Path(os.path.normpath(path))
    if real.is_relative_to(TEMPLATES):
        return RENDER
    if real.suffix != ".py" or not real.is_relative_to(PACKAGE):
        return None
    parts = list(real.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def package_of(room: str) -> str:
    """The package a room belongs to, without ``companion.`` (root modules: ``(root)``)."""
    parts = room.split(".")
    if room == RENDER:
        return RENDER
    if len(parts) <= 2 and not (PACKAGE / parts[-1]).is_dir():
        return "(root)"
    return parts[1]


def _imports_flask(module: str) -> bool:
    """Does this root module import ``flask`` itself (the request, session, app, templates)?"""
    source = PACKAGE / f"{module.split('.')[-1]}.py"
    if not source.exists():
        return module == "companion"  # the app package itself: create_app and its hooks
    return any(
        line.startswith(("from flask import", "from flask.", "import flask"))
        for line in source.read_text(encoding="utf-8").splitlines()
    )


@cache
def floor_of(room: str) -> Floor:
    """A room's floor in the layering (see the module's docstring)."""
    package = package_of(room)
    if room == RENDER or package in BLUEPRINTS:
        return Floor.BLUEPRINT
    if package == "web" or (package == "(root)" and _imports_flask(room)):
        return Floor.WEB
    if package == "services":
        return Floor.SERVICES
    return Floor.BELOW


# --- tracing --------------------------------------------------------------------------------


@dataclass
class Trace:
    """What one request's code did in the house: the rooms its calls entered, in order (one
    entry per change of room), and its calls up: (caller's room, called room) -> how many
    calls a room made straight into a room on a higher floor (through Flask, SQLAlchemy or
    Jinja frames or not), the layering turned upside down."""

    rooms: list[str] = field(default_factory=list)
    calls_up: Counter[tuple[str, str]] = field(default_factory=Counter)


@contextmanager
def traced() -> Iterator[Trace]:
    """The :class:`Trace` of the code run inside the block (this thread's)."""
    trace = Trace()
    known: dict[CodeType, str | None] = {}

    def room(code: CodeType) -> str | None:
        if code not in known:
            known[code] = module_of(code.co_filename)
        return known[code]

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":  # a function entered (or a generator resumed)
            return
        name = room(frame.f_code)
        if name is None:
            return
        if not trace.rooms or trace.rooms[-1] != name:
            trace.rooms.append(name)
        caller = frame.f_back
        while caller is not None and room(caller.f_code) is None:
            caller = caller.f_back
        if caller is not None:
            by = room(caller.f_code)
            assert by is not None
            if floor_of(name) > floor_of(by):
                trace.calls_up[(by, name)] += 1

    sys.setprofile(profile)
    try:
        yield trace
    finally:
        sys.setprofile(None)


@dataclass(frozen=True)
class Walk:
    """The yardstick of one request, on one grain (modules or packages)."""

    request: str
    grain: str
    stays: int
    rooms: int
    returns: int
    climbs: int
    #: stays once each loop is folded (see :func:`folded`)
    folded: int
    sequence: list[str] = field(default_factory=list)
    #: calls straight into a higher floor: "caller > called" -> how many
    calls_up: dict[str, int] = field(default_factory=dict)


def measure(
    request: str, grain: str, rooms: list[str], calls_up: Counter[tuple[str, str]] | None = None
) -> Walk:
    """Stays, rooms entered, returns and climbs back up of a walk through ``rooms`` (and
    ``calls_up``, as :class:`Trace` counts them, written ``"caller > called"``)."""
    stays: list[str] = []
    for name in rooms:
        if not stays or stays[-1] != name:
            stays.append(name)
    left: set[str] = set()
    returns = climbs = 0
    for before, after in zip(stays, stays[1:], strict=False):
        left.add(before)
        if after in left:
            returns += 1
            climbs += floor_of_grain(after, grain) > floor_of_grain(before, grain)
    size = len(folded(stays))
    up = {f"{short(a)} > {short(b)}": n for (a, b), n in sorted((calls_up or Counter()).items())}
    return Walk(request, grain, len(stays), len(set(stays)), returns, climbs, size, stays, up)


def floor_of_grain(name: str, grain: str) -> Floor:
    """The floor of a module room, or of a package (its modules share a floor but the root
    modules, which spread over floors: the root package counts as the floor below)."""
    if grain == "modules":
        return floor_of(name)
    if name == RENDER or name in BLUEPRINTS:
        return Floor.BLUEPRINT
    return {"web": Floor.WEB, "services": Floor.SERVICES}.get(name, Floor.BELOW)


def short(room: str) -> str:
    """A room's name without the ``companion.`` prefix."""
    return room.removeprefix("companion.") if room != "companion" else "companion (app)"


def folded(sequence: list[str]) -> list[str]:
    """The stays in order, a block of 1-3 stays repeated back to back (a loop over tiles,
    hands or fields) written once with its count: ``["a", "(b > c) x3", "d"]``."""
    out: list[str] = []
    i = 0
    while i < len(sequence):
        best_size, best_count = 1, 1
        for size in (1, 2, 3):
            block = sequence[i : i + size]
            count = 1
            while sequence[i + count * size : i + (count + 1) * size] == block:
                count += 1
            if count > 1 and count * size > best_count * best_size:
                best_size, best_count = size, count
        text = " > ".join(short(s) for s in sequence[i : i + best_size])
        if best_count > 1:
            text = f"({text}) x{best_count}" if best_size > 1 else f"{text} x{best_count}"
        out.append(text)
        i += best_size * best_count
    return out


# --- the game and its forms -----------------------------------------------------------------


class FormFields(HTMLParser):
    """The fields a browser would send from the first form whose ``action`` ends with
    ``action_end`` before its query (hidden and text values, ticked boxes, each select's first
    option), and that ``action`` (a hand's names its seat: ``?seat=``)."""

    def __init__(self, action_end: str) -> None:
        super().__init__()
        self.action_end = action_end
        self.action = ""
        self.inside = False
        self.done = False
        self.fields: dict[str, list[str]] = {}
        self.boxes: list[str] = []
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        action = a.get("action", "")
        if tag == "form" and not self.done and action.split("?")[0].endswith(self.action_end):
            self.inside, self.action = True, action
        if not self.inside:
            return
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind == "checkbox":
                self.boxes.append(name)
                if "checked" in a:
                    self.fields.setdefault(name, []).append(a.get("value", "y"))
            elif kind not in ("submit", "button", "file"):
                self.fields.setdefault(name, []).append(a.get("value", ""))
        elif tag == "select" and name:
            self.select = name
        elif tag == "option" and self.select and self.select not in self.fields:
            self.fields[self.select] = [a.get("value", "")]

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        if tag == "form" and self.inside:
            self.inside, self.done = False, True


def form_of(page: str, action_end: str) -> FormFields:
    """The form of ``page`` posting to an address ending with ``action_end``."""
    parser = FormFields(action_end)
    parser.feed(page)
    assert parser.done, f"no form posting to ...{action_end} on the page"
    return parser


def hand_field(names: list[str], seat: str, index: int) -> str:
    """The field of one hand among ``names`` (a part of every hand, in page order): the one
    named with the seat's id (``total_12``), else the ``index``-th (names by position)."""
    return next((n for n in names if n.split("_")[-1].split("-")[-1] == seat), names[index])


def seed_game() -> Game:
    """A new double-6 game of :data:`PLAYERS` in a new night, auto-save off."""
    night = GameNight(played_on=date(2026, 12, 4))
    game = Game(night=night, set_size=SET_SIZE, rules=RuleSet.from_dict({"set_size": 6}).to_dict())
    for position, name in enumerate(PLAYERS):
        player = Player(name=name, name_key=name.casefold())
        game.seats.append(Seat(player=player, position=position))
    db.session.add(game)
    db.session.commit()
    return game


class Table:
    """The game on the test client: the scorekeeper's phone and one joined phone a player."""

    def __init__(self, app: Any) -> None:
        self.app = app
        game = seed_game()
        self.edit, self.share, self.join = game.edit_token, game.share_token, game.join_token
        self.seats = {s.player.name: s.id for s in game.seats}
        self.scorekeeper = app.test_client()
        page = self.scorekeeper.get(f"/g/{self.edit}")  # this phone keeps score
        assert page.status_code == 200, page.status_code
        self.phones = {}
        for name, seat in self.seats.items():
            phone = app.test_client()
            joined = phone.post(f"/j/{self.join}", data={"seat": str(seat)})
            assert joined.status_code == 303, joined.status_code
            self.phones[name] = phone

    def round_save(self, points: tuple[int, ...]) -> Callable[[], Any]:
        """The scorekeeper's Save of the coming round as htmx sends it: each hand's points
        typed, the hand of 0 points ticked as gone out."""
        form = form_of(self.scorekeeper.get(f"/g/{self.edit}").text, f"/g/{self.edit}/round")
        data = dict(form.fields)
        totals = [f for f in data if "total" in f]
        outs = [b for b in form.boxes if "out" in b and "double" not in b]
        for index, (name, pips) in enumerate(zip(PLAYERS, points, strict=True)):
            seat = str(self.seats[name])
            data[hand_field(totals, seat, index)] = [str(pips)]
            if pips == 0:
                data[hand_field(outs, seat, index)] = ["y"]
        headers = {"HX-Request": "true", "HX-Target": "round-area"}
        return lambda: self.scorekeeper.post(f"/g/{self.edit}/round", data=data, headers=headers)

    def hand_post(self, name: str, pips: int) -> Callable[[], Any]:
        """``name``'s phone posting their hand of ``pips`` points (0: went out)."""
        phone = self.phones[name]
        form = form_of(phone.get(f"/p/{self.share}").text, f"/p/{self.share}")
        data = dict(form.fields)
        data[next(f for f in data if "total" in f)] = [str(pips)]
        if pips == 0:
            data[next(b for b in form.boxes if "out" in b)] = ["y"]
        return lambda: phone.post(form.action, data=data)

    def auto_save(self) -> None:
        """Switch the game's auto-save on (the scorekeeper's switch)."""
        switched = self.scorekeeper.post(f"/g/{self.edit}/auto-save", data={"on": "1"})
        assert switched.status_code == 303, switched.status_code


def run(request: str, send: Callable[[], Any], walks: dict[str, Trace]) -> None:
    """Send one request traced, keeping its trace under ``request``; it must succeed."""
    with traced() as trace:
        answer = send()
    assert answer.status_code in (200, 303), (request, answer.status_code, answer.text[:500])
    walks[request] = trace


def walk_requests() -> dict[str, Trace]:
    """The traces of the three requests, on a fresh app and database."""
    with tempfile.TemporaryDirectory(prefix="request-walk-") as folder:
        config = type(
            "WalkConfig",
            (TestConfig,),
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'walk.db'}"},
        )
        app = create_app(config)
        with app.app_context():
            db.create_all()
            try:
                return _walk(Table(app))
            finally:
                db.session.remove()
                db.engine.dispose()


def _walk(table: Table) -> dict[str, Trace]:
    walks: dict[str, Trace] = {}
    # round 1 (double 6) untraced, round 2 (double 5) traced: the scorekeeper's Save
    table.round_save((12, 7, 0, 20))()
    run("round save", table.round_save((9, 0, 14, 3)), walks)
    # rounds 3 and 4 by the phones with auto-save on: round 3 untraced, round 4 traced
    table.auto_save()
    for name, pips in zip(PLAYERS, (5, 0, 8, 11), strict=True):
        table.hand_post(name, pips)()
    run("hand post", table.hand_post("Ann", 6), walks)
    table.hand_post("Bob", 0)()
    table.hand_post("Cy", 13)()
    run("hand post saving the round", table.hand_post("Dee", 2), walks)
    return walks


def report(walks: dict[str, Trace]) -> dict[str, dict[str, Walk]]:
    """Each request's yardstick on both grains: request -> grain -> :class:`Walk`."""
    figures: dict[str, dict[str, Walk]] = {}
    for request, trace in walks.items():
        by_package: Counter[tuple[str, str]] = Counter()
        for (caller, called), n in trace.calls_up.items():
            by_package[(package_of(caller), package_of(called))] += n
        packages = [package_of(r) for r in trace.rooms]
        figures[request] = {
            "modules": measure(request, "modules", trace.rooms, trace.calls_up),
            "packages": measure(request, "packages", packages, by_package),
        }
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = report(walk_requests())
    if args.json:
        print(json.dumps({r: {g: asdict(w) for g, w in by.items()} for r, by in figures.items()}))
        return 0
    line = "{:<28} {:<9} {:>5} {:>5} {:>7} {:>6} {:>6} {:>8}"
    print(
        line.format("request", "grain", "stays", "rooms", "returns", "climbs", "folded", "calls up")
    )
    for request, by in figures.items():
        for grain, w in by.items():
            up = sum(w.calls_up.values())
            print(line.format(request, grain, w.stays, w.rooms, w.returns, w.climbs, w.folded, up))
    for request, by in figures.items():
        w = by["modules"]
        print(f"\n{request}, calls up: " + ", ".join(f"{k} {n}" for k, n in w.calls_up.items()))
        for grain, w in by.items():
            print(f"\n{request}, {grain}: {' > '.join(folded(w.sequence))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
