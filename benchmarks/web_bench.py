"""Score keeper pages: size and server time per table size, SQL statements per page, latency
under a real WSGI server. Prints figures; not a test.

1. Table sizes (the default section), in-process (Flask test client, CSRF off): for
   (2, 4, 8, 12 players) x (double-6, 9, 12, 15, 18), a game half played (rounds scored =
   half the rounds) through the score keeper's own services. For each: the game page (bytes,
   median server ms) and an htmx round save (the response's bytes, median server ms; each save
   is undone before the next). Every figure is also printed as a ratio to a static file
   (``static/css/app.css``) fetched by the same client in the same run, so runs on different
   machines or loads compare; and the goals are checked against the 4-player double-9 game:
   the 12-player double-18 game page within 3x its bytes, its save response within 2x.
2. SQL statements per page (``--sql``), in-process (second request = warm), for double-18
   games of 4 and 12 players with 2 and 18 rounds scored: the game page, the read-only
   scoreboard and its polled fragment, the audit trail, correcting a round, saving + undoing
   a round the game goes on after (the game's last scored one, taken back first), and saving
   + undoing a round that ends the game (at 18 rounds the last double's; at 2 rounds a game
   played to a target total that its third round reaches), so each row compares like with
   like. The reads must not grow with rounds or players; exit 1 if they do.
3. A tile tap (``--taps N``): Chromium (Playwright, the system browser) at 360 px, two
   pickers open, the mean script time of N taps for the 4-player double-9 and the
   12-player double-18 game (static/js/score.js: the same whatever the players).
4. Over HTTP (``--http``): a 12-player double-18 game at its last round served by gunicorn
   (``-w 2``) on a temporary SQLite file; one client's sequential requests (pages, saves
   with CSRF tokens like a phone, undo). With ``--wrk`` (and wrk installed) also
   ``wrk -t2 -c20 -d10s --latency`` on the read-only scoreboard.

Usage::

    .venv/bin/python benchmarks/web_bench.py [--requests 20] [--cycles 10] [--sql]
        [--taps 2000] [--http]
"""

from __future__ import annotations

import argparse
import gzip
import http.cookiejar
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import serving  # noqa: E402
from sqlalchemy import event  # noqa: E402

from companion import create_app  # noqa: E402
from companion.config import Config  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.games.kept_buttons import kept_field  # noqa: E402
from companion.models import Game  # noqa: E402
from companion.services import game_setup as setup  # noqa: E402
from companion.services.round_check import HandEntry, RoundEntry, check_round  # noqa: E402
from companion.services.round_plan import load_game, plan_round  # noqa: E402
from companion.services.round_store import save_round  # noqa: E402
from companion.vocab import GameStatus  # noqa: E402

