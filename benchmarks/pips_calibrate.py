"""Fit the photo reader's confidence to how often its tiles are right, and judge the fit.

The reader scores every tile it reads for regularity (0-1). This script reads the fitting parts
of the labelled set (every part but the newest, as :func:`pips_bench.tuning_parts`), counts how
many tiles of each kind (a 0-0, or a tile with pips) and each band of regularity were right, and
gives each band that share (pulled towards one half by a few tiles, then made to rise with
the score). ``--write`` stores the table in companion/pips/calibration.json, which the reader uses.

``--judge PART`` reads a part with the table in use and prints, for each band of confidence,
how many tiles it holds, the confidence they were given on average and the share that were
right, and the expected calibration error (the gap between the two, weighted by tiles). Judge
on a part the table was not fitted on.

Reading a part takes minutes; ``--tiles FILE`` keeps the tiles read (regularity, kind, right)
and reuses them when the file exists, so a fit can be redone without reading again.

Run: ``.venv/bin/python benchmarks/pips_calibrate.py [--write] [--judge held_out_sixth]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pips_bench import accuracy, all_parts, tuning_parts  # noqa: E402

from companion.pips import calibration  # noqa: E402
from companion.pips.calibration import TABLE, Band, Kind, kind_of  # noqa: E402

#: Lower ends of the regularity bands fitted for tiles with pips. A 0-0 always scores the same
#: (nothing to check but its divider), so it has one band.
EDGES = {Kind.PIPS: (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0), Kind.DOUBLE_BLANK: (0.0,)}
#: Each band starts as if it held this many tiles, half of them right: a band of 3 tiles, all
#: right, is not evidence of 100 %, and a kind seen rarely (the 0-0) stays below sure.
PRIOR_TILES = 4
#: Bands of confidence in which the fit is judged.
JUDGED = (0.0, 0.5, 0.8, 0.9, 0.95, 0.99)


@dataclass(frozen=True)
class Seen:
    """One tile read on the labelled set: its ``regularity``, ``kind``, the ``confidence`` the
    reader gave it, and whether it was ``right``."""

    regularity: float
    kind: Kind
    confidence: float
    right: bool


def read_part(names: list[str]) -> list[Seen]:
    """Every tile read on the photos ``names``."""
    _, tiles = accuracy(names)
    return [
        Seen(t.regularity, kind_of(t.halves), t.confidence, right)
        for t, right in tiles
        if t.halves is not None
    ]


def read_parts(parts: Iterable[str], workers: int = 2) -> list[Seen]:
    """Every tile read on ``parts``, the photos shared among ``workers`` processes."""
    names = [name for part in parts for name in all_parts()[part]]
    chunks = [names[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        return [seen for chunk in pool.map(read_part, chunks) for seen in chunk]


def kept_or_read(parts: tuple[str, ...], keep: Path | None) -> list[Seen]:
    """The tiles of ``parts``, from ``keep`` when it holds them, else read (and kept there)."""
    if keep and keep.exists():
        stored = json.loads(keep.read_text())
        if tuple(stored["parts"]) == parts:
            return [Seen(**{**s, "kind": Kind(s["kind"])}) for s in stored["tiles"]]
    seen = read_parts(parts)
    if keep:
        keep.write_text(json.dumps({"parts": parts, "tiles": [asdict(s) for s in seen]}))
    return seen


def fit(seen: list[Seen]) -> dict[Kind, list[Band]]:
    """The bands of each kind: each band's share right, smoothed towards one half by
    :data:`PRIOR_TILES`, then pooled with its neighbour wherever a higher score would be
    given less (pool adjacent violators), so that confidence never falls as regularity rises."""
    table: dict[Kind, list[Band]] = {}
    for kind, edges in EDGES.items():
        mine = [s for s in seen if s.kind is kind]
        counts = []
        for low, high in zip(edges, (*edges[1:], float("inf")), strict=True):
            band = [s.right for s in mine if low <= s.regularity < high]
            counts.append([low, sum(band), len(band)])
        pooled: list[list[float]] = []
        for low, right, tiles in counts:
            pooled.append([low, right, tiles])
            while len(pooled) > 1 and _share(pooled[-1]) < _share(pooled[-2]):
                last = pooled.pop()
                pooled[-1][1] += last[1]
                pooled[-1][2] += last[2]
        table[kind] = [
            Band(low, round(_share((low, right, tiles)), 3), int(right), int(tiles))
            for low, right, tiles in pooled
        ]
    return table


def _share(band: Iterable[float]) -> float:
    _, right, tiles = band
    return (right + PRIOR_TILES / 2) / (tiles + PRIOR_TILES)


def write(table: dict[Kind, list[Band]], parts: tuple[str, ...]) -> None:
    """Store ``table`` where the reader loads it."""
    document = {
        "about": (
            "The photo reader's confidence: for each kind of tile and band of regularity, "
            "the share of tiles read right on the fitting parts. Written by "
            "benchmarks/pips_calibrate.py --write; do not edit by hand."
        ),
        "fitted_on": list(parts),
        "written": datetime.now(UTC).strftime("%Y-%m-%d"),
        "bands": {kind.value: [asdict(b) for b in bands] for kind, bands in table.items()},
    }
    TABLE.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def judge(seen: list[Seen]) -> None:
    """Print how the confidence given held on ``seen``: per band, tiles, mean confidence,
    share right; then the expected calibration error."""
    gap = 0.0
    for low, high in zip(JUDGED, (*JUDGED[1:], 1.01), strict=True):
        band = [s for s in seen if low <= s.confidence < high]
        if not band:
            continue
        said = sum(s.confidence for s in band) / len(band)
        right = sum(s.right for s in band) / len(band)
        gap += len(band) * abs(said - right)
        print(
            f"    confidence {low:.2f}-{min(high, 1.0):.2f}: {len(band)} tiles, "
            f"said {100 * said:.1f} %, right {100 * right:.1f} % "
            f"({sum(s.right for s in band)} of {len(band)})"
        )
    print(f"    expected calibration error: {100 * gap / max(1, len(seen)):.2f} points")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store the fitted table")
    parser.add_argument("--judge", choices=tuple(all_parts()), help="a part to judge on")
    parser.add_argument("--tiles", type=Path, help="keep the fitting parts' tiles here")
    args = parser.parse_args()
    parts = tuning_parts()
    seen = kept_or_read(parts, args.tiles)
    table = fit(seen)
    print(f"fitted on {', '.join(parts)}: {len(seen)} tiles read")
    for kind, bands in table.items():
        for band in bands:
            print(
                f"  {kind.value:>12} regularity >= {band.low:.2f}: {band.right} of "
                f"{band.tiles} right -> confidence {band.share:.3f}"
            )
    if args.write:
        write(table, parts)
        calibration.BANDS = calibration.load()  # the judging processes start from this one
        print(f"written to {TABLE.relative_to(ROOT)}")
    if args.judge:
        print(f"judged on {args.judge}:")
        judge(read_parts((args.judge,)))


if __name__ == "__main__":
    main()
