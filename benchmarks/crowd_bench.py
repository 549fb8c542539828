"""A crowd at the table: N phones polling the read-only board while rounds are saved and 12
players post their hands at once, against the server ``make run`` starts. Prints figures; not
a test.

The app is served by gunicorn with the options of ``make run`` (``companion.serve``:
workers, gthread threads, keep-alive, backlog, the masked access log), on 127.0.0.1, on a
temporary SQLite file holding one double-18 game of 12 players with auto-save on. One asyncio
load generator on the same machine (one process, so at most one core) drives:

* ``--phones`` viewer phones (default 400), each on its own keep-alive connection with its own
  cookie: it opens the read-only page ``/s/<share>`` (the openings spread over the first poll
  period), then polls ``/s/<share>/board?v=<version>`` every ``--poll`` seconds (2 s, as the
  page does) until the run ends;
* 12 player phones joined to the seats, polling their live part ``/p/<share>/live?v=`` every
  2 s, and in each of ``--rounds`` rounds all posting their hands at the same moment; the
  last post saves the round (auto-save), so every viewer then asks for the new board;
* the scorekeeper's phone polling ``/g/<edit>/posts?v=``;
* two reference phones, interleaved through the whole run: one fetching a static file
  (``/static/css/app.css`` at its versioned URL), one repeating its view of the unchanged
  read-only page with ``If-None-Match`` (a 304); their p50 ratio is the cost of a repeat view
  against a static file's, measured in the same run under the same load.

Printed: errors (5xx, unexpected statuses), dropped connections (a refused, reset or timed
out request on a fresh connection; a request on a kept connection the server had just closed
is retried once on a new one and counted apart as a reconnect, as browsers do), p50/p95 per
kind of request, renders per game version (the server says per answer whether its board was
rendered for it or served from the cache: ``X-Board-Render``, on only in this benchmark), and
the machine's load average (``os.getloadavg``) at the start and the end.

CSRF is off for the load (each phone would carry its own token; its cost is negligible).

Usage::

    .venv/bin/python benchmarks/crowd_bench.py [--phones 400] [--rounds 6] [--workers 2]
        [--threads 4] [--keepalive 20]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import brotli

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import serving  # noqa: E402  (free ports)
import table_bench  # noqa: E402  (the seeded double-18 game, the hands posted)

from companion import create_app  # noqa: E402
from companion import serve as companion_serve  # noqa: E402
from companion.config import Config  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.models import Game  # noqa: E402

try:
    from companion.render_cache import RENDER_HEADER, VERSION_HEADER
except ImportError:  # the code before the board cache (a before/after run): no such headers
    RENDER_HEADER, VERSION_HEADER = "X-Board-Render", "X-Board-Version"

#: seconds a request may take before it counts as dropped
REQUEST_TIMEOUT = 30.0
#: seconds between two requests of each reference phone (static file, repeat view)
REFERENCE_EVERY = 0.5
#: the issue's goals: poll p95 and post p95 in seconds, repeat view / static file at p50
GOAL_POLL_P95, GOAL_POST_P95, GOAL_REPEAT_RATIO = 0.5, 1.0, 3.0


def bench_app(path: str | None = None):
    """The app on the benchmark database, counting board renders in a header."""
    path = path or os.environ["CROWD_BENCH_DB"]

    class BenchConfig(Config):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{path}"
        WTF_CSRF_ENABLED = False
        BOARD_RENDER_HEADER = True
        # every phone of the crowd comes from 127.0.0.1: no limit on new phones per address
        NEW_DEVICES_PER_ADDRESS = 0

        def __init__(self) -> None:
            self.SECRET_KEY = "crowd-bench"

    return create_app(BenchConfig)


# --- an HTTP/1.1 keep-alive client on asyncio streams ---------------------------------------


class Dropped(Exception):
    """A request that got no answer: refused, reset, closed or timed out."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


