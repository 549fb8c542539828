"""History pages on a big database: latency and SQL queries per page. Prints figures; not a test.

Builds (once, then reuses) a SQLite database of 5,000 finished games over 500 game nights among
40 players with :func:`companion.history.demo.generate` (3-8 players a game, mostly double-9,
every round dealt and scored by the engine), then:

1. counts the SQL statements each page runs, in-process with the Flask test client and a
   ``before_cursor_execute`` listener (first request = cold, second = warm), and times N warm
   requests there (server time, no HTTP);
2. serves the app with gunicorn (``-w 2``, this machine has 2 cores) and times sequential
   requests from one client over HTTP: the first request, then the median and p95 of N more.

Usage::

    .venv/bin/python benchmarks/history_bench.py [--games 5000 --nights 500 --players 40]
        [--requests 50] [--db /tmp/chickenfoot-history-bench.db] [--rebuild]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import serving  # noqa: E402
from sqlalchemy import event, func, select  # noqa: E402

from companion import create_app  # noqa: E402
from companion.config import Config  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.models import Game, Seat  # noqa: E402

DEFAULT_DB = Path("/tmp/chickenfoot-history-bench.db")


def bench_app(path: str | None = None):
    """The app on the benchmark database (gunicorn calls this with HISTORY_BENCH_DB set)."""
    path = path or os.environ["HISTORY_BENCH_DB"]

    class BenchConfig(Config):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{path}"

        def __init__(self) -> None:
            self.SECRET_KEY = "history-bench"

    return create_app(BenchConfig)


def build(path: Path, games: int, nights: int, players: int, rebuild: bool) -> None:
    """Create the database unless a matching one is already there."""
    from companion.history.demo import generate

    marker = path.with_suffix(".spec")
    spec = f"{games} {nights} {players} v2"
    if path.exists() and not rebuild and marker.exists() and marker.read_text() == spec:
        print(f"reusing {path}")
        return
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    app = bench_app(str(path))
    started = time.perf_counter()
    with app.app_context():
        db.create_all()
        summary = generate(db.session, games=games, nights=nights, players=players)
    marker.write_text(spec)
    print(
        f"built {path} in {time.perf_counter() - started:.1f} s: {summary.games} games, "
        f"{summary.nights} nights, {summary.players} players, {summary.rounds} rounds, "
        f"{summary.hands} hands"
    )


def pages(app) -> list[tuple[str, str]]:
    """(label, URL) of the measured pages; the player page is the busiest player's."""
    with app.app_context():
        busiest = db.session.execute(
            select(Seat.player_id, func.count())
            .group_by(Seat.player_id)
            .order_by(func.count().desc())
            .limit(1)
        ).first()
        last_game = db.session.scalar(select(func.max(Game.id)))
        games_played = busiest[1] if busiest else 0
    return [
        ("nights list", "/history/"),
        (f"player page ({games_played} games)", f"/history/players/{busiest[0] if busiest else 1}"),
        ("leaderboard", "/history/leaderboard"),
        ("nights list, page 20", "/history/?page=20"),
        ("game page", f"/history/games/{last_game}"),
    ]


def in_process(app, urls: list[tuple[str, str]], n: int) -> dict[str, tuple]:
    """URL -> (SQL statements cold, SQL statements warm, median server ms warm): the Flask test
    client in this process, no HTTP; "n/a" for a page that answers 404 (not built yet)."""
    counter = {"n": 0}
    out: dict[str, tuple] = {}
    with app.app_context():
        engine = db.engine

    @event.listens_for(engine, "before_cursor_execute")
    def _count(*_args) -> None:
        counter["n"] += 1

    client = app.test_client()
    for _label, url in urls:
        figures: list[int | str] = []
        for _ in range(2):
            counter["n"] = 0
            status = client.get(url).status_code
            figures.append(counter["n"] if status == 200 else na(status))
        times = []
        for _ in range(n if status == 200 else 0):
            started = time.perf_counter()
            client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        server = f"{statistics.median(times):.1f}" if times else na(status)
        out[url] = (figures[0], figures[1], server)
    event.remove(engine, "before_cursor_execute", _count)
    return out


def na(status: int) -> str:
    """How a page that did not answer 200 shows in the table."""
    return "n/a" if status == 404 else f"HTTP {status}"


def serve(path: Path, port: int) -> subprocess.Popen:
    """gunicorn with two workers on the benchmark database; waits until it answers."""
    return serving.serve(
        "history_bench:bench_app()",
        {"HISTORY_BENCH_DB": str(path)},
        port,
        probe="/static/css/app.css",
    )


def timed(url: str) -> tuple[int, float]:
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    return status, (time.perf_counter() - started) * 1000


def measure(base: str, url: str, n: int) -> tuple[str, str, str]:
    """(first request, median, p95) in ms over one client's sequential requests; n/a if 404.

    Two workers each warm up (memo) on their first requests, so the first figure is cold."""
    status, first = timed(base + url)
    if status != 200:
        return (na(status),) * 3
    for _ in range(3):
        timed(base + url)
    times = sorted(timed(base + url)[1] for _ in range(n))
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    return (f"{first:.0f}", f"{statistics.median(times):.1f}", f"{p95:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--nights", type=int, default=500)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--db", type=Path, default=DEFAULT_DB)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    build(args.db, args.games, args.nights, args.players, args.rebuild)
    app = bench_app(str(args.db))
    urls = pages(app)
    queries = in_process(app, urls, args.requests)
    port = serving.free_port()
    server = serve(args.db, port)
    try:
        base = f"http://127.0.0.1:{port}"
        rows = [
            (label, url, *measure(base, url, args.requests), *queries[url]) for label, url in urls
        ]
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(
        f"\n{args.games} games, {args.nights} nights, {args.players} players; gunicorn -w 2 on "
        f"{os.cpu_count()} cores; {args.requests} sequential requests per page\n"
    )
    header = ("page", "HTTP first ms", "HTTP median ms", "HTTP p95 ms", "server median ms")
    header += ("SQL cold", "SQL warm")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for label, _url, first, median, p95, cold, warm, server in rows:
        print(f"| {label} | {first} | {median} | {p95} | {server} | {cold} | {warm} |")


if __name__ == "__main__":
    main()
