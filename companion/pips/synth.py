"""Generated photos of tiles with known readings, for tests and the accuracy figures.

Tiles of a double-6, double-9 or double-12 set are drawn at random rotations, sizes and
positions (some touching side by side), ivory with black or coloured pips or coloured with
light pips, some face down (a logo and dots), on a plain, wooden, or checked background,
under a lighting gradient, with a glare spot, distractors (a coin, a pen, dice-like squares,
scribbles), blur, noise and JPEG compression. Deterministic for a given seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

#: Pip positions on a 3 x 3 grid (column, row) per number, as domino sets print them.
GRID3 = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)),
    8: ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)),
    9: tuple((c, r) for c in range(3) for r in range(3)),
}
#: 10-12 on a 3-column, 4-row grid (double-12 sets).
GRID4 = {
    10: ((0, 0), (0, 1), (0, 2), (0, 3), (2, 0), (2, 1), (2, 2), (2, 3), (1, 1), (1, 2)),
    11: ((0, 0), (0, 1), (0, 2), (0, 3), (2, 0), (2, 1), (2, 2), (2, 3), (1, 0), (1, 3), (1, 1)),
    12: tuple((c, r) for c in range(3) for r in range(4)),
}
#: Pip colours of a coloured double-12 set, by number (BGR).
PIP_COLOURS = [
    (20, 20, 20),
    (200, 150, 60),
    (40, 140, 40),
    (40, 40, 200),
    (150, 120, 30),
    (30, 120, 200),
    (160, 60, 140),
    (30, 170, 190),
    (40, 90, 40),
    (110, 110, 110),
    (120, 30, 30),
    (30, 30, 130),
    (90, 160, 110),
]


@dataclass(frozen=True)
class SynthPhoto:
    """A generated photo (JPEG bytes) and what is on it."""

    data: bytes
    tiles: tuple[str, ...]  # face-up tiles, "6-5"
    face_down: int

    @property
    def pips(self) -> int:
        return sum(int(a) + int(b) for a, b in (t.split("-") for t in self.tiles))


def make_photo(seed: int, width: int = 1200, height: int = 900) -> SynthPhoto:
    """One random photo; the same ``seed`` always gives the same picture."""
    rng = random.Random(seed)
    canvas = _background(rng, width, height)
    set_size = rng.choice((6, 6, 9, 12))
    tile_w = rng.uniform(55, 120) * width / 1200
    style = rng.choice(("ivory", "ivory", "colour_pips", "dark"))
    tiles: list[str] = []
    placed: list[tuple[float, float]] = []
    face_down = 0
    for _ in range(rng.randint(1, 7)):
        spot = _free_spot(rng, placed, tile_w, width, height)
        if spot is None:
            break
        angle = rng.uniform(0, math.pi)
        group = 2 if rng.random() < 0.25 else 1  # two touching side by side
        for k in range(group):
            cx = spot[0] + k * (tile_w + rng.uniform(0, 2)) * math.cos(angle)
            cy = spot[1] + k * (tile_w + rng.uniform(0, 2)) * math.sin(angle)
            if not (tile_w < cx < width - tile_w and tile_w < cy < height - tile_w):
                continue
            placed.append((cx, cy))
            if rng.random() < 0.15:
                _draw_back(canvas, rng, cx, cy, angle, tile_w, style)
                face_down += 1
                continue
            a, b = rng.randint(0, set_size), rng.randint(0, set_size)
            _draw_tile(canvas, rng, cx, cy, angle, tile_w, (a, b), style)
            tiles.append(f"{max(a, b)}-{min(a, b)}")
    _distractors(canvas, rng, placed, tile_w)
    canvas = _light(canvas, rng)
    ok, jpeg = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(70, 95)])
    assert ok
    return SynthPhoto(jpeg.tobytes(), tuple(tiles), face_down)


def _background(rng: random.Random, width: int, height: int) -> np.ndarray:
    base = np.array([rng.randint(30, 200) for _ in range(3)], dtype=np.float32)
    canvas = np.ones((height, width, 3), np.float32) * base
    kind = rng.choice(("plain", "wood", "check"))
    if kind == "wood":
        ys = np.arange(height, dtype=np.float32)[:, None]
        grain = rng.uniform(5, 12) * np.sin(
            ys / rng.uniform(3, 9) + 3 * np.sin(np.arange(width) / 80.0)
        )
        canvas += grain[:, :, None]
    elif kind == "check":
        step = rng.randint(25, 70)
        ys, xs = np.mgrid[0:height, 0:width]
        canvas[((xs // step) + (ys // step)) % 2 == 1] *= rng.uniform(0.6, 0.85)
    return np.clip(canvas, 0, 255).astype(np.uint8)


def _free_spot(
    rng: random.Random, placed: list[tuple[float, float]], w: float, width: int, height: int
) -> tuple[float, float] | None:
    for _ in range(60):
        x, y = rng.uniform(1.2 * w, width - 1.2 * w), rng.uniform(1.2 * w, height - 1.2 * w)
        if all(math.hypot(x - px, y - py) > 2.6 * w for px, py in placed):
            return x, y
    return None


def _colours(rng: random.Random, style: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(tile body, pips) in BGR."""
    if style == "dark":
        body = rng.choice(((25, 25, 25), (120, 40, 20), (30, 90, 30), (40, 30, 140)))
        return body, (235, 235, 235)
    body = (rng.randint(200, 225), rng.randint(225, 240), rng.randint(235, 250))
    return body, (20, 20, 20)


