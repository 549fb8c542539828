"""Lighthouse (mobile) on every kind of page: scores, layout shift, blocking time, DOM size and
the bytes a first visit loads from this server. Prints a Markdown table; not a test.

The app runs under gunicorn on a temporary SQLite file holding demo history (finished games),
a 4-player double-9 game in play and a 12-player double-18 game half played, with one seat of
it joined (the player's hand page is opened with that phone's cookie). Lighthouse 12.2.3 (the
last release for Node 20) runs through ``npx`` on the system Chromium (``CHROME_PATH``,
default /usr/bin/chromium), mobile form factor, simulated throttling; each page ``--runs``
times, the median reported.

"Own bytes" are the bytes transferred from this server during the load: the ``transferSize`` of
each request of the page that Lighthouse's ``network-requests`` audit lists (compressed as
sent, response headers included): the page, its CSS, scripts, the manifest, the icon Chrome's
install check fetches, the favicon and any request a script makes before Lighthouse stops. The
service worker's own requests (sw.js, the app shell it caches) are not the page's and are not
listed. The CDN copy of htmx is not counted; where the CDN cannot
be reached (a machine without internet), the local copy that replaces it is fetched from this
server: the table shows own bytes with it and without it ("no fallback"), the figure a
connected phone gets. Goal (issue 26): at most 30 KB on every page.

Usage::

    .venv/bin/python benchmarks/lighthouse_bench.py [--runs 1] [--page NAME ...] [--reports DIR]

``--reports DIR`` keeps each run's JSON report there (``<page>-<run>.json``), e.g. to see which
element shifted.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import serving  # noqa: E402
from web_bench import bench_app, build_game  # noqa: E402

from companion.extensions import db  # noqa: E402
from companion.history.demo import generate  # noqa: E402
from companion.models import Game, GameNight, Player  # noqa: E402

#: the pinned Lighthouse: 12.x is the last line that runs on Node 20 (13 needs Node 22)
LIGHTHOUSE = "lighthouse@12.2.3"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
#: the issue's budget of a page's own first-load bytes
OWN_BYTES_GOAL = 30 * 1024


@dataclass
class Result:
    """One page's median figures."""

    name: str
    path: str
    scores: dict[str, int]
    cls: float
    tbt: float
    dom: int
    own_bytes: int
    fallback_bytes: int
    all_bytes: int


def build(path: str) -> tuple[dict[str, str], str]:
    """The benchmark database: the pages to measure (name -> path) and the join secret of the
    12-player double-18 game (its hand page is measured with a phone joined to a seat)."""
    app = bench_app(path)
    with app.app_context():
        db.create_all()
        generate(db.session, games=60, players=16, seed=26)
    keeper, _ = build_game(app, 4, 3, set_size=9)
    _, share = build_game(app, 12, 9, set_size=18)
    with app.app_context():
        night = db.session.scalar(db.select(GameNight).order_by(GameNight.id))
        game = db.session.scalar(db.select(Game).where(Game.night_id == night.id).limit(1))
        player = db.session.scalar(db.select(Player).order_by(Player.id))
        pages = {
            "home": "/",
            "new night": "/nights/new",
            "scorekeeper 4p d9": f"/g/{keeper}",
            "scoreboard 12p d18": f"/s/{share}",
            "hand 12p d18": f"/p/{share}",
            "checker": "/checker/",
            "rule book": "/checker/rules",
            "history": "/history/",
            "night": f"/history/nights/{night.id}",
            "game": f"/history/games/{game.id}",
            "player": f"/history/players/{player.id}",
            "leaderboard": "/history/leaderboard",
        }
        join = db.session.scalar(db.select(Game.join_token).where(Game.share_token == share))
        db.session.remove()
    return pages, join or ""