SET_SIZE = 18
#: (players, rounds scored) of the games whose SQL statements are counted
SHAPES = [(4, 2), (4, 18), (12, 2), (12, 18)]
#: the players' names (a real table's first names; the benchmark games share these players)
NAMES = ("Ann", "Bjørn", "Chen", "Dédé", "Eva", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kwame", "Lu")
#: the game timed over HTTP: 12 players, double-18, at its last round (18 of 19 scored)
TIMED = (12, 18)


def bench_app(path: str | None = None, csrf: bool = True):
    """The app on the benchmark database (gunicorn calls this with WEB_BENCH_DB set)."""
    path = path or os.environ["WEB_BENCH_DB"]

    class BenchConfig(Config):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{path}"
        WTF_CSRF_ENABLED = csrf

        def __init__(self) -> None:
            self.SECRET_KEY = "web-bench"

    return create_app(BenchConfig)


# --- building games --------------------------------------------------------------------------


def points(seat_index: int, round_index: int) -> int:
    """A plausible typed total (1-40 points) for a player who did not go out."""
    return (seat_index * 7 + round_index * 5) % 40 + 1


def round_entry(game: Game, round_index: int) -> RoundEntry:
    """The coming round of ``game`` as typed totals; one player goes out, in turn."""
    plan = plan_round(game)
    if plan is None:
        raise RuntimeError("the game has no round left")
    out = round_index % len(game.seats)
    hands = [
        HandEntry(seat=s, total="" if i == out else str(points(i, round_index)), went_out=i == out)
        for i, s in enumerate(game.seats)
    ]
    return RoundEntry(double=plan.double, hands=hands)


def ended_by_target(players: int, rounds: int) -> dict[str, object]:
    """House rules that end a game of ``players`` in its round ``rounds + 1``: played to a
    target total that the typed totals of :func:`round_entry` (``points``; the player who goes
    out holds 0) first reach in that round."""

    def leading(n: int) -> int:
        return max(sum(points(i, k) for k in range(n) if k % players != i) for i in range(players))

    before, after = leading(rounds), leading(rounds + 1)
    if after <= before:
        raise RuntimeError(f"no total grows in round {rounds + 1} of {players} players")
    return {"game_length": "target_total", "target_total": after}


def build_game(
    app, players: int, rounds: int, set_size: int = SET_SIZE, rules: dict | None = None
) -> tuple[str, str]:
    """A game of ``players`` new players (standard rules, with ``rules`` overriding them) on
    ``set_size`` with ``rounds`` rounds scored through the score keeper's own service
    functions (engine checks and scoring included). Returns (edit token, share token); raises
    ``setup.SetupError`` for a table the engine refuses (e.g. 12 players on double-6)."""
    with app.test_request_context():
        night = setup.create_night(db.session, date.today(), f"bench {players}x{rounds}")
        choices = [setup.PlayerChoice(name=NAMES[i], seat=i + 1) for i in range(players)]
        game = setup.create_game(db.session, night, choices, set_size, "standard", rules or {})
        for k in range(rounds):
            load_game(game)
            scored, errors = check_round(game, round_entry(game, k))
            if scored is None:
                raise RuntimeError(f"round {k + 1} refused: {errors}")
            save_round(game, scored, str(game.version))
        tokens = game.edit_token, game.share_token
        db.session.remove()
    return tokens


def last_round_form(app, edit_token: str) -> dict[str, str]:
    """The form fields that save the coming round of the game (typed totals), without CSRF."""
    with app.test_request_context():
        game = load_game(db.session.scalar(db.select(Game).filter_by(edit_token=edit_token)))
        entry = round_entry(game, len(game.rounds))
        # kept: the page holds the hands' buttons, as a game page's round form says
        data = {"version": str(game.version), "double": str(entry.double), "starter": ""}
        data[kept_field(game)] = ""
        for hand in entry.hands:
            data[f"total_{hand.seat.id}"] = hand.total
            if hand.went_out:
                data[f"out_{hand.seat.id}"] = "y"
        db.session.remove()
    return data


# --- table sizes, in-process, as ratios to a static file ----------------------------------------

#: the table sizes measured: players x sets
PLAYERS = (2, 4, 8, 12)
SETS = (6, 9, 12, 15, 18)
#: the static file every figure is compared with (same client, same run)
STATIC_REFERENCE = "/static/css/app.css"
#: goals of issue 11, against the 4-player double-9 game
BASELINE, BIGGEST = (4, 9), (12, 18)
PAGE_GOAL, SAVE_GOAL = 3.0, 2.0


def timed_get(client, url: str, n: int) -> tuple[int, float]:
    """(bytes, median ms) of ``n`` warm GETs of ``url`` (after 2 untimed)."""
    for _ in range(2):
        client.get(url)
    times, size = [], 0
    for _ in range(n):
        started = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        if response.status_code != 200:
            raise RuntimeError(f"{url}: HTTP {response.status_code}")
        size = len(response.get_data())
    return size, statistics.median(times)


def timed_saves(client, app, edit: str, n: int) -> tuple[int, float]:
    """(bytes, median ms) of ``n`` htmx saves of the coming round, each undone after."""
    times, size = [], 0
    for _ in range(n):
        data = last_round_form(app, edit)
        started = time.perf_counter()
        response = client.post(f"/g/{edit}/round", data=data, headers={"HX-Request": "true"})
        times.append((time.perf_counter() - started) * 1000)
        body = response.get_data(as_text=True)
        if response.status_code != 200 or "Round saved." not in body:
            raise RuntimeError(f"save refused: HTTP {response.status_code}")
        size = len(body.encode())
        undone = client.post(f"/g/{edit}/undo", data={"version": hidden_value(body, "version")})
        if undone.status_code != 303:
            raise RuntimeError(f"undo refused: HTTP {undone.status_code}")
    return size, statistics.median(times)


def measure_table_sizes(requests: int, cycles: int) -> tuple[tuple[int, float], dict]:
    """The static reference (bytes, ms) and, per (players, set), the game page and save
    figures ((bytes, ms), (bytes, ms)), or None when the engine refuses that table."""
    tmp = Path(tempfile.mkdtemp(prefix="web-sizes-"))
    try:
        app = bench_app(str(tmp / "sizes.db"), csrf=False)
        with app.app_context():
            db.create_all()
        client = app.test_client()
        found: dict[tuple[int, int], tuple | None] = {}
        for set_size in SETS:
            for players in PLAYERS:
                try:
                    edit, _share = build_game(app, players, (set_size + 1) // 2, set_size)
                except setup.SetupError:
                    found[(players, set_size)] = None
                    continue
                page = timed_get(client, f"/g/{edit}", requests)
                save = timed_saves(client, app, edit, cycles)
                found[(players, set_size)] = (page, save)
        # the reference last, so that it is warm like the pages (and measured as often)
        static = timed_get(client, STATIC_REFERENCE, requests * 2)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return static, found


def print_table_sizes(static: tuple[int, float], found: dict) -> bool:
    """Print the table-size figures as ratios to the static file; True when the goals hold."""
    ref_bytes, ref_ms = static
    print(
        f"\nTable sizes, game half played; in-process test client; reference {STATIC_REFERENCE} "
        f"= {ref_bytes / 1024:.1f} KB, {ref_ms:.2f} ms. Ratios to it (bytes x, time x):\n"
    )
    header = [
        "players",
        "set",
        "game page KB",
        "page bytes x",
        "page time x",
        "save KB",
        "save bytes x",
        "save time x",
    ]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for (players, set_size), figures in found.items():
        if figures is None:
            print(f"| {players} | double-{set_size} | the engine refuses this table |||||")
            continue
        (pb, pms), (sb, sms) = figures
        print(
            f"| {players} | double-{set_size} | {pb / 1024:.1f} | {pb / ref_bytes:.2f} | "
            f"{pms / ref_ms:.1f} | {sb / 1024:.1f} | {sb / ref_bytes:.2f} | {sms / ref_ms:.1f} |"
        )
    (bpb, bpms), (bsb, bsms) = found[BASELINE]
    (gpb, gpms), (gsb, gsms) = found[BIGGEST]
    page_x, save_x = gpb / bpb, gsb / bsb
    print(
        f"\n{BIGGEST[0]} players double-{BIGGEST[1]} against {BASELINE[0]} players "
        f"double-{BASELINE[1]}: game page {page_x:.2f}x the bytes (goal <= {PAGE_GOAL:g}x), "
        f"{gpms / bpms:.2f}x the time; save response {save_x:.2f}x the bytes "
        f"(goal <= {SAVE_GOAL:g}x), {gsms / bsms:.2f}x the time."
    )
    return page_x <= PAGE_GOAL and save_x <= SAVE_GOAL


# --- a tile tap in the browser -------------------------------------------------------------------

#: script that taps (clicks) tiles of the first open picker ``n`` times and returns the mean
#: milliseconds of one tap's change handlers (they run inside click(), synchronously; the
#: browser's clock is too coarse to time a single tap)
TAP_SCRIPT = """(n) => {
  const boxes = Array.from(document.querySelector('fieldset.picker').querySelectorAll('input'));
  const started = performance.now();
  for (let i = 0; i < n; i++) { boxes[i % 40].click(); }
  return (performance.now() - started) / n;
}"""


def measure_taps(taps: int) -> dict[tuple, float]:
    """Median script time of a tile tap (ms) with two pickers open, in Chromium at phone size,
    for the baseline and the biggest table (the app served in a thread, werkzeug)."""
    import logging
    import threading

    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    tmp = Path(tempfile.mkdtemp(prefix="web-taps-"))
    found: dict[tuple[int, int], float] = {}
    try:
        app = bench_app(str(tmp / "taps.db"), csrf=False)
        with app.app_context():
            db.create_all()
        games = {shape: build_game(app, shape[0], 1, shape[1])[0] for shape in (BASELINE, BIGGEST)}
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=chromium if Path(chromium).exists() else None,
                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
                )
                page = browser.new_page(viewport={"width": 360, "height": 740})
                for shape, edit in games.items():
                    url = f"http://127.0.0.1:{server.server_port}/g/{edit}"
                    found[shape] = _tap_ms(page, url, taps)
                    # the same taps with score.js's handlers idle (no picker registered, the
                    # tapped box's picker unknown to it): the browser's own cost of a click
                    found[(*shape, "bare")] = _tap_ms(page, url, taps, bare=True)
                browser.close()
        finally:
            server.shutdown()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return found


def _tap_ms(page, url: str, taps: int, bare: bool = False) -> float:
    """Mean ms of a tap on ``url`` with two pickers open; ``bare``: with score.js blocked and
    one picker opened the no-JavaScript way, so the figure is the browser's own work."""
    if bare:
        page.route("**/js/score.js", lambda route: route.abort())
    page.goto(url)
    # without score.js a button reloads the page with that picker open (one at a time)
    for k in (1,) if bare else (1, 2):
        page.locator("button.picker-open").first.click()
        page.locator("fieldset.picker").nth(k - 1).wait_for()
    ms = page.evaluate(TAP_SCRIPT, taps)
    if bare:
        page.unroute("**/js/score.js")
    return ms


def print_taps(found: dict[tuple, float]) -> None:
    """Print the tap times and their ratio (the goal: the same whatever the players)."""
    base, big = found[BASELINE], found[BIGGEST]
    base_bare, big_bare = found[(*BASELINE, "bare")], found[(*BIGGEST, "bare")]
    print(
        f"\nA tile tap with two pickers open (Chromium, 360 px, mean ms per tap, the click's "
        f"whole synchronous work; without score.js in brackets): {BASELINE[0]} players "
        f"double-{BASELINE[1]} {base:.3f} ({base_bare:.3f}), {BIGGEST[0]} players "
        f"double-{BIGGEST[1]} {big:.3f} ({big_bare:.3f}); score.js's share: "
        f"{base - base_bare:.3f} and {big - big_bare:.3f} ms."
    )


# --- SQL statements per page, in-process -------------------------------------------------------


def page_urls(edit: str, share: str) -> dict[str, str]:
    """The measured GET pages of a game, by label."""
    return {
        "game page": f"/g/{edit}",
        "read-only scoreboard": f"/s/{share}",
        "polled fragment (changed)": f"/s/{share}/board?v=0",
        "audit trail": f"/g/{edit}/audit",
        "correct round 1": f"/g/{edit}/round/1",
    }


def status_of(app, edit_token: str) -> tuple[str, int]:
    """(status, version) of the game as stored now."""
    with app.app_context():
        row = db.session.execute(
            db.select(Game.status, Game.version).filter_by(edit_token=edit_token)
        ).one()
        db.session.remove()
    return str(row[0]), int(row[1])


def count_queries(
    app, games: dict[tuple[int, int], tuple[str, str]], enders: dict[tuple[int, int], str]
) -> dict[str, dict]:
    """label -> {(players, rounds): (reads, writes)}: the SQL statements of a warm request,
    SELECTs and the others apart. "save a round" is the htmx save of a round the game goes on
    after (the game's last scored round, taken back by an undo first: at 18 rounds on
    double-18 the coming round is the last double's) and "undo it" its undo; "save the last
    round" saves the coming round of ``enders[shape]``, which ends that game (at 18 rounds the
    same game, at 2 rounds a game played to a target total), and "undo it (reopens the game)"
    takes it back, which rewinds the finished game's stored standings and ratings (writes are
    per row: one INSERT per hand on SQLite). Raises RuntimeError when a game is not open or
    finished as the row says."""
    counter = {"reads": 0, "writes": 0}
    with app.app_context():
        engine = db.engine

    def _count(_conn, _cursor, statement: str, *_args) -> None:
        is_read = statement.lstrip().upper().startswith(("SELECT", "PRAGMA"))
        counter["reads" if is_read else "writes"] += 1

    def counted(call: Callable) -> tuple[object, tuple[int, int]]:
        counter.update(reads=0, writes=0)
        result = call()
        return result, (counter["reads"], counter["writes"])

    client = app.test_client()

    def save(edit: str) -> Callable:
        """The htmx save of the game's coming round, its form read first (not counted)."""
        data = last_round_form(app, edit)
        return lambda: client.post(f"/g/{edit}/round", data=data, headers={"HX-Request": "true"})

    def undo(edit: str) -> Callable:
        """The undo of the game's last change, its version read first (not counted)."""
        data = {"version": str(status_of(app, edit)[1])}
        return lambda: client.post(f"/g/{edit}/undo", data=data)

    event.listen(engine, "before_cursor_execute", _count)
    table: dict[str, dict] = {}
    try:
        for shape, (edit, share) in games.items():
            for label, url in page_urls(edit, share).items():
                client.get(url)
                response, figures = counted(lambda u=url: client.get(u))
                table.setdefault(label, {})[shape] = (
                    figures if response.status_code == 200 else response.status_code
                )
            # this phone keeps score for the game that ends (its first visit claims that)
            client.get(f"/g/{enders[shape]}")
            # the last scored round, taken back: saved and undone below, the game goes on
            if undo(edit)().status_code != 303:
                raise RuntimeError(f"{shape}: the last round could not be taken back")
            ended, active, finished = enders[shape], GameStatus.ACTIVE, GameStatus.FINISHED
            steps = [
                ("save a round (htmx)", edit, save, 200, active),
                ("undo it", edit, undo, 303, active),
                ("", edit, save, 200, active),  # the game as built again, not counted
                ("save the last round (htmx; ends the game)", ended, save, 200, finished),
                ("undo it (reopens the game)", ended, undo, 303, active),
            ]
            for label, game, request, expected, status in steps:
                response, figures = counted(request(game))
                if label:
                    table.setdefault(label, {})[shape] = (
                        figures if response.status_code == expected else response.status_code
                    )
                if status_of(app, game)[0] != status:
                    raise RuntimeError(f"{label or 'save'} {shape}: the game is not {status}")
    finally:
        event.remove(engine, "before_cursor_execute", _count)
    return table


def print_queries(table: dict[str, dict]) -> bool:
    """Print the statements table (reads + writes); True when no request's reads grow with
    rounds or players."""
    header = ["request"] + [f"{p} players, {r} rounds" for p, r in SHAPES] + ["reads constant"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    constant = True
    for label, counts in table.items():
        values = [counts[s] for s in SHAPES]
        ok = all(isinstance(v, tuple) for v in values) and len({v[0] for v in values}) == 1
        constant &= ok
        cells = [f"{v[0]} + {v[1]}" if isinstance(v, tuple) else f"HTTP {v}" for v in values]
        print(f"| {label} | " + " | ".join(cells) + f" | {'yes' if ok else 'NO'} |")
    return constant


# --- latency over HTTP -------------------------------------------------------------------------


def serve(path: Path, port: int) -> subprocess.Popen:
    """gunicorn with two workers on the benchmark database; waits until it answers."""
    return serving.serve("web_bench:bench_app()", {"WEB_BENCH_DB": str(path)}, port, probe="/")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args, **_kwargs):  # a 303 is the answer we time
        return None


class Phone:
    """One browser: a cookie jar (session and CSRF), no redirects followed, timed requests."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect()
        )

    def request(
        self, path: str, data: dict | None = None, headers: dict | None = None
    ) -> tuple[int, str, float]:
        """(status, body, milliseconds) of a GET, or a POST when ``data`` is given."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(self.base + path, data=body, headers=headers or {})
        started = time.perf_counter()
        try:
            with self.opener.open(req, timeout=60) as response:
                text, status = response.read().decode(), response.status
        except urllib.error.HTTPError as exc:
            text, status = exc.read().decode(), exc.code
        return status, text, (time.perf_counter() - started) * 1000


def hidden_value(html: str, name: str) -> str:
    """The value of the first hidden input called ``name`` in ``html``."""
    found = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', html)
    if not found:
        raise RuntimeError(f"no hidden {name} field in the page")
    return found.group(1)


def size(body: str) -> str:
    """A response body's size in KB, and gzipped (the app does not compress responses)."""
    raw = body.encode()
    return f"{len(raw) / 1024:.0f} ({len(gzip.compress(raw)) / 1024:.0f})"


def summary(times: list[float]) -> tuple[str, str, str]:
    """(median, p95, n) of times in ms, as text."""
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"{statistics.median(ordered):.1f}", f"{p95:.1f}", str(len(ordered))


def time_pages(phone: Phone, edit: str, share: str, n: int) -> list[tuple[str, str, ...]]:
    """Rows (label, first ms, median, p95, n) for the GET pages of the timed game."""
    version = hidden_value(phone.request(f"/g/{edit}")[1], "version")
    urls = {
        "game page (scorekeeper, round 19 of 19 form + scoreboard)": f"/g/{edit}",
        "read-only scoreboard": f"/s/{share}",
        "polled fragment, game changed": f"/s/{share}/board?v=0",
        "polled fragment, no change (204)": f"/s/{share}/board?v={version}",
    }
    rows = []
    for label, url in urls.items():
        status, body, first = phone.request(url)
        if status not in (200, 204):
            raise RuntimeError(f"{url}: HTTP {status}")
        for _ in range(3):  # both workers warm
            phone.request(url)
        times = [phone.request(url)[2] for _ in range(n)]
        rows.append((label, f"{first:.0f}", *summary(times), size(body)))
    return rows


def time_saves(phone: Phone, app, edit: str, cycles: int) -> list[tuple[str, ...]]:
    """Save the last round and undo it, ``cycles`` times per kind of save."""
    form = last_round_form(app, edit)
    found: dict[str, list[float]] = {}
    sizes: dict[str, str] = {}

    def timed(label: str, expect: int, call: Callable) -> str:
        status, body, ms = call()
        if status != expect:
            raise RuntimeError(f"{label}: HTTP {status}, expected {expect}")
        found.setdefault(label, []).append(ms)
        sizes[label] = size(body)
        return body

    for _ in range(cycles):
        page = phone.request(f"/g/{edit}")[1]
        data = {**form, "csrf_token": hidden_value(page, "csrf_token")}
        data["version"] = hidden_value(page, "version")
        fragment = timed(
            "save the last round (htmx post, answers the game fragment)",
            200,
            lambda d=data: phone.request(f"/g/{edit}/round", d, {"HX-Request": "true"}),
        )
        undo = {"csrf_token": data["csrf_token"], "version": hidden_value(fragment, "version")}
        timed("undo (plain post, 303)", 303, lambda u=undo: phone.request(f"/g/{edit}/undo", u))
        data["version"] = hidden_value(phone.request(f"/g/{edit}")[1], "version")
        timed(
            "save the last round (plain post, 303)",
            303,
            lambda d=data: phone.request(f"/g/{edit}/round", d),
        )
        finished = timed("finished game page", 200, lambda: phone.request(f"/g/{edit}"))
        undo["version"] = hidden_value(finished, "version")
        timed("undo (plain post, 303)", 303, lambda u=undo: phone.request(f"/g/{edit}/undo", u))
    return [(label, "", *summary(times), sizes[label]) for label, times in found.items()]


def run_wrk(url: str) -> str:
    """wrk's summary of 10 s of 20 connections on 2 threads (requests/s and latency lines)."""
    done = subprocess.run(
        ["wrk", "-t2", "-c20", "-d10s", "--latency", url],
        capture_output=True,
        text=True,
        check=False,
    )
    keep = ("Latency", "50%", "90%", "99%", "Requests/sec", "Non-2xx", "Socket errors")
    return "\n".join(line for line in done.stdout.splitlines() if line.strip().startswith(keep))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20, help="GETs per page")
    parser.add_argument("--cycles", type=int, default=10, help="saves per game (each undone)")
    parser.add_argument("--sql", action="store_true", help="also count SQL statements")
    parser.add_argument("--http", action="store_true", help="also time over HTTP (gunicorn)")
    parser.add_argument("--taps", type=int, default=0, help="also time N tile taps (Chromium)")
    parser.add_argument("--wrk", action="store_true", help="with --http: wrk on the scoreboard")
    args = parser.parse_args()
    static, found = measure_table_sizes(args.requests, args.cycles)
    ok = print_table_sizes(static, found)
    if args.taps:
        print_taps(measure_taps(args.taps))
    if args.sql:
        ok &= run_sql_counts()
    if args.http:
        run_http(args.requests, args.cycles, args.wrk)
    if not ok:
        print("\nA goal is not met (see above).")
        sys.exit(1)