def _rect(cx: float, cy: float, angle: float, w: float, h: float) -> np.ndarray:
    """Corners of a w (across) x h (along the tile) rectangle turned by ``angle``."""
    ca, sa = math.cos(angle), math.sin(angle)
    pts = []
    for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        u, v = su * w / 2, sv * h / 2
        pts.append((cx + u * ca - v * sa, cy + u * sa + v * ca))
    return np.array(pts, np.int32)


def _draw_tile(
    canvas: np.ndarray,
    rng: random.Random,
    cx: float,
    cy: float,
    angle: float,
    w: float,
    halves: tuple[int, int],
    style: str,
) -> None:
    body, pip = _colours(rng, style)
    shadow = _rect(cx + 3, cy + 4, angle, w, 2 * w)
    cv2.fillConvexPoly(canvas, shadow, (30, 30, 30), cv2.LINE_AA)
    cv2.fillConvexPoly(canvas, _rect(cx, cy, angle, w, 2 * w), body, cv2.LINE_AA)
    ca, sa = math.cos(angle), math.sin(angle)

    def at(u: float, v: float) -> tuple[int, int]:
        return (int(round(cx + u * ca - v * sa)), int(round(cy + u * sa + v * ca)))

    thick = max(2, int(0.05 * w))
    cv2.line(canvas, at(-0.4 * w, 0), at(0.4 * w, 0), pip, thick, cv2.LINE_AA)
    if rng.random() < 0.4:
        cv2.circle(canvas, at(0, 0), max(2, int(0.06 * w)), (60, 170, 200), -1, cv2.LINE_AA)
    for side, number in zip((-1, 1), halves, strict=True):
        colour = PIP_COLOURS[number] if style == "colour_pips" else pip
        if number <= 9:
            spots, cols, rows, radius = GRID3[number], 3, 3, 0.085 * w
        else:
            spots, cols, rows, radius = GRID4[number], 3, 4, 0.065 * w
        for c, r in spots:
            u = (c - (cols - 1) / 2) * 0.28 * w
            v = side * (0.5 * w + (r - (rows - 1) / 2) * (0.78 * w / rows))
            cv2.circle(canvas, at(u, v), max(2, int(radius)), colour, -1, cv2.LINE_AA)


def _draw_back(
    canvas: np.ndarray,
    rng: random.Random,
    cx: float,
    cy: float,
    angle: float,
    w: float,
    style: str,
) -> None:
    """A face-down tile: the body, a logo (letters) and a row of dots, no divider."""
    body, ink = _colours(rng, style)
    cv2.fillConvexPoly(canvas, _rect(cx, cy, angle, w, 2 * w), body, cv2.LINE_AA)
    logo = np.zeros((int(w), int(2 * w)), np.uint8)
    cv2.putText(logo, "RO", (int(0.2 * w), int(0.75 * w)), cv2.FONT_HERSHEY_DUPLEX, w / 45, 255, 3)
    for k in range(5):
        cv2.circle(logo, (int(0.4 * w + k * 0.3 * w), int(0.9 * w)), max(1, int(0.03 * w)), 255, -1)
    # paste the logo turned with the tile (its long side along the tile's length)
    matrix = cv2.getRotationMatrix2D((w, w / 2), -math.degrees(angle) - 90, 1.0)
    matrix[0, 2] += cx - w
    matrix[1, 2] += cy - w / 2
    mask = cv2.warpAffine(logo, matrix, (canvas.shape[1], canvas.shape[0]))
    canvas[mask > 128] = ink


def _distractors(
    canvas: np.ndarray, rng: random.Random, placed: list[tuple[float, float]], w: float
) -> None:
    height, width = canvas.shape[:2]
    for _ in range(rng.randint(0, 3)):
        x, y = rng.randint(0, width - 1), rng.randint(0, height - 1)
        if any(math.hypot(x - px, y - py) < 1.8 * w for px, py in placed):
            continue
        kind = rng.choice(("coin", "pen", "square", "scribble"))
        colour = tuple(rng.randint(0, 255) for _ in range(3))
        if kind == "coin":
            cv2.circle(canvas, (x, y), int(0.45 * w), colour, -1, cv2.LINE_AA)
        elif kind == "pen":
            cv2.line(canvas, (x, y), (x + int(3 * w), y + int(w)), colour, int(0.18 * w) + 1)
        elif kind == "square":
            s = int(0.5 * w)
            cv2.rectangle(canvas, (x, y), (x + s, y + s), colour, -1)
        else:
            pts = np.array([(x + rng.randint(-40, 40), y + rng.randint(-40, 40)) for _ in range(5)])
            cv2.polylines(canvas, [pts.astype(np.int32)], False, colour, 2)