def join_seat(base: str, join: str) -> str:
    """Join the first seat of the game whose join secret is ``join`` like a phone (CSRF token
    and all); returns its ``Cookie`` header."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/j/{join}").read().decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    seat = re.search(r'name="seat" value="(\d+)"', page)
    if not token or not seat:
        raise RuntimeError("the join page offers no seat")
    data = urllib.parse.urlencode({"csrf_token": token.group(1), "seat": seat.group(1)})
    opener.open(f"{base}/j/{join}", data=data.encode()).read()
    return "; ".join(f"{c.name}={c.value}" for c in jar)


def lighthouse(url: str, cookie: str, out: Path) -> dict:
    """One Lighthouse run on ``url`` (mobile); its JSON report."""
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    command = [
        "npx",
        "--yes",
        LIGHTHOUSE,
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
        f"--extra-headers={json.dumps({'Cookie': cookie})}",
    ]
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": chrome}, timeout=300)
    return json.loads(out.read_text())


#: the local copy of htmx, fetched only when the CDN's cannot be
FALLBACK = "/static/vendor/"


def figures(report: dict, base: str) -> tuple[dict[str, int], float, float, int, int, int, int]:
    """(scores, CLS, TBT ms, DOM elements, own bytes, of which the htmx fallback, all bytes)
    of one report."""
    audits = report["audits"]
    scores = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    requests = audits["network-requests"]["details"]["items"]
    own = sum(int(r.get("transferSize") or 0) for r in requests if r["url"].startswith(base))
    every = sum(int(r.get("transferSize") or 0) for r in requests)
    fallback = sum(
        int(r.get("transferSize") or 0) for r in requests if r["url"].startswith(base + FALLBACK)
    )
    return (
        scores,
        float(audits["cumulative-layout-shift"]["numericValue"]),
        float(audits["total-blocking-time"]["numericValue"]),
        int(audits["dom-size"]["numericValue"]),
        own,
        fallback,
        every,
    )


def measure(name: str, path: str, base: str, cookie: str, runs: int, reports: Path) -> Result:
    """The median of ``runs`` Lighthouse runs on one page (reports kept in ``reports``)."""
    slug = re.sub(r"\W+", "-", name)
    taken = [
        figures(lighthouse(base + path, cookie, reports / f"{slug}-{i}.json"), base)
        for i in range(runs)
    ]

    def median(index: int) -> float:
        return statistics.median(t[index] for t in taken)

    scores = {c: round(statistics.median(t[0][c] for t in taken)) for c in CATEGORIES}
    return Result(
        name,
        path,
        scores,
        median(1),
        median(2),
        int(median(3)),
        int(median(4)),
        int(median(5)),
        int(median(6)),
    )


def table(results: list[Result]) -> str:
    """The results as a Markdown table."""
    lines = [
        "| page | perf | a11y | best pr. | SEO | CLS | TBT ms | DOM | own KB | no fallback "
        "| all KB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        s = r.scores
        connected = r.own_bytes - r.fallback_bytes
        flag = "" if connected <= OWN_BYTES_GOAL else " (over)"
        lines.append(
            f"| {r.name} | {s['performance']} | {s['accessibility']} | "
            f"{s['best-practices']} | {s['seo']} | {r.cls:.3f} | {r.tbt:.0f} | {r.dom} | "
            f"{r.own_bytes / 1024:.1f} | {connected / 1024:.1f}{flag} | "
            f"{r.all_bytes / 1024:.1f} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="Lighthouse runs per page")
    parser.add_argument("--page", action="append", help="only these pages (by name)")
    parser.add_argument("--reports", type=Path, help="keep the JSON reports in this folder")
    args = parser.parse_args()
    if shutil.which("npx") is None:
        print("Lighthouse runs through npx (Node.js 20 and npm), which this machine lacks:")
        print("nothing measured. Install Node.js 20 with npm and run this again.")
        return 0
    with tempfile.TemporaryDirectory(prefix="lighthouse-bench-") as folder:
        tmp = Path(folder)
        database = str(tmp / "bench.db")
        pages, join = build(database)
        port = serving.free_port()
        server = serving.serve("web_bench:bench_app()", {"WEB_BENCH_DB": database}, port)
        try:
            base = f"http://127.0.0.1:{port}"
            cookie = join_seat(base, join)
            chosen = [(n, p) for n, p in pages.items() if not args.page or n in args.page]
            results = []
            for name, path in chosen:
                reports = args.reports or tmp
                reports.mkdir(parents=True, exist_ok=True)
                results.append(measure(name, path, base, cookie, args.runs, reports))
                print(f"measured {name}", file=sys.stderr, flush=True)
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"Lighthouse {LIGHTHOUSE.split('@')[1]} (mobile), median of {args.runs} run(s) a page")
    print(table(results))
    over = [r.name for r in results if r.own_bytes - r.fallback_bytes > OWN_BYTES_GOAL]
    print(f"own first-load bytes (no fallback) over 30 KB: {', '.join(over) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
