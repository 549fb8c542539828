"""Does the pip reader give the same answer at 0.5x, 2x and 3x as at the photo's own size?
Prints figures, asserts nothing (issue 24's goal: "the same answer at 0.5x-3x scale").

For every generated scene of a part of the labelled set (companion/pips/labelled.py; the
textures have no size to keep), the scene is read at its own size and resized by
:func:`companion.pips.labelled.vary` (Lanczos, JPEG quality 92) to each factor. A photo whose
resized copy would exceed :data:`LARGEST_MP` megapixels is skipped at that factor and counted
(a 4,000 px scene at 3x is 12,000 px wide: no phone takes it, and making it costs gigabytes).
An answer is the sorted list of tiles read, or "unreadable". A changed answer is counted as
asked about when the photo page asks the player about every tile that differs: the tiles of
the two readings are laid over each other by place, and each tile read sure on one is the
same on the other or waits for a tap there (read unsure, or found and not read: "?").
Otherwise it is silent: a sure tile is missing at the other size (dropped, or made up), or
read another way there, sure. (Before 2026-12-07 the tiles were compared as lists, without
places, and a tile found but not read counted as missing: a sure 9-4 at 1x shown as "?" at
0.5x was counted silent, though the page asks about it.)

Run: ``.venv/bin/python benchmarks/pips_scales.py --part held_out_third`` (any part of
tests/data/pips_split*.json; ``--failures`` lists each scene whose answer changed;
``--processes N`` reads the scenes in N processes, with the same figures).
"""

from __future__ import annotations

import argparse
import io
import sys
from collections import Counter
from dataclasses import dataclass
from math import dist
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from PIL import Image  # noqa: E402
from pips_bench import all_parts  # noqa: E402

from companion.pips import PhotoError, count_pips  # noqa: E402
from companion.pips.labelled import items, vary  # noqa: E402

PHOTOS = ROOT / "tests" / "data" / "photos"
FACTORS = ("x0.5", "x2", "x3")
#: Resized copies larger than this (megapixels) are not made.
LARGEST_MP = 24.0


@dataclass(frozen=True)
class Seen:
    """One tile on a reading as the photo page shows it: ``text`` "6-5", or "?" for a tile
    found but not read (the page marks it in red and the player picks it); ``sure``: shown
    without waiting for a tap; ``x``, ``y``: its centre and ``reach`` half its length, in
    pixels of the photo at its own size (so that readings at two sizes can be laid over
    each other)."""

    text: str
    sure: bool
    x: float
    y: float
    reach: float


def look(data: bytes, factor: float = 1.0) -> tuple[Seen, ...] | None:
    """Every tile the reader found on ``data`` (``factor`` times the photo's own size), in
    the photo's own pixels, or None for "unreadable"."""
    try:
        reading = count_pips(data)
    except PhotoError:
        return None
    scale = reading.scale / factor
    return tuple(
        Seen(
            tile.text,
            tile.sure,
            tile.centre[0] * scale,
            tile.centre[1] * scale,
            max(dist(tile.corners[0], tile.corners[3]), dist(tile.corners[0], tile.corners[1]))
            * scale
            / 2,
        )
        for tile in reading.tiles
    )


def answer(seen: tuple[Seen, ...] | None) -> tuple[str, ...]:
    """The tiles read, sorted (a tile found but not read is left out: it adds nothing until
    the player picks it), or ("unreadable",)."""
    if seen is None:
        return ("unreadable",)
    return tuple(sorted(t.text for t in seen if t.text != "?"))


def partner(tile: Seen, others: tuple[Seen, ...]) -> Seen | None:
    """The tile of ``others`` at ``tile``'s place (centres nearer than half a tile), if any."""
    near = [o for o in others if dist((o.x, o.y), (tile.x, tile.y)) < min(o.reach, tile.reach)]
    return min(near, key=lambda o: dist((o.x, o.y), (tile.x, tile.y)), default=None)


