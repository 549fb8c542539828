"""The whole table under gunicorn: 12 joined phones polling and posting through a 19-round
double-18 game. Prints figures; not a test.

1. Sizes: a player's hand page (whole page, and its hand form alone) and one post's body, in
   bytes, for games of 4 and 12 players: the hand form and the post must not grow with the
   number of players (only the scoreboard has a line per player).
2. Load: the app served by gunicorn (``-w 2``, as ``make run``) on a temporary SQLite file;
   a scorekeeper phone and 12 player phones (threads, each with its own cookies). The game has
   auto-save on. In every round each player phone polls its live part (``/p/<share>/live?v=``)
   every ``--poll`` seconds (2 s on the real page) and posts its hand once at a random moment;
   the scorekeeper's phone polls ``/g/<edit>/posts?v=``; the last post saves the round. A
   reference thread fetches a static file (``/static/css/app.css``) in the same run. Printed:
   p50/p95 per request kind, errors, and each p50/p95 as a ratio to the static file's.

CSRF is off for the load (the phones would carry the token; its cost is negligible).

Usage::

    .venv/bin/python benchmarks/table_bench.py [--poll 0.5] [--seed 1]
"""

from __future__ import annotations

import argparse
import gzip
import http.cookiejar
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import serving  # noqa: E402  (free ports)

from companion import create_app  # noqa: E402
from companion.config import Config  # noqa: E402
from companion.engine import RuleSet  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.models import Game, GameNight, Player, Seat  # noqa: E402

SET_SIZE = 18
PLAYERS = 12


def bench_app(path: str | None = None):
    """The app on the benchmark database (gunicorn calls this with TABLE_BENCH_DB set)."""
    path = path or os.environ["TABLE_BENCH_DB"]

    class BenchConfig(Config):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{path}"
        WTF_CSRF_ENABLED = False

        def __init__(self) -> None:
            self.SECRET_KEY = "table-bench"

    return create_app(BenchConfig)


def make_game(players: int, label: str) -> tuple[str, str, int]:
    """A new double-18 game of ``players`` (named ``label`` 1..) with auto-save on:
    (edit, share, game id)."""
    night = GameNight(played_on=date(2026, 12, 1))
    game = Game(
        night=night,
        set_size=SET_SIZE,
        rules=RuleSet.from_dict({"set_size": SET_SIZE}).to_dict(),
        auto_save=True,
    )
    for i in range(players):
        name = f"{label} {i + 1:02d}"
        game.seats.append(Seat(player=Player(name=name, name_key=name.casefold()), position=i))
    db.session.add(game)
    db.session.commit()
    return game.edit_token, game.share_token, game.id


class Phone:
    """One phone: its own cookies; every request timed into ``times[kind]``."""

    def __init__(self, base: str, times: dict[str, list[float]], errors: list[str]) -> None:
        self.base = base
        self.times = times
        self.errors = errors
        jar = http.cookiejar.CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *_args, **_kwargs):  # a 303 is the answer we time
                return None

        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(jar), NoRedirect()
        )

    def request(self, kind: str, path: str, data: dict | None = None) -> tuple[int, str]:
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        start = time.perf_counter()
        try:
            with self.opener.open(self.base + path, data=body, timeout=60) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            status, text = exc.code, exc.read().decode(errors="replace")
        except (urllib.error.URLError, ConnectionError, TimeoutError) as exc:
            self.errors.append(f"{kind}: {exc}")
            return 0, ""
        self.times.setdefault(kind, []).append(time.perf_counter() - start)
        if status >= 500:
            self.errors.append(f"{kind}: HTTP {status}")
        return status, text


def hand_value(seat: int, round_index: int) -> dict[str, str]:
    """What seat ``seat`` posts in round ``round_index``: one player goes out per round."""
    if seat == round_index % PLAYERS:
        return {"went_out": "y"}
    return {"total": str(3 + (seat * 7 + round_index * 5) % 40)}


def sizes(app, base: str) -> list[tuple[int, int, int, int, int]]:
    """(players, hand page bytes, gzipped, hand form bytes, post body bytes) for 4 and 12
    players."""
    out = []
    for players in (4, 12):
        with app.app_context():
            _edit, share, game_id = make_game(players, f"Sizes{players}")
            seat_id = db.session.get(Game, game_id).seats[1].id
        phone = Phone(base, {}, [])
        phone.request("join", f"/j/{share}", {"seat": str(seat_id)})
        _status, page = phone.request("hand page", f"/p/{share}")
        form = re.search(r'<section class="card round".*?</section>', page, re.S)
        post = urllib.parse.urlencode({"double": "18", "seen": "0", "total": "123"})
        body = page.encode()
        # the gzipped size docs/PERFORMANCE.md gives beside the page's (the header said it, the
        # tuple lacked it, so printing the table failed after the load run)
        form_bytes = len(form.group(0).encode()) if form else 0
        out.append((players, len(body), len(gzip.compress(body)), form_bytes, len(post)))
    return out


