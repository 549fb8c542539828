"""Pips-from-a-photo benchmark: prints figures, asserts nothing (never a timed test).

1. Accuracy on the labelled set (companion/pips/labelled.py), per part of the split fixed in
   tests/data/pips_split.json ("dev": tuned on; "held_out": never tuned on): photos whose
   answer is exact (the right tiles and total, nothing unread; "unreadable" for a photo
   with no face-up tile), tiles read right, phantom tiles (read where no such tile lies;
   phantom 0-0s apart: 50 points each under the default rules), unreadable answers, and how
   the confidence figures hold (of the tiles read at confidence >= c, the share right).
2. CPU per photo at 1, 3 and 12 megapixels (generated phone-like JPEGs), median of N runs,
   next to a reference measured in the same run: a plain full decode of the same JPEG with
   Pillow; the ratios say how the reading scales on any machine.

Run: ``.venv/bin/python benchmarks/pips_bench.py`` (``--runs N``, ``--part`` any part of the
split files (dev, held_out, held_out_fresh ... held_out_tenth), ``tuning`` (every part tuned
on so far) or ``both`` (dev and held_out); a later held-out part is only measured when
named, once, at the end of a round of tuning). ``--failures`` lists each photo not read exactly.
``--processes N`` reads a part's photos in N processes (the figures are the same; on a
shared machine the CPU per photo is then summed over processes, as it is in one).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import platform
import statistics
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402
from pips_split import LATER_PARTS, SPLIT  # noqa: E402

from companion.pips import PhotoError, PhotoProblem, TileRead, count_pips  # noqa: E402
from companion.pips.labelled import items, split  # noqa: E402
from companion.pips.reading import SURE  # noqa: E402
from companion.pips.synth import make_photo  # noqa: E402

PHOTOS = ROOT / "tests" / "data" / "photos"
#: megapixels -> (width, height), 4:3 like a phone camera
SIZES = {1: (1155, 866), 3: (2000, 1500), 12: (4000, 3000)}
#: Confidence levels at which the share of right tiles is shown.
LEVELS = (0.5, 0.8, 0.9, 0.95, SURE)


def all_parts() -> dict[str, list[str]]:
    """Every part of the labelled set by name, from the split files that have been written
    (:mod:`pips_split` names them), oldest first."""
    later = [part.path for part in LATER_PARTS.values()]
    return split(SPLIT) | {k: v for p in later if p.exists() for k, v in split(p).items()}


def tuning_parts() -> tuple[str, ...]:
    """The parts tuned on so far: all but the newest, which stays held out until the next one
    is written (a held-out part is measured once, then tuned on)."""
    return tuple(all_parts())[:-1]


def accuracy(
    names: list[str], failures: bool = False
) -> tuple[Counter[str], list[tuple[TileRead, bool]]]:
    """The figures of one part, and every tile read with whether it was right (a tile is right
    while the photo holds one more such tile than those already matched, surest first);
    ``failures``: print each item not read exactly (what was missed, what was invented)."""
    f: Counter[str] = Counter()
    tiles_seen: list[tuple[TileRead, bool]] = []
    for it in items(names, PHOTOS):
        f["photos"] += 1
        f["tiles"] += len(it.tiles)
        f["textures"] += not it.tiles
        start = time.process_time()
        try:
            reading = count_pips(it.data)
        except PhotoError as error:
            f["cpu"] += time.process_time() - start
            f["unreadable"] += error.problem is PhotoProblem.UNREADABLE
            f["exact"] += not it.tiles
            f["exact_textures"] += not it.tiles
            if failures and it.tiles:
                print(f"  FAIL {it.id}: unreadable, want {sorted(it.tiles)}")
            continue
        f["cpu"] += time.process_time() - start
        want = Counter(it.tiles)
        left = Counter(want)
        for tile in sorted(reading.read_tiles, key=lambda t: (-t.confidence, -t.regularity)):
            right = left[tile.text] > 0
            left[tile.text] -= right
            tiles_seen.append((tile, right))
        got = Counter(t.text for t in reading.read_tiles)
        phantom = got - want
        f["right"] += sum((got & want).values())
        f["phantom"] += sum(phantom.values())
        f["phantom_00"] += phantom["0-0"]
        f["phantom_on_textures"] += sum(phantom.values()) if not it.tiles else 0
        f["unread_tiles"] += len(reading.unread)
        f["exact"] += got == want and not reading.unread
        if failures and (got != want or reading.unread):
            print(
                f"  FAIL {it.id}: missed {sorted((want - got).elements())}, "
                f"invented {sorted(phantom.elements())}, unread {len(reading.unread)}"
            )
    return f, tiles_seen


def accuracy_in(
    names: list[str], failures: bool, processes: int
) -> tuple[Counter[str], list[tuple[TileRead, bool]]]:
    """:func:`accuracy` of ``names`` read in ``processes`` processes (interleaved chunks, so
    each process gets photos of every kind), its figures summed."""
    if processes <= 1:
        return accuracy(names, failures)
    chunks = [names[i :: processes * 4] for i in range(processes * 4)]
    with Pool(processes) as pool:
        outs = pool.starmap(accuracy, [(chunk, failures) for chunk in chunks])
    figures: Counter[str] = Counter()
    tiles: list[tuple[TileRead, bool]] = []
    for part_figures, part_tiles in outs:
        figures.update(part_figures)
        tiles.extend(part_tiles)
    return figures, tiles


def report(part: str, f: Counter[str], tiles: list[tuple[TileRead, bool]]) -> None:
    n = max(1, f["photos"])
    print(
        f"{part}: {f['exact']}/{f['photos']} exact ({100 * f['exact'] / n:.0f} %); "
        f"{f['right']}/{f['tiles']} tiles right ({100 * f['right'] / max(1, f['tiles']):.0f} %); "
        f"{f['phantom']} phantom tiles ({f['phantom_00']} of them 0-0; "
        f"{f['phantom_on_textures']} on the {f['textures']} photos with no face-up tile); "
        f"{f['unreadable']} unreadable answers ({f['exact_textures']} of them right); "
        f"{f['unread_tiles']} tiles marked unread; {1000 * f['cpu'] / n:.0f} ms CPU per photo"
    )
    seen = [(tile.confidence, right) for tile, right in tiles]
    for level in LEVELS:
        sure = [right for confidence, right in seen if confidence >= level]
        if sure:
            print(
                f"    tiles read at confidence >= {level:.2f}: {len(sure)}, "
                f"{100 * sum(sure) / len(sure):.1f} % right"
            )
    low = [right for confidence, right in seen if confidence < LEVELS[0]]
    if low:
        print(f"    below {LEVELS[0]:.2f}: {len(low)}, {100 * sum(low) / len(low):.1f} % right")


def decode(data: bytes) -> None:
    """The reference: a plain full decode of the photo."""
    Image.open(io.BytesIO(data)).convert("RGB")


def cpu(task, data: bytes, runs: int) -> float:  # noqa: ANN001 - any callable on bytes
    """Median CPU seconds of ``task(data)``."""
    samples = []
    for _ in range(runs):
        start = time.process_time()
        with contextlib.suppress(PhotoError):
            task(data)
        samples.append(time.process_time() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--part",
        choices=(*all_parts(), "tuning", "both", "none"),
        default="both",
    )
    parser.add_argument("--failures", action="store_true")
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    groups = {"tuning": tuning_parts(), "both": ("dev", "held_out")}
    for part, names in all_parts().items():
        if args.part == part or part in groups.get(args.part, ()):
            report(part, *accuracy_in(names, args.failures, args.processes))
    if args.runs < 1:
        return
    print(f"CPU per photo, median of {args.runs} runs; reference: Pillow's full decode")
    base = None
    for mp, (width, height) in SIZES.items():
        photo = make_photo(seed=mp, width=width, height=height)
        reading = cpu(count_pips, photo.data, args.runs)
        reference = cpu(decode, photo.data, args.runs)
        base = base or reading
        print(
            f"  {mp:>2} MP: reading {1000 * reading:.0f} ms, full decode {1000 * reference:.0f} "
            f"ms, reading / decode {reading / reference:.2f}, reading / 1 MP reading "
            f"{reading / base:.2f}"
        )


if __name__ == "__main__":
    main()
