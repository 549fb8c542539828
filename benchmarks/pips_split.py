"""Write tests/data/pips_split.json: which labelled items are for development and which are held
out (never tuned on). Run once, before tuning; the seed and the rule are in the file.
``--fresh`` writes the second held-out part (tests/data/pips_split_fresh.json) the same way.

The shared photos and their variations are all development items: the reader was built on
them. Generated scenes and textures come from seeds never used before this split, drawn
with a fixed seed and dealt to the two parts; a scene's long side is drawn too (640 px to
4000 px: 0.3 to 12 megapixels).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.pips.labelled import VARIATIONS  # noqa: E402

SEED = 24
SPLIT = ROOT / "tests" / "data" / "pips_split.json"
PHOTOS = ROOT / "tests" / "data" / "photos"
SIDES = (640, 1200, 1600, 2400, 4000)
#: The second held-out part, drawn once after the first one had been looked at once per change:
#: seeds from ranges nobody had used (scenes 60 000-70 000, textures 70 000-71 000).
FRESH_SEED = 1204
FRESH = ROOT / "tests" / "data" / "pips_split_fresh.json"


def main() -> None:
    rng = random.Random(SEED)
    names = sorted(json.loads((PHOTOS / "labels.json").read_text())["photos"])
    real = [f"real:{n}:{v}" for n in names for v in VARIATIONS]
    scenes = [f"scene:{s}:{rng.choice(SIDES)}" for s in rng.sample(range(20_000, 30_000), 140)]
    textures = [f"texture:{s}" for s in rng.sample(range(30_000, 31_000), 40)]
    parts = {
        "dev": real + scenes[:50] + textures[:15],
        "held_out": scenes[50:] + textures[15:],
    }
    SPLIT.write_text(
        json.dumps(
            {
                "about": __doc__.strip().splitlines()[0],
                "seed": SEED,
                "rule": "real photos and variations: dev; 140 scenes and 40 textures from seeds "
                "never used before, drawn with random.Random(24): the first 50 scenes and 15 "
                "textures dev, the rest held out",
                "parts": parts,
            },
            indent=1,
        )
        + "\n"
    )
    print({k: len(v) for k, v in parts.items()})


def fresh() -> None:
    """Write tests/data/pips_split_fresh.json once: 100 scenes and 20 textures nobody has seen,
    the part ``held_out_fresh`` that is measured once, at the end of a round of tuning."""
    if FRESH.exists():
        raise SystemExit(f"{FRESH.name} exists: it is written once")
    rng = random.Random(FRESH_SEED)
    scenes = [f"scene:{s}:{rng.choice(SIDES)}" for s in rng.sample(range(60_000, 70_000), 100)]
    textures = [f"texture:{s}" for s in rng.sample(range(70_000, 71_000), 20)]
    parts = {"held_out_fresh": scenes + textures}
    FRESH.write_text(
        json.dumps(
            {
                "about": "A second held-out part of the photo reader's labelled set, written "
                "once before tuning: the first one (pips_split.json's held_out) had been looked "
                "at once per change and became tuning data.",
                "seed": FRESH_SEED,
                "rule": "100 scenes (seeds 60 000-70 000) and 20 textures (seeds "
                "70 000-71 000), never used before, drawn with random.Random(1204); all held out",
                "parts": parts,
            },
            indent=1,
        )
        + "\n"
    )
    print({k: len(v) for k, v in parts.items()})


if __name__ == "__main__":
    fresh() if sys.argv[1:] == ["--fresh"] else main()
