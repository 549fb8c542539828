"""The rules API under hostile load: what the worst ACCEPTED request costs, and what four
clients sending it do to a table's scoreboard. Prints figures; asserts nothing (not a test).

1. In-process (Flask test client, no network): CPU time (``time.process_time``) per request,
   median of ``--reps``, for a trivial question (the reference, measured in the same run) and
   for the most expensive questions the API accepts (benchmarks/hostile_questions.py: double-18,
   12 players, 19 rounds, every tile of the set), the worst accepted batch (the costliest question
   per value repeated up to the batch's value budget), and the attack run's refused requests (a
   12,000 x 18 scoring question, a 260,000-item setup list), printed as ratios to the reference.
2. gunicorn (``-w 2``) on a temporary SQLite file holding a 12-player double-18 game at its last
   round: the read-only scoreboard's polled fragment, p95 over ``--polls`` sequential requests,
   first alone, then while four client processes send a trivial question back to back (what
   any four busy clients cost), then while they send the worst accepted request.

Usage::

    .venv/bin/python benchmarks/api_bench.py [--reps 30] [--polls 200]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import serving  # noqa: E402
import web_bench  # noqa: E402
from hostile_questions import trivial_question, worst_questions  # noqa: E402

from companion.api.openapi import MAX_BATCH_VALUES, MAX_CASES  # noqa: E402
from companion.engine.limits import count_values  # noqa: E402

ANSWER = "/api/v1/rules/answer"
BATCH = "/api/v1/rules/answer-batch"
CLIENTS = 4


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def cpu_ms(call: Callable[[], Any], reps: int) -> float:
    """Median CPU milliseconds of ``call()`` over ``reps`` runs (after one warm-up)."""
    call()
    samples = []
    for _ in range(reps):
        start = time.process_time()
        call()
        samples.append((time.process_time() - start) * 1000)
    return statistics.median(samples)


def worst_batch(questions: dict[str, dict], costs: dict[str, float]) -> dict[str, Any]:
    """The accepted batch costing most: one question repeated as often as the batch's bounds
    allow (values, MAX_CASES, the 1 MiB body), choosing the question whose repeats cost most."""

    def repeats(label: str) -> int:
        one = questions[label]
        size = len(json.dumps(one)) + 2
        per = count_values(one, 10**6)
        return min(MAX_BATCH_VALUES // per, MAX_CASES, (1024 * 1024 - 100) // size)

    label = max(questions, key=lambda k: costs[k] * repeats(k))
    return {"cases": [{**questions[label], "id": f"{label} #{i}"} for i in range(repeats(label))]}


def refused_requests() -> dict[str, tuple[str, dict[str, Any]]]:
    """The attack run's requests (issue 8), now refused with 413 before any engine work; and one
    just under the single-question body bound, which is parsed before it is refused."""
    scores = {f"P{i}": [5] * 18 for i in range(12_000)}
    return {
        "refused: scoring, 12,000 players x 18 rounds (780 KB)": (
            ANSWER,
            {"category": "scoring", "input": {"set": 18, "round_scores": scores}},
        ),
        "refused: setup, a 260,000-item players_list (780 KB)": (
            ANSWER,
            {"category": "setup", "input": {"set": 9, "players_list": [2] * 260_000}},
        ),
        "refused: setup, a 60,000-item players_list (180 KB, parsed, then refused)": (
            ANSWER,
            {"category": "setup", "input": {"set": 9, "players_list": [2] * 60_000}},
        ),
    }


def in_process(reps: int) -> tuple[bytes, str]:
    """Part 1; returns the body and label of the worst accepted request."""
    app = web_bench.bench_app(os.path.join(tempfile.mkdtemp(), "api.db"), csrf=False)
    client = app.test_client()

    def post(url: str, body: bytes, expect: int) -> Callable[[], None]:
        def call() -> None:
            resp = client.post(url, data=body, content_type="application/json")
            if resp.status_code != expect:
                raise RuntimeError(f"{url}: HTTP {resp.status_code}, expected {expect}")

        return call

    reference = cpu_ms(post(ANSWER, json.dumps(trivial_question()).encode(), 200), reps * 10)
    questions = worst_questions()
    costs = {
        k: cpu_ms(post(ANSWER, json.dumps(q).encode(), 200), reps) for k, q in questions.items()
    }
    batch = worst_batch(questions, costs)
    batch_body = json.dumps(batch).encode()
    batch_label = (
        f"accepted batch: {len(batch['cases'])} x '{batch['cases'][0]['id'].split(' #')[0]}' "
        f"({count_values_in(batch):,} values, {len(batch_body) / 1024:.0f} KB)"
    )
    costs[batch_label] = cpu_ms(post(BATCH, batch_body, 200), reps)
    rows = [("reference: one trivial question (score a 1-tile hand)", reference)]
    rows += [(f"accepted: {k}", v) for k, v in costs.items() if k != batch_label]
    rows.append((batch_label, costs[batch_label]))
    for label, (url, body) in refused_requests().items():
        rows.append((label, cpu_ms(post(url, json.dumps(body).encode(), 413), max(3, reps // 5))))
    print("| request (in-process, Flask test client) | CPU ms (median) | x reference |")
    print("|---|---|---|")
    for label, ms in rows:
        print(f"| {label} | {ms:.2f} | {ms / reference:.0f} |")
    worst_single = max((k for k in costs if k != batch_label), key=costs.__getitem__)
    if costs[batch_label] >= costs[worst_single]:
        return batch_body, batch_label
    single = questions[worst_single]
    return json.dumps(single).encode(), worst_single


def count_values_in(batch: dict[str, Any]) -> int:
    return sum(count_values(c, 10**6) for c in batch["cases"])


def timed_get(url: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as resp:
        resp.read()
    return (time.perf_counter() - started) * 1000


def polls(url: str, n: int) -> list[float]:
    for _ in range(5):  # both workers warm
        timed_get(url)
    return [timed_get(url) for _ in range(n)]


def hammer(url: str, body: bytes, stop: Any, answered: Any, refused: Any) -> None:
    """One client (its own process, so that it does not hold the poller's GIL): post ``body``
    back to back until ``stop`` is set, counting 200 and other answers."""
    while not stop.is_set():
        req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                resp.read()
            with answered.get_lock():
                answered.value += 1
        except urllib.error.HTTPError:
            with refused.get_lock():
                refused.value += 1


def under_load(base: str, poll_url: str, body: bytes, n: int) -> tuple[list[float], Counter]:
    """Poll times while CLIENTS processes post ``body`` back to back; and their answers."""
    url = base + (BATCH if body.startswith(b'{"cases"') else ANSWER)
    stop = multiprocessing.Event()
    answered, refused = multiprocessing.Value("i", 0), multiprocessing.Value("i", 0)
    clients = [
        multiprocessing.Process(target=hammer, args=(url, body, stop, answered, refused))
        for _ in range(CLIENTS)
    ]
    for c in clients:
        c.start()
    time.sleep(1)  # the load is running
    try:
        times = polls(poll_url, n)
    finally:
        stop.set()
        for c in clients:
            c.join(timeout=120)
    return times, Counter({"200": answered.value, "other": refused.value})


def over_http(body: bytes, label: str, n: int) -> None:
    """Part 2."""
    workdir = tempfile.mkdtemp(prefix="api-bench-")
    path = Path(workdir) / "bench.db"
    app = web_bench.bench_app(str(path), csrf=False)
    with app.app_context():
        web_bench.db.create_all()
    _edit, share = web_bench.build_game(app, *web_bench.TIMED)
    port = serving.free_port()
    server = web_bench.serve(path, port)
    base = f"http://127.0.0.1:{port}"
    try:
        poll_url = f"{base}/s/{share}/board?v=0"
        alone = polls(poll_url, n)
        trivial = json.dumps(trivial_question()).encode()
        light, light_statuses = under_load(base, poll_url, trivial, n)
        loaded, statuses = under_load(base, poll_url, body, n)
    finally:
        server.terminate()
        server.wait(timeout=30)
    print()
    print(f"Scoreboard poll (`/s/<share>/board`, 12 players, 18 rounds) under gunicorn -w 2; load "
          f"= {CLIENTS} clients sending '{label}' back to back "
          f"(answers: {dict(statuses)}); for comparison, the same four clients sending the "
          f"trivial question (answers: {dict(light_statuses)}).")  # fmt: skip
    print()
    print("| scoreboard poll | median ms | p95 ms | n |")
    print("|---|---|---|---|")
    rows = (
        ("alone", alone),
        (f"{CLIENTS} clients of the trivial question", light),
        (f"{CLIENTS} clients of the worst accepted request", loaded),
    )
    for name, times in rows:
        print(f"| {name} | {statistics.median(times):.1f} | {p95(times):.1f} | {len(times)} |")
    print(f"\np95 under the worst load / p95 alone: {p95(loaded) / p95(alone):.1f}; "
          f"/ p95 under the trivial load: {p95(loaded) / p95(light):.1f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=30, help="timed runs per request (part 1)")
    parser.add_argument("--polls", type=int, default=200, help="scoreboard polls per phase")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {load:.1f} at start\n")  # fmt: skip
    body, label = in_process(args.reps)
    over_http(body, label, args.polls)


if __name__ == "__main__":
    main()
