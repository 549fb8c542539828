"""Engine benchmark: prints figures, asserts nothing (never a timed test).

* the time to check one move (check_move) on large double-18 layouts reached by simulating
  8 players, one in open play (every open end a target) and one with a chicken foot open,
  median and 95th percentile over many random (tile, target) pairs;
* the time for legal_moves of a 7-tile hand on each, as a ratio to a plain-dict floor
  (number -> target ids, prebuilt) measured in the same run on the same hands;
* replay of each whole layout, per tile (attach costs the same whatever the layout's size);
* whole simulated games per second per preset, for double-9 with 4 players and double-18 with
  8 players, and each game's CPU time (this process only, so other load does not count):
  median and range over the games (presets that cannot seat that table are listed as such).

Run: ``.venv/bin/python benchmarks/engine_bench.py`` (``--games N`` to change the sample).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.engine import (  # noqa: E402
    PRESETS,
    DominoSet,
    Layout,
    check_move,
    legal_moves,
    preset,
    replay,
)
from companion.engine.simulate import Event, feasible, simulate_game, simulate_round  # noqa: E402


def percentiles(samples: list[float]) -> tuple[float, float]:
    """Median and 95th percentile of ``samples`` (same unit)."""
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


def large_layouts(seed: int = 1) -> dict[str, Layout]:
    """The largest layouts seen in a few simulated double-18 rounds with 8 players, one per
    phase: ``"open play"`` (centre complete, no chicken foot missing toes: every open end is a
    target) and ``"foot open"`` (a chicken foot is missing toes: one target)."""
    rules = replace(preset("standard"), set_size=18)
    best = {phase: Layout.start(DominoSet(18).double(18)) for phase in PHASES}

    def keep(event: Event) -> None:
        layout = event.layout
        if not layout.hub_complete:
            return
        phase = "open play" if layout.open_foot is None else "foot open"
        if len(layout) > len(best[phase]):
            best[phase] = layout

    rng = random.Random(seed)
    for _ in range(8):
        simulate_round(rules, 8, rng, on_event=keep)
    return best


PHASES = ("open play", "foot open")


def floor_index(layout: Layout) -> dict[int, list[str]]:
    """The plain-dict floor's data: number -> target ids open now, built once outside timing."""
    index: dict[int, list[str]] = {}
    for end in layout.playable_targets():
        index.setdefault(end.number, []).append(end.on)
    return index


def floor_legal_moves(index: dict[int, list[str]], hand: tuple) -> list:  # noqa: ANN001
    """The floor: legal moves of ``hand`` from a prebuilt dict, nothing else checked."""
    moves = []
    for tile in hand:
        for on in index.get(tile.high, ()):
            moves.append((tile, on))
        if tile.low != tile.high:
            for on in index.get(tile.low, ()):
                moves.append((tile, on))
    return moves


def time_calls(fn, args: list[tuple], repeat: int = 1) -> list[float]:  # noqa: ANN001
    """Seconds per call of ``fn(*a)`` for each ``a`` (each timed ``repeat`` times)."""
    out = []
    clock = time.perf_counter
    for a in args:
        for _ in range(repeat):
            start = clock()
            fn(*a)
            out.append(clock() - start)
    return out


def bench_moves(samples: int) -> None:
    for phase, layout in large_layouts().items():
        bench_phase(phase, layout, samples)


def bench_phase(phase: str, layout: Layout, samples: int) -> None:
    """check_move, legal_moves (with its plain-dict floor), replay and a 50-tile build."""
    rng = random.Random(2)
    free = [t for t in DominoSet(18) if t not in layout.used]
    ids = ["C", *(p.id for p in layout.placements)]
    pairs = [(layout, rng.choice(free), rng.choice(ids)) for _ in range(samples)]
    legal_pairs = [(layout, t, on) for t, on in legal_moves(layout, free)]
    check_move(*pairs[0])  # warm up
    print(
        f"\n[{phase}] double-18 layout: {len(layout)} tiles on the table, {len(free)} off it, "
        f"{len(layout.playable_targets())} targets open now"
    )
    med, p95 = percentiles(time_calls(check_move, pairs))
    print(f"check_move, random tile and target: median {med * 1e6:.1f} us, p95 {p95 * 1e6:.1f} us")
    if legal_pairs:
        med, p95 = percentiles(time_calls(check_move, legal_pairs * 20))
        print(
            f"check_move, legal moves only:       median {med * 1e6:.1f} us, p95 {p95 * 1e6:.1f} us"
        )
    hands = [tuple(rng.sample(free, 7)) for _ in range(samples // 4)]
    index = floor_index(layout)
    for hand in hands[:50]:  # the floor must agree with the engine, or the ratio means nothing
        assert sorted(floor_legal_moves(index, hand)) == sorted(legal_moves(layout, hand))
    engine = time_calls(legal_moves, [(layout, h) for h in hands], repeat=5)
    floor = time_calls(floor_legal_moves, [(index, h) for h in hands], repeat=5)
    (med, p95), (fmed, fp95) = percentiles(engine), percentiles(floor)
    print(
        f"legal_moves, 7-tile hand:           median {med * 1e6:.1f} us, p95 {p95 * 1e6:.1f} us"
        f"  = {med / fmed:.1f}x the plain-dict floor (median {fmed * 1e6:.2f} us, "
        f"p95 {fp95 * 1e6:.2f} us)"
    )
    spec = layout.to_json()
    med, p95 = percentiles(time_calls(replay, [(spec, DominoSet(18), 4)] * 50))
    print(f"replay of the whole layout:         median {med * 1e3:.2f} ms, p95 {p95 * 1e3:.2f} ms")
    print(f"  = {med / max(len(layout), 1) * 1e6:.1f} us per tile replayed")


def bench_games(games: int) -> None:
    print(f"\nwhole simulated games ({games} per line; all rounds, random players):")
    print(
        f"{'preset':<22} {'table':<22} {'games/s':>8} {'median ms':>10} {'p95 ms':>8} "
        f"{'CPU ms median (min-max)':>24}"
    )
    for n, players in ((9, 4), (18, 8)):
        for name in PRESETS:
            rules = replace(preset(name), set_size=n)
            table = f"double-{n}, {players} players"
            if not feasible(rules, players):
                print(f"{name:<22} {table:<22} (this table cannot play these rules)")
                continue
            times, cpu = [], []
            for seed in range(games):
                start, start_cpu = time.perf_counter(), time.process_time()
                simulate_game(rules, players, seed)
                cpu.append(time.process_time() - start_cpu)  # this process only: not the load
                times.append(time.perf_counter() - start)
            med, p95 = percentiles(times)
            rate = len(times) / sum(times)
            spread = (
                f"{statistics.median(cpu) * 1e3:.0f} ({min(cpu) * 1e3:.0f}-{max(cpu) * 1e3:.0f})"
            )
            print(
                f"{name:<22} {table:<22} {rate:>8.1f} {med * 1e3:>10.0f} {p95 * 1e3:>8.0f} "
                f"{spread:>24}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per preset and table")
    parser.add_argument("--samples", type=int, default=20000, help="move checks to time")
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPU(s), {platform.platform(terse=True)}"
    )
    bench_moves(args.samples)
    bench_games(args.games)


if __name__ == "__main__":
    main()
