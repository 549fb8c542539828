"""Does the pip reader give the same answer at 0.5x, 2x and 3x as at the photo's own size?
Prints figures, asserts nothing (issue 24's goal: "the same answer at 0.5x-3x scale").

For every generated scene of a part of the labelled set (companion/pips/labelled.py; the
textures have no size to keep), the scene is read at its own size and resized by
:func:`companion.pips.labelled.vary` (Lanczos, JPEG quality 92) to each factor. A photo whose
resized copy would exceed :data:`LARGEST_MP` megapixels is skipped at that factor and counted
(a 4,000 px scene at 3x is 12,000 px wide: no phone takes it, and making it costs gigabytes).
An answer is the sorted list of tiles read, or "unreadable". A changed answer is counted as
asked about when every tile that differs waits for a tap on the photo page (read, but not
sure) on the side that has it: the player is shown each change; otherwise it is silent (a tile
read sure at one size is missing or another tile at the other).

Run: ``.venv/bin/python benchmarks/pips_scales.py --part held_out_third`` (any part of
tests/data/pips_split*.json; ``--failures`` lists each scene whose answer changed;
``--processes N`` reads the scenes in N processes, with the same figures).
"""

from __future__ import annotations

import argparse
import io
import sys
from collections import Counter
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


def answer(data: bytes) -> tuple[str, ...]:
    """The tiles read, sorted, or ("unreadable",)."""
    return tuple(sorted(text for text, _ in look(data)))


def look(data: bytes) -> tuple[tuple[str, bool], ...]:
    """Each tile read and whether it is shown as sure (not waiting for a tap), sorted, or
    (("unreadable", False),)."""
    try:
        return tuple(sorted((t.text, t.sure) for t in count_pips(data).read_tiles))
    except PhotoError:
        return (("unreadable", False),)


def told(own: tuple[tuple[str, bool], ...], got: tuple[tuple[str, bool], ...]) -> bool:
    """Whether every tile one reading has and the other has not waits for a tap (or one
    reading is "unreadable"): the player is asked about each change, none is silent. A tile
    missing from one reading is silent when the other read it sure."""
    mine, theirs = Counter(t for t, _ in own), Counter(t for t, _ in got)
    if "unreadable" in mine or "unreadable" in theirs:
        return True
    for reading, extra in ((own, mine - theirs), (got, theirs - mine)):
        unsure = Counter(t for t, sure in reading if not sure)
        if any(unsure[tile] < n for tile, n in extra.items()):
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
        own = tuple(text for text, _ in own_look)
        right = own == tuple(sorted(it.tiles))
        f["right_at_1x"] += right
        same_everywhere = True
        silent_anywhere = False
        right_everywhere = right
        for how in FACTORS:
            if megapixels(it.data, float(how[1:])) > LARGEST_MP:
                f[f"skipped {how}"] += 1
                continue
            got_look = look(vary(it.data, how))
            got = tuple(text for text, _ in got_look)
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