def _light(canvas: np.ndarray, rng: random.Random) -> np.ndarray:
    """Lighting gradient, a glare spot, blur and noise."""
    height, width = canvas.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    direction = rng.uniform(0, 2 * math.pi)
    ramp = (xs * math.cos(direction) + ys * math.sin(direction)) / max(width, height)
    gain = rng.uniform(0.65, 0.85) + rng.uniform(0.2, 0.45) * (ramp - ramp.min())
    warm = np.array([rng.uniform(0.8, 1.0), rng.uniform(0.9, 1.0), 1.0], np.float32)
    out = canvas.astype(np.float32) * gain[:, :, None] * warm
    if rng.random() < 0.5:
        gx, gy = rng.uniform(0, width), rng.uniform(0, height)
        glare = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * rng.uniform(6, 20) ** 2))
        out += 160 * glare[:, :, None]
    sigma = rng.uniform(0, 1.3)
    if sigma > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    out += np.random.default_rng(rng.randint(0, 2**31)).normal(0, rng.uniform(0, 7), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def scene(
    halves: list[tuple[int, int]],
    angle: float = 0.0,
    style: str = "ivory",
    backs: int = 0,
    seed: int = 0,
    gap: float = 1.6,
    tile_w: float = 80.0,
    size: tuple[int, int] = (1000, 750),
) -> SynthPhoto:
    """Given tiles (and ``backs`` face-down ones) in a row turned by ``angle`` radians, spaced
    ``gap`` tile widths apart centre to centre (1.0: touching side by side), on a plain table
    with gentle light; for tests that need a known picture."""
    rng = random.Random(seed)
    width, height = size
    canvas = np.full((height, width, 3), (70, 110, 60), np.uint8)
    count = len(halves) + backs
    step = gap * tile_w
    ca, sa = math.cos(angle), math.sin(angle)
    tiles = []
    for k in range(count):
        offset = (k - (count - 1) / 2) * step
        cx, cy = width / 2 + offset * ca, height / 2 + offset * sa
        if k < len(halves):
            a, b = halves[k]
            _draw_tile(canvas, rng, cx, cy, angle, tile_w, (a, b), style)
            tiles.append(f"{max(a, b)}-{min(a, b)}")
        else:
            _draw_back(canvas, rng, cx, cy, angle, tile_w, style)
    ok, jpeg = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return SynthPhoto(jpeg.tobytes(), tuple(tiles), backs)


#: Kinds of photo with no face-up tile: what must never give a tile (a phantom 0-0 is 50 points).
TEXTURES = ("wood", "knots", "leather", "check", "backs")


def make_texture(seed: int, width: int = 1200, height: int = 900) -> SynthPhoto:
    """A photo with no face-up tile: wood grain, wood with knots, grainy leather, a checked
    cloth, or face-down tiles only (a logo and dots), under the same light as
    :func:`make_photo`. Deterministic for a given seed."""
    rng = random.Random(seed)
    kind = TEXTURES[seed % len(TEXTURES)]
    canvas: np.ndarray = _background(rng, width, height).astype(np.float32)
    base = np.array([rng.randint(40, 190) for _ in range(3)], np.float32)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    noise = np.random.default_rng(seed)
    if kind in ("wood", "knots"):
        waves = np.sin(ys / rng.uniform(2.5, 8) + 4 * np.sin(xs / rng.uniform(60, 200)))
        canvas = base + rng.uniform(8, 30) * waves[:, :, None]
        for _ in range(rng.randint(2, 6) if kind == "knots" else 0):
            cx, cy = rng.uniform(0, width), rng.uniform(0, height)
            axes = (rng.uniform(8, 40), rng.uniform(5, 20))
            mask = np.zeros((height, width), np.uint8)
            cv2.ellipse(mask, (int(cx), int(cy)), (int(axes[0]), int(axes[1])), 0, 0, 360, 255, -1)
            knot = cv2.GaussianBlur(mask, (0, 0), 3).astype(np.float32) / 255
            canvas -= rng.uniform(40, 90) * knot[:, :, None]
    elif kind == "leather":
        grain = cv2.GaussianBlur(noise.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 2)
        canvas = base + rng.uniform(15, 40) * grain[:, :, None]
    elif kind == "backs":
        style = rng.choice(("ivory", "dark"))
        tile_w = rng.uniform(55, 120) * width / 1200
        placed: list[tuple[float, float]] = []
        plain = canvas.astype(np.uint8)
        for _ in range(rng.randint(1, 6)):
            spot = _free_spot(rng, placed, tile_w, width, height)
            if spot is None:
                break
            placed.append(spot)
            _draw_back(plain, rng, spot[0], spot[1], rng.uniform(0, math.pi), tile_w, style)
        canvas = plain.astype(np.float32)
    lit = _light(np.clip(canvas, 0, 255).astype(np.uint8), rng)
    ok, jpeg = cv2.imencode(".jpg", lit, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(70, 95)])
    assert ok
    return SynthPhoto(jpeg.tobytes(), (), 0)
