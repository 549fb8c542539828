"""History pages at 500 / 5,000 / 50,000 games: cold and warm, as ratios to a static file.

For each size, builds (once, then reuses after upgrading it to the head revision) a SQLite
database with ``flask db upgrade``'s schema and :func:`companion.history.demo.generate` (one
night per ten games, 40 players, 3-8 players a game, every round scored by the engine,
standings stored as the app stores them), then:

1. counts the SQL statements of each page in-process (Flask test client, first and second
   request);
2. for each page starts ``--servers`` fresh gunicorns (``-w 2``) in turn and times each one's
   first request (cold: their median) and N more (warm: the median of all) from one client
   over HTTP;
3. times the stylesheet (a static file) the same way, cold and warm, in the same run: its warm
   median is the reference every figure is divided by, and its own cold/warm row shows what a
   fresh server's first request costs when no page is involved (connection, worker wake-up).

Usage::

    .venv/bin/python benchmarks/history_bench.py [--sizes 500,5000,50000] [--requests 30]
        [--servers 3] [--dir /tmp] [--rebuild] [--pages "ratings API,leaderboard"]
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
from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import event, func, select  # noqa: E402

from companion import create_app, warm_up  # noqa: E402
from companion.config import Config  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.models import Game, GameNight, Seat  # noqa: E402

DEFAULT_DIR = Path("/tmp")


def bench_app(path: str | None = None):
    """The app on the benchmark database (gunicorn calls this with HISTORY_BENCH_DB set)."""
    path = path or os.environ["HISTORY_BENCH_DB"]

    class BenchConfig(Config):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{path}"

        def __init__(self) -> None:
            self.SECRET_KEY = "history-bench"

    app = create_app(BenchConfig)
    warm_up(app)  # as wsgi.py does for every worker
    return app


def build(path: Path, games: int, nights: int, players: int, rebuild: bool) -> None:
    """Create the database unless a matching one is already there; bring a matching one built
    before newer migrations up to the head (their backfills run as ``flask db upgrade`` runs them
    on a real history). A database whose revisions are not a start of today's chain (a migration
    was inserted before its head since) is rebuilt: it would be measured on a wrong schema."""
    from companion.history.demo import generate

    marker = path.with_suffix(".spec")
    shape = f"{games} {nights} {players}"
    chain = schema_chain()
    built = marker.read_text().split(" ", 3) if marker.exists() else []
    if path.exists() and not rebuild and " ".join(built[:3]) == shape and len(built) == 4:
        revisions = built[3].split(",")
        if chain[: len(revisions)] == revisions:
            if revisions != chain:
                with bench_app(str(path)).app_context():
                    upgrade(directory=str(ROOT / "migrations"))
                marker.write_text(f"{shape} {','.join(chain)}")
                print(f"upgraded {path} to {chain[-1]}")
            else:
                print(f"reusing {path}")
            return
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    app = bench_app(str(path))
    started = time.perf_counter()
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))  # the real schema, as `flask db upgrade`
        summary = generate(db.session, games=games, nights=nights, players=players)
    marker.write_text(f"{shape} {','.join(chain)}")
    print(
        f"built {path} in {time.perf_counter() - started:.1f} s: {summary.games} games, "
        f"{summary.nights} nights, {summary.players} players, {summary.rounds} rounds, "
        f"{summary.hands} hands"
    )


def schema_chain() -> list[str]:
    """The migrations' revision ids from the first to the head (one head: a test enforces it)."""
    from alembic.config import Config as AlembicConfig
    from alembic.script import ScriptDirectory

    config = AlembicConfig()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    walk = ScriptDirectory.from_config(config).walk_revisions()  # head first
    return [script.revision for script in reversed(list(walk))]


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
        last_night = db.session.scalar(select(func.max(GameNight.id)))
        last_year = db.session.scalar(select(func.max(GameNight.played_on)))
        games_played = busiest[1] if busiest else 0
    player = busiest[0] if busiest else 1
    year = last_year.year if last_year else 2026
    return [
        ("nights list", "/history/"),
        (f"player page ({games_played} games)", f"/history/players/{player}"),
        ("leaderboard", "/history/leaderboard"),
        ("nights list, page 20", "/history/?page=20"),
        ("game page", f"/history/games/{last_game}"),
        # issue 25: ratings, seasons, the night's story and picture
        ("leaderboard by rating", "/history/leaderboard?by=rating"),
        ("season (latest year)", f"/history/seasons?year={year}"),
        ("year in review (busiest player)", f"/history/seasons/{year}/players/{player}"),
        ("night page with its story", f"/history/nights/{last_night}"),
        ("night picture (PNG)", f"/history/nights/{last_night}/card.png"),
        ("ratings API", "/api/v1/ratings"),
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
        with urllib.request.urlopen(url, timeout=120) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    return status, (time.perf_counter() - started) * 1000


def stop(server: subprocess.Popen) -> None:
    """Stop gunicorn: politely, then for sure (a worker may still be compiling templates)."""
    server.terminate()
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


def static_url(app) -> str:
    """The versioned URL of the stylesheet: the reference every page is compared with."""
    with app.test_request_context():
        from flask import url_for

        return url_for("static", filename="css/app.css")


def cold_and_warm(
    path: Path, url: str, n: int, servers: int = 1
) -> tuple[float | None, float | None]:
    """``servers`` fresh gunicorns (-w 2) for the page, one after the other: the median of
    their first requests (cold: nothing in any worker's memory but what its warm-up loaded,
    the OS file cache aside) and the median of ``n`` more on each (warm), in ms. One cold
    request is a single sample; on a shared machine several are needed to say anything."""
    firsts: list[float] = []
    times: list[float] = []
    for _ in range(servers):
        port = serving.free_port()
        server = serve(path, port)
        try:
            base = f"http://127.0.0.1:{port}"
            status, first = timed(base + url)
            if status != 200:
                return None, None
            firsts.append(first)
            times += [timed(base + url)[1] for _ in range(n)]
        finally:
            stop(server)
    return statistics.median(firsts), statistics.median(times)


STATIC_LABEL = "static file (the reference)"


def chosen(label: str, wanted: list[str]) -> bool:
    """Whether ``--pages`` asks for the page ``label`` (no list: every page)."""
    return not wanted or any(label.startswith(start) for start in wanted)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,5000,50000", help="games per database")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument(
        "--servers", type=int, default=3, help="fresh servers per page (cold samples)"
    )
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument(
        "--pages", default="", help="comma-separated label starts: measure only those pages"
    )
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    results: dict[int, dict[str, tuple]] = {}
    labels: list[str] = []
    for games in sizes:
        path = args.dir / f"chickenfoot-history-{games}.db"
        build(path, games, max(1, games // 10), args.players, args.rebuild)
        app = bench_app(str(path))
        wanted = [p.strip() for p in args.pages.split(",") if p.strip()]
        urls = [(label, url) for label, url in pages(app) if chosen(label, wanted)]
        queries = in_process(app, urls, 5)
        static_cold, reference = cold_and_warm(path, static_url(app), args.requests, args.servers)
        assert static_cold is not None and reference is not None, "the stylesheet did not answer"
        row: dict[str, tuple] = {
            "static": (reference,),
            STATIC_LABEL: (static_cold, reference, reference, 0, 0),
        }
        if STATIC_LABEL not in labels:
            labels.append(STATIC_LABEL)
        for label, url in urls:
            generic = label.split(" (")[0]
            if generic not in labels:
                labels.append(generic)
            cold, warm = cold_and_warm(path, url, args.requests, args.servers)
            row[generic] = (cold, warm, reference, *queries[url][:2])
        results[games] = row
        print(f"{games} games: static file {reference:.1f} ms", flush=True)
        for label, (cold, warm, ref, q_cold, q_warm) in (
            (k, v) for k, v in row.items() if k != "static"
        ):
            print(
                f"  {label}: cold {cold:.0f} ms ({cold / ref:.1f}x), warm {warm:.1f} ms "
                f"({warm / ref:.1f}x), cold/warm {cold / warm:.2f}, SQL {q_cold} / {q_warm}",
                flush=True,
            )
    print(
        f"\ngunicorn -w 2 on {os.cpu_count()} cores, SQLite; cold = median of the first "
        f"requests of {args.servers} fresh servers, warm = median of {args.requests} more on "
        "each; x = ratio to a static file (the stylesheet) served by the same server in the "
        f"same run; load average at the end {os.getloadavg()[0]:.1f}\n"
    )
    header = ["page"]
    for games in sizes:
        header += [f"{games:,} cold x", f"{games:,} warm x", f"{games:,} cold/warm"]
    header += ["SQL per request"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for label in labels:
        cells = [label]
        sql = ""
        for games in sizes:
            cold, warm, ref, q_cold, q_warm = results[games].get(label, (None,) * 5)
            if cold is None or warm is None:
                cells += ["n/a"] * 3
                continue
            cells += [f"{cold / ref:.1f}", f"{warm / ref:.1f}", f"{cold / warm:.2f}"]
            sql = f"{q_cold} / {q_warm}"
        print("| " + " | ".join([*cells, sql]) + " |")
    print("\nms (static file, then each page cold / warm):")
    for games in sizes:
        parts = [f"static {results[games]['static'][0]:.1f}"]
        for label in labels:
            cold, warm, *_ = results[games].get(label, (None, None))
            if cold is not None:
                parts.append(f"{label} {cold:.0f} / {warm:.1f}")
        print(f"  {games:,} games: " + "; ".join(parts))


if __name__ == "__main__":
    main()