@dataclass
class Stats:
    """Everything the run measures, per kind of request."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    renders: Counter[int] = field(default_factory=Counter)  # version -> fresh renders
    served: Counter[int] = field(default_factory=Counter)  # version -> boards sent
    statuses: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))


class Phone:
    """One phone: one keep-alive connection, its own cookies."""

    def __init__(self, port: int, stats: Stats) -> None:
        self.port = port
        self.stats = stats
        self.cookies: dict[str, str] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    def _request_bytes(self, method: str, path: str, headers: dict[str, str], body: bytes) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept-Encoding: gzip, br"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines += [f"{k}: {v}" for k, v in headers.items()]
        if body or method == "POST":
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
            ]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body

    async def _exchange(self, raw: bytes, method: str) -> Answer:
        assert self.reader is not None and self.writer is not None
        self.writer.write(raw)
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        for line in header_lines:
            if ":" in line:
                name, value = line.split(":", 1)
                name, value = name.strip().lower(), value.strip()
                if name == "set-cookie":
                    cookie = value.split(";", 1)[0]
                    key, _, val = cookie.partition("=")
                    self.cookies[key] = val
                headers[name] = value
        body = b""
        if status not in (204, 304) and method != "HEAD":
            if headers.get("transfer-encoding", "").lower() == "chunked":
                body = await self._chunks()
            else:
                body = await self.reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection", "").lower() == "close":
            self.close()
        encoding = headers.get("content-encoding", "")
        if body and encoding == "br":
            body = brotli.decompress(body)
        elif body and encoding == "gzip":
            body = gzip.decompress(body)
        return Answer(status, headers, body)

    async def _chunks(self) -> bytes:
        assert self.reader is not None
        parts = []
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size))
            await self.reader.readexactly(2)

    async def request(
        self, kind: str, path: str, data: str | None = None, headers: dict[str, str] | None = None
    ) -> Answer | None:
        """One request, timed into ``stats.times[kind]``; None when it was dropped."""
        method = "GET" if data is None else "POST"
        raw = self._request_bytes(method, path, headers or {}, (data or "").encode())
        start = time.perf_counter()
        for attempt in (1, 2):
            fresh = self.writer is None
            try:
                if fresh:
                    await self._connect()
                answer = await asyncio.wait_for(self._exchange(raw, method), REQUEST_TIMEOUT)
                break
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
                self.close()
                partial = isinstance(exc, asyncio.IncompleteReadError) and exc.partial
                if fresh or attempt == 2 or partial or isinstance(exc, TimeoutError):
                    self.stats.dropped[kind] += 1
                    self.stats.errors.append(f"{kind}: dropped ({type(exc).__name__})")
                    return None
                self.stats.reconnects += 1  # the server closed this kept connection: reopen
        self.stats.times[kind].append(time.perf_counter() - start)
        self.stats.statuses[kind][answer.status] += 1
        if answer.status >= 500:
            self.stats.errors.append(f"{kind}: HTTP {answer.status}")
        render = answer.headers.get(RENDER_HEADER.lower())
        if render:
            version = int(answer.headers.get(VERSION_HEADER.lower(), "-1"))
            self.stats.served[version] += 1
            if render == "fresh":
                self.stats.renders[version] += 1
        return answer


# --- the crowd ----------------------------------------------------------------------------------


@dataclass
class Run:
    port: int
    share: str
    edit: str
    seats: list[int]
    poll: float
    rounds: int
    round_seconds: float
    stats: Stats = field(default_factory=Stats)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    static_url: str = "/static/css/app.css"
    join: str = ""  # the game's join secret (the scorekeeper's screen shows it)


async def pause(run: Run, seconds: float) -> None:
    """Sleep ``seconds`` or until the run stops."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(run.stop.wait(), seconds)


async def viewer(run: Run, rng: random.Random) -> None:
    phone = Phone(run.port, run.stats)
    await pause(run, rng.random() * run.poll)  # the room opens the link over one poll period
    page = await phone.request("open the read-only page", f"/s/{run.share}")
    found = re.search(r"/board\?v=(\d+)", page.text) if page else None
    await pause(run, run.poll)
    url = f"/s/{run.share}/board?v="
    await poll_for_key(run, phone, "viewer poll", url, r'data-version="(\d+)"', found and found[1])
    phone.close()


