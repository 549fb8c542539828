"""Write tests/data/pips_split.json: which labelled items are for development and which are held
out (never tuned on). Run once, before tuning; the seed and the rule are in the file.
``--fresh`` writes the second held-out part (tests/data/pips_split_fresh.json) the same way, and
``--third`` the third (tests/data/pips_split_third.json), ``--fourth`` the fourth
(tests/data/pips_split_fourth.json), ``--fifth``, ``--sixth``,
``--seventh``, ``--eighth``, ``--ninth``, ``--tenth``, ``--eleventh``, ``--twelfth``,
``--thirteenth``, ``--fourteenth``, ``--fifteenth``, ``--sixteenth``, ``--seventeenth``,
``--eighteenth``, ``--nineteenth``, ``--twentieth``, ``--twenty-first``, ``--twenty-second``,
``--twenty-third``, ``--twenty-fourth`` and ``--twenty-fifth`` the later ones.

The shared photos and their variations are all development items: the reader was built on
them. Generated scenes and textures come from seeds never used before this split, drawn
with a fixed seed and dealt to the two parts; a scene's long side is drawn too (640 px to
4000 px: 0.3 to 12 megapixels).
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.pips.labelled import VARIATIONS  # noqa: E402

SEED = 24
SPLIT = ROOT / "tests" / "data" / "pips_split.json"
PHOTOS = ROOT / "tests" / "data" / "photos"
SIDES = (640, 1200, 1600, 2400, 4000)


@dataclass(frozen=True)
class LaterPart:
    """A held-out part drawn after the earlier ones had been looked at: seeds from ranges
    nobody had used, written once, measured once at the end of a round of tuning."""

    name: str
    path: Path
    seed: int
    scenes: tuple[int, int, int]  # first seed, end seed (excluded), how many
    textures: tuple[int, int, int]
    about: str


#: The later held-out parts by command-line option (each becomes tuning data once the next
#: one is written).
LATER_PARTS = {
    "--fresh": LaterPart(
        "held_out_fresh",
        ROOT / "tests" / "data" / "pips_split_fresh.json",
        1204,
        (60_000, 70_000, 100),
        (70_000, 71_000, 20),
        "A second held-out part of the photo reader's labelled set, written once before "
        "tuning: the first one (pips_split.json's held_out) had been looked at once per change "
        "and became tuning data.",
    ),
    "--third": LaterPart(
        "held_out_third",
        ROOT / "tests" / "data" / "pips_split_third.json",
        1205,
        (80_000, 90_000, 100),
        (90_000, 91_000, 30),
        "A third held-out part of the photo reader's labelled set, written once before the "
        "texture-phantom round: the second one (pips_split_fresh.json) had been measured once "
        "and became tuning data.",
    ),
    "--fourth": LaterPart(
        "held_out_fourth",
        ROOT / "tests" / "data" / "pips_split_fourth.json",
        1206,
        (100_000, 110_000, 120),
        (110_000, 111_000, 30),
        "A fourth held-out part of the photo reader's labelled set, written once before the "
        "small-tile and lone-tile round: the third one (pips_split_third.json) had been "
        "measured once and became tuning data.",
    ),
    "--fifth": LaterPart(
        "held_out_fifth",
        ROOT / "tests" / "data" / "pips_split_fifth.json",
        1207,
        (120_000, 130_000, 120),
        (130_000, 131_000, 30),
        "A fifth held-out part of the photo reader's labelled set, written once right after "
        "the fourth one (pips_split_fourth.json) had been measured, before any tuning on it.",
    ),
    "--sixth": LaterPart(
        "held_out_sixth",
        ROOT / "tests" / "data" / "pips_split_sixth.json",
        1208,
        (140_000, 150_000, 150),
        (150_000, 151_000, 30),
        "A sixth held-out part of the photo reader's labelled set, written once before the "
        "confidence was fitted to how often tiles are right: the fifth one "
        "(pips_split_fifth.json) had been measured once and became fitting data.",
    ),
    "--seventh": LaterPart(
        "held_out_seventh",
        ROOT / "tests" / "data" / "pips_split_seventh.json",
        1209,
        (160_000, 170_000, 150),
        (170_000, 171_000, 30),
        "A seventh held-out part of the photo reader's labelled set, written once right "
        "after the sixth one (pips_split_sixth.json) had been measured (the reader and the "
        "fitted confidence), before any tuning on it.",
    ),
    "--eighth": LaterPart(
        "held_out_eighth",
        ROOT / "tests" / "data" / "pips_split_eighth.json",
        1210,
        (180_000, 190_000, 150),
        (190_000, 191_000, 30),
        "An eighth held-out part of the photo reader's labelled set, written once right "
        "after the seventh one (pips_split_seventh.json) had been measured (the reader, its "
        "answers at 0.5x-3x and the fitted confidence), before any tuning on it.",
    ),
    "--ninth": LaterPart(
        "held_out_ninth",
        ROOT / "tests" / "data" / "pips_split_ninth.json",
        1211,
        (210_000, 220_000, 150),
        (220_000, 221_000, 30),
        "A ninth held-out part of the photo reader's labelled set, written once right after "
        "the eighth one (pips_split_eighth.json) had measured the speck change (its answers, "
        "at 0.5x-3x, and the confidence), before any tuning on it.",
    ),
    "--tenth": LaterPart(
        "held_out_tenth",
        ROOT / "tests" / "data" / "pips_split_tenth.json",
        1212,
        (230_000, 240_000, 150),
        (240_000, 241_000, 30),
        "A tenth held-out part of the photo reader's labelled set, written once right after "
        "the ninth one (pips_split_ninth.json) had measured the stray-mark change (its "
        "answers, at 0.5x-3x, and the confidence), before any tuning on it.",
    ),
    "--eleventh": LaterPart(
        "held_out_eleventh",
        ROOT / "tests" / "data" / "pips_split_eleventh.json",
        1213,
        (250_000, 260_000, 150),
        (260_000, 261_000, 30),
        "An eleventh held-out part of the photo reader's labelled set, written once right "
        "after the tenth one (pips_split_tenth.json) had measured the blank-half speck change "
        "(its answers, at 0.5x-3x, and the confidence), before any tuning on it.",
    ),
    "--twelfth": LaterPart(
        "held_out_twelfth",
        ROOT / "tests" / "data" / "pips_split_twelfth.json",
        1214,
        (270_000, 280_000, 150),
        (280_000, 281_000, 30),
        "A twelfth held-out part of the photo reader's labelled set, written once right after "
        "the eleventh one (pips_split_eleventh.json) had measured the face-corner and "
        "mixed-size changes (its answers, at 0.5x-3x), before any tuning on it.",
    ),
    "--thirteenth": LaterPart(
        "held_out_thirteenth",
        ROOT / "tests" / "data" / "pips_split_thirteenth.json",
        1215,
        (290_000, 300_000, 150),
        (300_000, 301_000, 30),
        "A thirteenth held-out part of the photo reader's labelled set, written once right "
        "after the twelfth one (pips_split_twelfth.json) had measured the steady-face change "
        "(its answers, at 0.5x-3x), before any tuning on it.",
    ),
    "--fourteenth": LaterPart(
        "held_out_fourteenth",
        ROOT / "tests" / "data" / "pips_split_fourteenth.json",
        1216,
        (310_000, 320_000, 150),
        (320_000, 321_000, 30),
        "A fourteenth held-out part of the photo reader's labelled set, written once right "
        "after the thirteenth one (pips_split_thirteenth.json) had measured the steady-face "
        "rule narrowed to a would-be 0-0, before any tuning on it.",
    ),
    "--fifteenth": LaterPart(
        "held_out_fifteenth",
        ROOT / "tests" / "data" / "pips_split_fifteenth.json",
        1217,
        (330_000, 340_000, 150),
        (340_000, 341_000, 30),
        "A fifteenth held-out part of the photo reader's labelled set, written once right "
        "after the fourteenth one (pips_split_fourteenth.json) had measured the corner-pip, "
        "cloth-size and seam changes (its answers, at 0.5x-3x), before any tuning on it.",
    ),
    "--sixteenth": LaterPart(
        "held_out_sixteenth",
        ROOT / "tests" / "data" / "pips_split_sixteenth.json",
        1218,
        (350_000, 360_000, 150),
        (360_000, 361_000, 30),
        "A sixteenth held-out part of the photo reader's labelled set, written once right "
        "after the fifteenth one (pips_split_fifteenth.json) had measured the fewest-rivals "
        "and off-face changes (its answers, at 0.5x-3x), before any tuning on it.",
    ),
    "--seventeenth": LaterPart(
        "held_out_seventeenth",
        ROOT / "tests" / "data" / "pips_split_seventeenth.json",
        1219,
        (370_000, 380_000, 150),
        (380_000, 381_000, 30),
        "A seventeenth held-out part of the photo reader's labelled set, written once right "
        "after the sixteenth one (pips_split_sixteenth.json) had measured the covered-face "
        "rule (its answers, at 0.5x-3x), before any tuning on it.",
    ),
    "--eighteenth": LaterPart(
        "held_out_eighteenth",
        ROOT / "tests" / "data" / "pips_split_eighteenth.json",
        1220,
        (390_000, 400_000, 150),
        (400_000, 401_000, 30),
        "An eighteenth held-out part of the photo reader's labelled set, written once right "
        "after the seventeenth one (pips_split_seventeenth.json) had measured the run-together "
        "pips rule (its answers, at 0.5x-3x), before any tuning on it.",
    ),
    "--nineteenth": LaterPart(
        "held_out_nineteenth",
        ROOT / "tests" / "data" / "pips_split_nineteenth.json",
        1221,
        (410_000, 420_000, 150),
        (420_000, 421_000, 30),
        "A nineteenth held-out part of the photo reader's labelled set, written once right "
        "after the eighteenth one (pips_split_eighteenth.json) had measured the own-shadow "
        "rule (its answers, at 0.5x-3x), before any tuning on it.",
    ),
    "--twentieth": LaterPart(
        "held_out_twentieth",
        ROOT / "tests" / "data" / "pips_split_twentieth.json",
        1222,
        (430_000, 440_000, 150),
        (440_000, 441_000, 30),
        "A twentieth held-out part of the photo reader's labelled set, written once right "
        "after the nineteenth one (pips_split_nineteenth.json) had measured the covered-half "
        "rule (its answers, at 0.5x-3x), before any tuning on it.",
    ),
    "--twenty-first": LaterPart(
        "held_out_twenty_first",
        ROOT / "tests" / "data" / "pips_split_twenty_first.json",
        1223,
        (450_000, 460_000, 150),
        (460_000, 461_000, 30),
        "A twenty-first held-out part of the photo reader's labelled set, written once right "
        "after the twentieth one (pips_split_twentieth.json) had been read once with the "
        "reader unchanged (its answers, at 0.5x-3x, compared by place), before any tuning on it.",
    ),
    "--twenty-second": LaterPart(
        "held_out_twenty_second",
        ROOT / "tests" / "data" / "pips_split_twenty_second.json",
        1224,
        (470_000, 480_000, 150),
        (480_000, 481_000, 30),
        "A twenty-second held-out part of the photo reader's labelled set, written once right "
        "after the twenty-first one (pips_split_twenty_first.json) had measured the late "
        "morning round's reader (its answers, at 0.5x-3x, compared by place), before any "
        "tuning on it.",
    ),
    "--twenty-third": LaterPart(
        "held_out_twenty_third",
        ROOT / "tests" / "data" / "pips_split_twenty_third.json",
        1225,
        (490_000, 500_000, 150),
        (500_000, 501_000, 30),
        "A twenty-third held-out part of the photo reader's labelled set, written once right "
        "after the twenty-second one (pips_split_twenty_second.json) had measured the "
        "afternoon round's reader (its answers, at 0.5x-3x, compared by place), before any "
        "tuning on it.",
    ),
    "--twenty-fourth": LaterPart(
        "held_out_twenty_fourth",
        ROOT / "tests" / "data" / "pips_split_twenty_fourth.json",
        1226,
        (500_000, 510_000, 150),
        (510_000, 511_000, 30),
        "A twenty-fourth held-out part of the photo reader's labelled set, written once right "
        "after the twenty-third one (pips_split_twenty_third.json) had measured the evening "
        "round's reader (its answers, at 0.5x-3x, compared by place), before any tuning on it.",
    ),
    "--twenty-fifth": LaterPart(
        "held_out_twenty_fifth",
        ROOT / "tests" / "data" / "pips_split_twenty_fifth.json",
        1227,
        (511_000, 521_000, 150),
        (521_000, 522_000, 30),
        "A twenty-fifth held-out part of the photo reader's labelled set, written once right "
        "after the twenty-fourth one (pips_split_twenty_fourth.json) had measured the late "
        "evening round's reader (its answers, at 0.5x-3x, compared by place), before any "
        "tuning on it.",
    ),
}


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


def spaced(number: int) -> str:
    """``number`` with a space between thousands (80 000), as the split files write seeds."""
    return f"{number:,}".replace(",", " ")


def later(part: LaterPart) -> None:
    """Write ``part``'s file once: scenes and textures nobody has seen, all held out."""
    if part.path.exists():
        raise SystemExit(f"{part.path.name} exists: it is written once")
    rng = random.Random(part.seed)
    low, high, count = part.scenes
    scenes = [f"scene:{s}:{rng.choice(SIDES)}" for s in rng.sample(range(low, high), count)]
    t_low, t_high, t_count = part.textures
    textures = [f"texture:{s}" for s in rng.sample(range(t_low, t_high), t_count)]
    parts = {part.name: scenes + textures}
    part.path.write_text(
        json.dumps(
            {
                "about": part.about,
                "seed": part.seed,
                "rule": f"{count} scenes (seeds {spaced(low)}-{spaced(high)}) and {t_count} "
                f"textures (seeds {spaced(t_low)}-{spaced(t_high)}), never used before, drawn "
                f"with random.Random({part.seed}); all held out",
                "parts": parts,
            },
            indent=1,
        )
        + "\n"
    )
    print({k: len(v) for k, v in parts.items()})


if __name__ == "__main__":
    option = sys.argv[1] if len(sys.argv) > 1 else ""
    later(LATER_PARTS[option]) if option in LATER_PARTS else main()
