"""Draw the app's icons (static/icons/icon-144.png, icon-192.png, icon-512.png,
icon-maskable-512.png).

A domino double standing on end with three tiles splayed from it: a chicken foot. Drawn at
1024 px and scaled down (smooth edges). The maskable icon keeps the drawing inside the central
80% safe zone on a full-bleed background, as launchers crop it to a circle or a squircle.

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "static" / "icons"
#: the app's accent colour (static/css/app.css --accent) and tile colours
ACCENT = (11, 92, 173)
IVORY = (251, 250, 247)
INK = (22, 22, 26)
CANVAS = 1024


def _tile(size: int, pips: tuple[int, int]) -> Image.Image:
    """One upright domino tile (width = size/2, height = size) with its two ends' pips."""
    w, h = size // 2, size
    tile = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=w // 6, fill=IVORY, outline=INK, width=w // 20
    )
    draw.line((w // 8, h // 2, w - w // 8, h // 2), fill=INK, width=w // 24)
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.28, 0.28), (0.72, 0.72)],
        3: [(0.28, 0.28), (0.5, 0.5), (0.72, 0.72)],
        6: [(0.3, 0.22), (0.3, 0.5), (0.3, 0.78), (0.7, 0.22), (0.7, 0.5), (0.7, 0.78)],
    }
    r = w // 11
    for half, count in enumerate(pips):
        for fx, fy in spots[count]:
            cx, cy = fx * w, half * h / 2 + fy * h / 2
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
    return tile


def draw(safe: float) -> Image.Image:
    """The chicken foot on the accent background; the drawing fills ``safe`` of the width."""
    img = Image.new("RGBA", (CANVAS, CANVAS), ACCENT + (255,))
    art = Image.new("RGBA", (CANVAS, CANVAS), (0, 0, 0, 0))
    size = int(CANVAS * 0.42)
    centre = _tile(size, (6, 6))
    # the three toes: splayed below the double like a bird's foot
    for angle, dx in ((35, -0.2), (0, 0.0), (-35, 0.2)):
        toe = _tile(int(size * 0.8), (6, 3 if angle else 2)).rotate(
            angle, expand=True, resample=Image.BICUBIC
        )
        x = int(CANVAS / 2 + dx * CANVAS - toe.width / 2)
        y = int(CANVAS * 0.5)
        art.alpha_composite(toe, (x, y))
    art.alpha_composite(centre, ((CANVAS - centre.width) // 2, int(CANVAS * 0.08)))
    box = art.getbbox() or (0, 0, CANVAS, CANVAS)
    art = art.crop(box)
    scale = safe * CANVAS / max(art.width, art.height)
    art = art.resize((int(art.width * scale), int(art.height * scale)), Image.LANCZOS)
    img.alpha_composite(art, ((CANVAS - art.width) // 2, (CANVAS - art.height) // 2))
    return img


#: colours of an icon's palette: the drawing is a few flat colours and their anti-aliased
#: edges; 64 keep them and make a PNG 3-10 KB instead of 21-71 KB (a browser fetches the
#: manifest's icon on a page's first load: it counted in every page's bytes, issue 26)
PALETTE = 64
#: the 144 px icon's palette: the one Chrome fetches on every first visit (the smallest
#: installable size, its launcher's on most phones); 16 colours look the same at that size and
#: make it 1.9 KB instead of 2.4 (the 192 px icon with 64: 3.2 KB)
SMALL_PALETTE = 16


def save(img: Image.Image, size: int, name: str, palette: int = PALETTE) -> None:
    """``img`` at ``size`` px as an indexed-colour PNG of ``palette`` colours in OUT."""
    small = img.resize((size, size), Image.LANCZOS)
    indexed = small.quantize(palette, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    indexed.save(OUT / name, optimize=True)


def main() -> None:
    """Write the four PNGs."""
    OUT.mkdir(parents=True, exist_ok=True)
    plain = draw(0.86)
    save(plain, 144, "icon-144.png", SMALL_PALETTE)
    save(plain, 192, "icon-192.png")
    save(plain, 512, "icon-512.png")
    save(draw(0.62), 512, "icon-maskable-512.png")
    print(f"icons written to {OUT}")


if __name__ == "__main__":
    main()