def run_sql_counts() -> bool:
    """Section 2: print the SQL statements table; True when no request's reads grow."""
    tmp = Path(tempfile.mkdtemp(prefix="web-bench-"))
    try:
        counted = bench_app(str(tmp / "queries.db"), csrf=False)
        with counted.app_context():
            db.create_all()
        games = {shape: build_game(counted, *shape) for shape in SHAPES}
        # the game whose coming round ends it: at 18 rounds the same, else one played to a
        # target total its coming round reaches
        enders = {
            (p, r): games[p, r][0]
            if r == SET_SIZE
            else build_game(counted, p, r, rules=ended_by_target(p, r))[0]
            for p, r in SHAPES
        }
        queries = count_queries(counted, games, enders)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(
        f"\nSQL statements per request (warm; reads + writes), double-{SET_SIZE} games, "
        "in-process test client:\n"
    )
    return print_queries(queries)


def run_http(requests: int, cycles: int, wrk_too: bool) -> None:
    """Section 3: the 12-player double-18 game over HTTP under gunicorn."""
    tmp = Path(tempfile.mkdtemp(prefix="web-bench-"))
    try:
        path = tmp / "timed.db"
        app = bench_app(str(path))
        with app.app_context():
            db.create_all()
        edit, share = build_game(app, *TIMED)
        with app.app_context():
            db.engine.dispose()  # gunicorn's workers open their own connections
        port = serving.free_port()
        server = serve(path, port)
        try:
            base = f"http://127.0.0.1:{port}"
            phone = Phone(base)
            rows = time_pages(phone, edit, share, requests)
            rows += time_saves(phone, app, edit, cycles)
            wrk = run_wrk(f"{base}/s/{share}") if wrk_too and shutil.which("wrk") else ""
        finally:
            server.terminate()
            server.wait(timeout=10)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(
        f"\n{TIMED[0]} players, double-{SET_SIZE}, {TIMED[1]} rounds scored (the last round to "
        f"play); gunicorn -w 2 on {os.cpu_count()} cores, SQLite file; one client's sequential "
        "requests:\n"
    )
    header = ("request", "first ms", "median ms", "p95 ms", "n", "KB (gzipped)")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if wrk:
        print(f"\nwrk -t2 -c20 -d10s --latency on the read-only scoreboard:\n{wrk}")


if __name__ == "__main__":
    main()
