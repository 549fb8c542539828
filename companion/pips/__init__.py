"""Counting the pips of a hand from a photo: pure functions, image bytes -> :class:`Reading`.

No web imports and no database: the page, the API and the command line all call
:func:`count_pips` and show its :class:`Reading` (``Reading.as_json()`` is their shared shape).
Classical computer vision only (OpenCV's headless build): no model, no network, no GPU.
"""

from __future__ import annotations

import cv2
import numpy as np

from .decode import MAX_BYTES, MAX_PIXELS, MIN_SIDE, PhotoError, PhotoProblem, load_photo
from .detect import MAX_HALF, divider_length, find_tiles
from .reading import Pip, Reading, TileRead, Unread

#: The divider length, in pixels, every photo is scaled to before its tiles are read.
DIVIDER_PIXELS = 72.0
#: The least and most that scaling may shrink or enlarge the working image.
TILE_SCALING = (0.35, 2.0)
#: A working image fewer than twice this many divider lengths across gets a margin.
FRAME_TILES = 3.0


def count_pips(data: bytes, max_pips: int = MAX_HALF) -> Reading:
    """Read the face-up tiles in the photo ``data`` (JPEG, PNG, WebP...).

    ``max_pips``: the set's highest half (12 for double-12); a half showing more is unread.
    Raises :class:`PhotoError` for an upload that is not a usable photo, and with
    ``PhotoProblem.UNREADABLE`` when no tile on it could be read.
    """
    return read_photo(data, max_pips)[0]


def reading_order(tiles: list[TileRead]) -> list[TileRead]:
    """Tiles in rows from the top, left to right in each row (a row is one tile length
    high), so that "tile 1, tile 2..." on the page follow the photo."""
    if not tiles:
        return tiles
    lengths = sorted(
        max(abs(t.corners[0][0] - t.corners[3][0]), abs(t.corners[0][1] - t.corners[3][1]))
        for t in tiles
    )
    row = max(1.0, lengths[len(lengths) // 2])
    return sorted(tiles, key=lambda t: (int(t.centre[1] // row), t.centre[0]))


def tile_sized(rgb: np.ndarray) -> tuple[np.ndarray, float | None]:
    """``rgb`` scaled so that its tiles' dividers are about :data:`DIVIDER_PIXELS` long (the
    size the reader's neighbourhoods are made for), within :data:`TILE_SCALING`; unchanged
    when no divider shows. Also the dividers' length in the image returned (pixels), or None
    when no divider shows."""
    length = divider_length(rgb)
    if length is None:
        return rgb, None
    low, high = TILE_SCALING
    factor = min(high, max(low, DIVIDER_PIXELS / length))
    if abs(factor - 1) < 0.1:
        return rgb, length
    method = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
    return cv2.resize(rgb, None, fx=factor, fy=factor, interpolation=method), length * factor


def framed(rgb: np.ndarray) -> tuple[np.ndarray, int]:
    """``rgb`` with a margin of its own border (replicated) when it is only a few tiles
    across, and the margin's width in pixels (0 when none): a photo cropped close to its
    tiles still has table around them, which the reader's neighbourhoods and its edge check
    need."""
    room = int(FRAME_TILES * DIVIDER_PIXELS)
    if min(rgb.shape[:2]) >= 2 * room:
        return rgb, 0
    margin = room // 2
    return cv2.copyMakeBorder(rgb, margin, margin, margin, margin, cv2.BORDER_REPLICATE), margin


def in_photo(tile: TileRead, rgb: np.ndarray, margin: int) -> bool:
    """Whether ``tile``'s centre lies in the photo itself, not in the margin :func:`framed`
    added: the replicated border is made-up stripes, where grain gave a phantom 0-0."""
    x, y = tile.centre
    height, width = rgb.shape[:2]
    return margin <= x < width - margin and margin <= y < height - margin


def read_photo(data: bytes, max_pips: int = MAX_HALF) -> tuple[Reading, np.ndarray]:
    """:func:`count_pips`, also giving the working image (H x W x 3 RGB) the positions refer to.

    A photo with no tile read is refused (``PhotoProblem.UNREADABLE``), never read as 0 pips.
    """
    photo = load_photo(data)
    sized, divider = tile_sized(photo.rgb)
    rgb, margin = framed(sized)
    height, width = rgb.shape[:2]
    found = find_tiles(rgb, max_pips, divider)
    tiles = reading_order([t for t in found if in_photo(t, rgb, margin)])
    reading = Reading(
        width=width,
        height=height,
        scale=round(photo.width / width, 4),
        tiles=tuple(tiles),
    )
    if not reading.read_tiles:
        raise PhotoError(PhotoProblem.UNREADABLE, found=len(reading.tiles))
    return reading, rgb


__all__ = [
    "MAX_BYTES",
    "MAX_HALF",
    "MAX_PIXELS",
    "MIN_SIDE",
    "Pip",
    "PhotoError",
    "PhotoProblem",
    "Reading",
    "TileRead",
    "Unread",
    "count_pips",
    "read_photo",
]
