"""Pips-from-a-photo accuracy: prints figures for docs/PIPS.md, asserts nothing.

* real photos: tests/data/photos (labels.json), and ../shared/photos when it is there;
* generated photos: ``--scenes N`` random scenes from companion/pips/synth.py (seeds from
  ``--first-seed``, default 1000: development looked at seeds below 100 only;
  rotations, sizes, ivory/coloured/dark tiles, touching pairs, face-down tiles, wood or checked
  tables, lighting gradients, glare, distractors, blur, noise, JPEG).

The held-out figures of docs/PIPS.md come from benchmarks/pips_bench.py (the fixed split);
this script is the older quick look.

For each set: photos whose total is exact (and nothing unread; "unreadable" for none),
tiles read right out of the face-up tiles, tiles read wrong or invented (false finds),
tiles marked unread, CPU per photo.

Run: ``.venv/bin/python benchmarks/pips_accuracy.py --scenes 200``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.pips import PhotoError, count_pips  # noqa: E402
from companion.pips.synth import make_photo  # noqa: E402

PHOTO_DIRS = (ROOT / "tests" / "data" / "photos", ROOT.parent / "shared" / "photos")


def normal(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def score(cases: Iterable[tuple[bytes, list[str], int]]) -> dict[str, int]:
    """cases: (photo bytes, face-up tiles, pip total) -> the figures."""
    figures: Counter[str] = Counter()
    cpu = 0.0
    for data, tiles, pips in cases:
        start = time.process_time()
        try:
            reading = count_pips(data)
        except PhotoError:  # unreadable: right only for a photo with no face-up tile
            cpu += time.process_time() - start
            figures["photos"] += 1
            figures["tiles"] += len(tiles)
            figures["exact"] += not tiles
            figures["unreadable"] += 1
            continue
        cpu += time.process_time() - start
        got, want = Counter(t.text for t in reading.read_tiles), Counter(map(normal, tiles))
        figures["photos"] += 1
        figures["exact"] += reading.total == pips and not reading.unread and got == want
        figures["tiles"] += len(tiles)
        figures["right"] += sum((got & want).values())
        figures["wrong"] += sum((got - want).values())
        figures["unread"] += len(reading.unread)
    figures["cpu_ms"] = round(1000 * cpu / max(1, figures["photos"]))
    return dict(figures)


def real_cases() -> Iterator[tuple[bytes, list[str], int]]:
    seen = set()
    for folder in PHOTO_DIRS:
        labels = folder / "labels.json"
        if not labels.exists():
            continue
        for name, label in json.loads(labels.read_text())["photos"].items():
            data = (folder / name).read_bytes()
            if data not in seen:
                seen.add(data)
                yield data, label["tiles"], label["pips"]


def generated_cases(first: int, n: int) -> Iterator[tuple[bytes, list[str], int]]:
    for seed in range(first, first + n):
        photo = make_photo(seed)
        yield photo.data, list(photo.tiles), photo.pips


def report(title: str, f: dict[str, int]) -> None:
    print(
        f"{title}: {f['exact']}/{f['photos']} photos exact "
        f"({100 * f['exact'] / max(1, f['photos']):.0f}%), "
        f"{f['right']}/{f['tiles']} tiles read right "
        f"({100 * f['right'] / max(1, f['tiles']):.0f}%), "
        f"{f['wrong']} read wrong or invented, {f['unread']} marked unread, "
        f"{f['cpu_ms']} ms CPU per photo"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1000)
    args = parser.parse_args()
    report("real photos", score(real_cases()))
    title = f"generated ({args.scenes} scenes, seeds {args.first_seed}+)"
    report(title, score(generated_cases(args.first_seed, args.scenes)))


if __name__ == "__main__":
    main()