async def poll_for_key(
    run: Run, phone: Phone, kind: str, url: str, pattern: str, key: str | None = ""
) -> None:
    """Poll ``url`` + the key last seen every ``run.poll`` seconds until the run stops, as the
    pages do: an answer with content carries the next key (``pattern``'s group)."""
    key = key or ""
    while not run.stop.is_set():
        answer = await phone.request(kind, url + key)
        if answer is not None and answer.status == 200:
            found = re.search(pattern, answer.text)
            key = found.group(1) if found else key
        await pause(run, run.poll)


async def player(run: Run, seat: int, index: int, start_round: list[asyncio.Event]) -> None:
    phone = Phone(run.port, run.stats)
    joined = await phone.request("join a seat", f"/j/{run.join}", f"seat={seat}")
    if joined is None or joined.status != 303:
        run.stats.errors.append(f"join seat {seat}: {joined.status if joined else 'dropped'}")
    poller = asyncio.create_task(
        poll_for_key(run, phone, "player poll", f"/p/{run.share}/live?v=", r"/live\?v=([^\"&]+)")
    )
    post_phone = Phone(run.port, run.stats)  # the post is sent beside the poll, as htmx does
    post_phone.cookies = phone.cookies
    for round_index in range(run.rounds):
        await start_round[round_index].wait()
        if run.stop.is_set():
            break
        double = table_bench.SET_SIZE - round_index
        fields = {"double": str(double), "seen": "0", **table_bench.hand_value(index, round_index)}
        body = "&".join(f"{k}={v}" for k, v in fields.items())
        answer = await post_phone.request("post a hand", f"/p/{run.share}", body)
        if answer is not None and answer.status != 303:
            run.stats.errors.append(f"post round {round_index + 1} seat {seat}: {answer.status}")
    await poller
    phone.close()
    post_phone.close()


async def scorekeeper(run: Run) -> None:
    phone = Phone(run.port, run.stats)
    await phone.request("scorekeeper page", f"/g/{run.edit}")
    url = f"/g/{run.edit}/posts?v="
    await poll_for_key(run, phone, "scorekeeper poll", url, r'"key":\s*"([^"]+)"')
    phone.close()


async def static_reference(run: Run) -> None:
    phone = Phone(run.port, run.stats)
    while not run.stop.is_set():
        await phone.request("static file (reference)", run.static_url)
        await pause(run, REFERENCE_EVERY)
    phone.close()


async def repeat_view(run: Run) -> None:
    """A phone that has the read-only page and views it again while it is unchanged."""
    phone = Phone(run.port, run.stats)
    await phone.request("open the read-only page", f"/s/{run.share}")  # makes its CSRF secret
    etag, version = "", ""
    while not run.stop.is_set():
        headers = {"If-None-Match": etag} if etag else {}
        answer = await phone.request("read-only page, first view", f"/s/{run.share}", None, headers)
        if answer is None:
            continue
        etag = answer.headers.get("etag", etag)
        version = answer.headers.get(VERSION_HEADER.lower(), version)
        while not run.stop.is_set():
            await pause(run, REFERENCE_EVERY)
            again = await phone.request(
                "read-only page, repeat view (304)",
                f"/s/{run.share}",
                None,
                {"If-None-Match": etag},
            )
            if again is None or again.status != 304:
                break  # a save changed the page (or no ETag): view it anew
    phone.close()


async def crowd(run: Run, phones: int, seed: int) -> float:
    """Run the crowd; returns the wall time in seconds."""
    rng = random.Random(seed)
    start_round = [asyncio.Event() for _ in range(run.rounds)]
    tasks = [asyncio.create_task(viewer(run, random.Random(rng.random()))) for _ in range(phones)]
    tasks += [
        asyncio.create_task(player(run, seat, i, start_round)) for i, seat in enumerate(run.seats)
    ]
    tasks += [asyncio.create_task(f(run)) for f in (scorekeeper, static_reference, repeat_view)]
    start = time.perf_counter()
    await pause(run, 2 * run.poll)  # every viewer has the page and polls
    for event in start_round:
        event.set()  # the 12 players post at once; the last post saves the round
        await pause(run, run.round_seconds)
    run.stop.set()
    for event in start_round:
        event.set()
    await asyncio.gather(*tasks)
    return time.perf_counter() - start