def told(own: tuple[Seen, ...] | None, got: tuple[Seen, ...] | None) -> bool:
    """Whether the player is asked about every tile that differs between two readings of
    one photo: a tile read sure on one is, on the other, at the same place and the same, or
    waiting for a tap (read unsure, or "?"). A sure tile with nothing at its place on the
    other reading (dropped, or made up) is a silent change; so is a sure tile read another
    way, sure, at the same place. An "unreadable" answer asks about everything."""
    if own is None or got is None:
        return True
    for one, other in ((own, got), (got, own)):
        for tile in one:
            if not tile.sure:
                continue
            match = partner(tile, other)
            if match is None or (match.sure and match.text != tile.text):
                return False
    return True


def megapixels(data: bytes, factor: float) -> float:
    """Megapixels of ``data`` resized by ``factor`` (read from its header only)."""
    width, height = Image.open(io.BytesIO(data)).size
    return width * height * factor * factor / 1e6


def part_names(part: str) -> list[str]:
    """The item names of ``part`` (the parts are read as the accuracy benchmark reads them)."""
    parts = all_parts()
    if part not in parts:
        raise SystemExit(f"no part {part!r}; there are {sorted(parts)}")
    return list(parts[part])


def compare(scenes: list[str], failures: bool) -> tuple[Counter[str], list[str]]:
    """The figures of ``scenes`` read at their own size and at each factor, and (with
    ``failures``) a line for each changed answer."""
    f: Counter[str] = Counter()
    lines: list[str] = []
    for it in items(scenes, PHOTOS):
        f["scenes"] += 1
        own_look = look(it.data)
        own = answer(own_look)
        right = own == tuple(sorted(it.tiles))
        f["right_at_1x"] += right
        same_everywhere = True
        silent_anywhere = False
        right_everywhere = right
        for how in FACTORS:
            if megapixels(it.data, float(how[1:])) > LARGEST_MP:
                f[f"skipped {how}"] += 1
                continue
            got_look = look(vary(it.data, how), float(how[1:]))
            got = answer(got_look)
            f[f"compared {how}"] += 1
            f[f"same {how}"] += got == own
            silent = got != own and not told(own_look, got_look)
            silent_anywhere |= silent
            same_everywhere &= got == own
            right_everywhere &= got == tuple(sorted(it.tiles))
            if failures and got != own:
                how_told = "silently" if silent else "asked"
                lines.append(f"  CHANGED {how_told} {it.id} {how}: {list(own)} -> {list(got)}")
        f["same_everywhere"] += same_everywhere
        f["no_silent_change"] += not silent_anywhere
        f["right_everywhere"] += right_everywhere
    return f, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="dev")
    parser.add_argument("--failures", action="store_true")
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()
    scenes = [name for name in part_names(args.part) if name.startswith("scene:")]
    chunks = [scenes[i :: args.processes * 3] for i in range(max(1, args.processes) * 3)]
    with Pool(max(1, args.processes)) as pool:
        outs = pool.starmap(compare, [(chunk, args.failures) for chunk in chunks])
    f: Counter[str] = Counter()
    for figures, lines in outs:
        f.update(figures)
        for line in lines:
            print(line)
    n = max(1, f["scenes"])
    print(
        f"{args.part}: {f['scenes']} scenes; the same answer at every factor tried: "
        f"{f['same_everywhere']} ({100 * f['same_everywhere'] / n:.0f} %); right at every "
        f"factor: {f['right_everywhere']} ({100 * f['right_everywhere'] / n:.0f} %); right at "
        f"their own size: {f['right_at_1x']}; no change without a tap asked for: "
        f"{f['no_silent_change']} ({100 * f['no_silent_change'] / n:.0f} %)"
    )
    for how in FACTORS:
        compared = f[f"compared {how}"]
        print(
            f"    {how}: {f[f'same {how}']} of {compared} the same as at 1x"
            f" ({f[f'skipped {how}']} skipped: over {LARGEST_MP:g} MP)"
        )


if __name__ == "__main__":
    main()