def play(base: str, edit: str, share: str, seat_ids: list[int], poll: float, rng: random.Random):
    """Run the 19-round game with 12 posting phones and the scorekeeper; returns
    (times per kind, errors, rounds saved, wall seconds)."""
    times: dict[str, list[float]] = {}
    errors: list[str] = []
    keeper = Phone(base, times, errors)
    keeper.request("scorekeeper page", f"/g/{edit}")
    phones = [Phone(base, times, errors) for _ in seat_ids]
    for phone, seat in zip(phones, seat_ids, strict=True):
        phone.request("join", f"/j/{share}", {"seat": str(seat)})
    done = threading.Event()
    start = time.perf_counter()

    def static_reference() -> None:
        ref = Phone(base, times, errors)
        while not done.is_set():
            ref.request("static file (reference)", "/static/css/app.css")
            time.sleep(poll)

    def keeper_loop() -> None:
        key = ""
        while not done.is_set():
            status, text = keeper.request("scorekeeper poll", f"/g/{edit}/posts?v={key}")
            if status == 200:
                found = re.search(r'"key":\s*"([^"]+)"', text)
                key = found.group(1) if found else key
            time.sleep(poll)

    rounds_saved = 0
    threads = [threading.Thread(target=static_reference), threading.Thread(target=keeper_loop)]
    for t in threads:
        t.start()
    for k in range(SET_SIZE + 1):
        double = SET_SIZE - k
        barrier = threading.Barrier(len(phones))

        def phone_loop(
            i: int, phone: Phone, double: int = double, k: int = k, barrier=barrier
        ) -> None:
            key = ""
            post_at = time.perf_counter() + rng.random() * 2 * poll
            barrier.wait()
            posted = False
            while True:
                status, text = phone.request("player poll", f"/p/{share}/live?v={key}")
                if status == 200:
                    found = re.search(r"/live\?v=([^\"&]+)", text)
                    key = urllib.parse.unquote(found.group(1)) if found else key
                if not posted and time.perf_counter() >= post_at:
                    data = {"double": str(double), "seen": "0", **hand_value(i, k)}
                    status, _text = phone.request("post a hand", f"/p/{share}", data)
                    if status != 303:
                        errors.append(f"post round {k + 1} seat {i}: HTTP {status}")
                    posted = True
                    continue
                if posted and status == 200 and f"with {double}-{double}" in text:
                    return  # this phone sees its hand taken into the saved round
                time.sleep(poll)

        workers = [threading.Thread(target=phone_loop, args=(i, p)) for i, p in enumerate(phones)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(timeout=120)
        rounds_saved += 1
    done.set()
    for t in threads:
        t.join()
    return times, errors, rounds_saved, time.perf_counter() - start


def serve(path: Path, port: int, log: Path):
    """gunicorn -w 2 (as ``make run``) on the benchmark database, its log in ``log``; returns
    once it answers."""
    import subprocess

    env = {**os.environ, "TABLE_BENCH_DB": str(path), "PYTHONPATH": str(ROOT / "benchmarks")}
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [str(gunicorn), "-w", "2", "-b", f"127.0.0.1:{port}", "table_bench:bench_app()"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
    )
    return serving.answering(process, port, "/api/v1/health")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--poll", type=float, default=0.5, help="seconds between polls")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="table-bench-"))
    path = tmp / "bench.db"
    app = bench_app(str(path))
    with app.app_context():
        db.create_all()
        edit, share, game_id = make_game(PLAYERS, "Player")
        seat_ids = [s.id for s in db.session.get(Game, game_id).seats]
        db.engine.dispose()  # gunicorn's workers open their own connections
    port = serving.free_port()
    log = tmp / "gunicorn.log"
    server = serve(path, port, log)
    base = f"http://127.0.0.1:{port}"
    try:
        size_rows = sizes(app, base)
        times, errors, rounds, wall = play(
            base, edit, share, seat_ids, args.poll, random.Random(args.seed)
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
    with app.app_context():
        saved = db.session.get(Game, game_id)
        stored = len(saved.rounds)
        status = saved.status
    print(
        f"12 phones + scorekeeper, double-18, {rounds} rounds in {wall:.0f} s, poll every "
        f"{args.poll} s; gunicorn -w 2 on {os.cpu_count()} cores, SQLite file; "
        f"rounds stored: {stored} (game {status})"
    )
    ref = times.get("static file (reference)", [1.0])
    ref50, ref95 = statistics.median(ref), pct(ref, 0.95)
    print("\n| request | n | p50 ms | p95 ms | p50 / static | p95 / static |")
    print("|---|---|---|---|---|---|")
    for kind in sorted(times):
        values = times[kind]
        p50, p95 = statistics.median(values), pct(values, 0.95)
        print(
            f"| {kind} | {len(values)} | {p50 * 1000:.1f} | {p95 * 1000:.1f} | "
            f"{p50 / ref50:.1f} | {p95 / ref95:.1f} |"
        )
    print(f"\nerrors: {len(errors)}" + ("".join(f"\n  {e}" for e in errors[:20])))
    if errors:
        tracebacks = [line for line in log.read_text().splitlines() if "Error" in line]
        print("server log:", *tracebacks[-10:], sep="\n  ")
    print("\n| players | hand page bytes | gzipped | hand form bytes | post body bytes |")
    print("|---|---|---|---|---|")
    for players, page, zipped, form, post in size_rows:
        print(f"| {players} | {page} | {zipped} | {form} | {post} |")


if __name__ == "__main__":
    main()