# --- serving ------------------------------------------------------------------------------------


def serve_here(port: int, workers: int, threads: int, keepalive: int, access_log: bool) -> None:
    """``--serve``: gunicorn with ``make run``'s options (overridden for a tuning run) in this
    process, the app built in each worker on ``CROWD_BENCH_DB``."""
    if hasattr(companion_serve, "gunicorn_options"):
        options = companion_serve.gunicorn_options("127.0.0.1", port, workers)
        options.update(threads=threads, keepalive=keepalive)
        if not access_log:
            options["accesslog"] = None
        companion_serve.Gunicorn(options, bench_app).run()
        return
    # the code before (a before/after run): make run's options then, gunicorn's defaults else

    class Before(companion_serve._Gunicorn):  # type: ignore[attr-defined]
        def load(self):
            return bench_app()

    Before(
        {
            "bind": f"127.0.0.1:{port}",
            "workers": workers,
            "threads": threads,
            "accesslog": "-",
            "logger_class": companion_serve.MaskedLogger,
            "timeout": 120,
        }
    ).run()


def start_server(db_path: Path, port: int, args: argparse.Namespace, log: Path):
    command = [
        sys.executable, __file__, "--serve", str(port), "--workers", str(args.workers),
        "--threads", str(args.threads), "--keepalive", str(args.keepalive),
        "--access-log" if args.access_log else "--no-access-log",
    ]  # fmt: skip
    env = {**os.environ, "CROWD_BENCH_DB": str(db_path)}
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT
    )
    return serving.answering(process, port, "/api/v1/health")


def warm_up(port: int, share: str) -> None:
    """A few untimed views of each page before the crowd, so the figures are a running
    server's, not its workers' first template compilations."""
    for path in (f"/s/{share}", f"/s/{share}/board?v=", f"/j/{share}", "/api/v1/health") * 6:
        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60).read()


def server_cpu(master: int) -> float:
    """CPU seconds (user + system) used so far by gunicorn's master and its workers: what the
    server cost, whatever else the machine runs (a shared machine's load stretches the
    latencies, not this)."""
    tick = os.sysconf("SC_CLK_TCK")
    pids = [master]
    children = Path(f"/proc/{master}/task/{master}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / tick


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def report(run: Run, args: argparse.Namespace, wall: float, load: tuple, saved: int) -> None:
    stats = run.stats
    print(
        f"{args.phones} viewer phones + 12 players + scorekeeper, double-18, {saved} rounds saved "
        f"in {wall:.0f} s, polls every {args.poll} s; gunicorn -w {args.workers} "
        f"--threads {args.threads} --keep-alive {args.keepalive}"
        f"{'' if args.access_log else ', no access log'} on {os.cpu_count()} cores, "
        f"SQLite file, the load generator on the same machine"
    )
    print(f"load average (1, 5, 15 min): start {load[0]}, end {load[1]}")
    print("\n| request | n | p50 ms | p95 ms | max ms | statuses |")
    print("|---|---|---|---|---|---|")
    for kind in sorted(stats.times):
        values = stats.times[kind]
        codes = ", ".join(f"{c}: {n}" for c, n in sorted(stats.statuses[kind].items()))
        print(
            f"| {kind} | {len(values)} | {statistics.median(values) * 1000:.1f} | "
            f"{pct(values, 0.95) * 1000:.1f} | {max(values) * 1000:.0f} | {codes} |"
        )
    five = sum(n for c in stats.statuses.values() for s, n in c.items() if s >= 500)
    print(
        f"\n5xx: {five}; dropped connections: {sum(stats.dropped.values())} {dict(stats.dropped)}"
    )
    print(f"kept connections closed by the server and reopened: {stats.reconnects}")
    other = [e for e in stats.errors if "dropped" not in e]
    print(f"other errors: {len(other)}" + "".join(f"\n  {e}" for e in other[:10]))
    print("\n| game version | boards sent | rendered |")
    print("|---|---|---|")
    for version in sorted(stats.served):
        print(f"| {version} | {stats.served[version]} | {stats.renders[version]} |")
    if not stats.served:
        print("| (the server does not say: every board sent was rendered for its phone) | | |")
    polls = stats.times["viewer poll"] + stats.times["player poll"]
    posts = stats.times["post a hand"]
    static = stats.times["static file (reference)"]
    repeat = stats.times["read-only page, repeat view (304)"]
    ratio = statistics.median(repeat) / statistics.median(static) if repeat and static else 0.0
    p95_poll = pct(polls, 0.95) if polls else float("nan")
    p95_post = pct(posts, 0.95) if posts else float("nan")
    print(
        f"\npolls (viewers and players) p50 {statistics.median(polls) * 1000:.1f} ms, "
        f"p95 {p95_poll * 1000:.1f} ms (goal < {GOAL_POLL_P95 * 1000:.0f}); posts p95 "
        f"{p95_post * 1000:.1f} ms (goal < {GOAL_POST_P95 * 1000:.0f}); repeat view / static "
        f"file at p50: {ratio:.2f}x (goal <= {GOAL_REPEAT_RATIO:.0f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=400, help="viewer phones polling")
    parser.add_argument("--rounds", type=int, default=6, help="rounds posted and saved")
    parser.add_argument("--round-seconds", type=float, default=8.0)
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between polls")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", "2")))
    parser.add_argument("--threads", type=int, default=getattr(companion_serve, "THREADS", 4))
    parser.add_argument("--keepalive", type=int, default=getattr(companion_serve, "KEEPALIVE", 2))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="gunicorn's access log, as make run prints it (--no-access-log: a tuning run)",
    )
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_here(args.serve, args.workers, args.threads, args.keepalive, args.access_log)
        return
    tmp = Path(tempfile.mkdtemp(prefix="crowd-bench-"))
    db_path = tmp / "bench.db"
    app = bench_app(str(db_path))
    with app.app_context():
        db.create_all()
        edit, share, game_id = table_bench.make_game(table_bench.PLAYERS, "Player")
        seats = [s.id for s in db.session.get(Game, game_id).seats]
        join = db.session.get(Game, game_id).join_token
        db.engine.dispose()  # the workers open their own connections
    port = serving.free_port()
    log = tmp / "gunicorn.log"
    load_start = os.getloadavg()
    server = start_server(db_path, port, args, log)
    warm_up(port, share)
    run = Run(port, share, edit, seats, args.poll, args.rounds, args.round_seconds, join=join)
    with app.test_request_context():
        from flask import url_for

        run.static_url = url_for("static", filename="css/app.css")
    cpu_start, own_start = server_cpu(server.pid), time.process_time()
    try:
        wall = asyncio.run(crowd(run, args.phones, args.seed))
    finally:
        load_end = os.getloadavg()
        cpu = server_cpu(server.pid) - cpu_start
        own = time.process_time() - own_start
        server.terminate()
        server.wait(timeout=30)
    with app.app_context():
        saved = len(db.session.get(Game, game_id).rounds)
    fmt = tuple(f"{a:.2f} / {b:.2f} / {c:.2f}" for a, b, c in (load_start, load_end))
    report(run, args, wall, fmt, saved)
    answered = sum(len(v) for v in run.stats.times.values())
    print(
        f"server CPU: {cpu:.1f} s in {wall:.0f} s ({cpu / wall:.2f} of one core), "
        f"{cpu / max(answered, 1) * 1000:.2f} ms per request ({answered} requests); "
        f"load generator CPU: {own:.1f} s ({own / wall:.2f} of one core)"
    )
    if any("Traceback" in line for line in log.read_text(errors="replace").splitlines()):
        print(f"\nthe server logged tracebacks: {log}")


if __name__ == "__main__":
    main()
