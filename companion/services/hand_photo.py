"""The photo flow of a hand, shared by every hand form (the scorekeeper's round form today, a
player's "My hand" page next): read an uploaded photo, describe the refusal in the player's
words, prepare the marked photo for ``templates/pips/_photo_reading.html``, and turn the
player's confirmed picks into the hand's tiles.

Nothing is saved here, and nothing here reads the request: the upload, the page's form and the
drafts kept in the session are :mod:`companion.web.hand_photo`'s. The caller puts the confirmed
tiles into its own form (for the round form, a draft in the session:
:func:`draft_with_tiles`).
"""

from __future__ import annotations

import base64
import functools
import io
import json
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from flask_babel import gettext as _
from flask_babel import ngettext
from PIL import Image

from .. import pips
from ..engine import hand_points, parse_tile, tile_points
from ..mapping import rules_of, scored_rounds
from ..models import Game
from ..pips import MAX_BYTES, PhotoError, PhotoProblem, Reading
from ..pips.decode import MAX_PIXELS, MIN_SIDE
from . import photo_gate
from .round_check import centre_double_in_hand
from .round_plan import double_name

#: The form field carrying the photo (page and API).
PHOTO_FIELD = "photo"
#: A picker value meaning "this outline is not a tile" (a false find).
NOT_A_TILE = "none"


def problem_message(error: PhotoError) -> str:
    """Why a photo was refused, in the player's words."""
    d = error.details
    messages = {
        PhotoProblem.NO_PHOTO: _("No photo was sent: choose or take a photo of the tiles."),
        PhotoProblem.EMPTY: _(
            "This file is empty (0 bytes): there is no picture in it. Choose the photo again "
            "or take a new one."
        ),
        PhotoProblem.TOO_MANY_BYTES: _(
            "This photo is too large (%(mb)d MB; at most %(limit)d MB).",
            mb=int(d.get("size", 0)) // 2**20 + 1,
            limit=MAX_BYTES // 2**20,
        ),
        PhotoProblem.NOT_AN_IMAGE: _(
            "This file is not a photo the app can read; send a JPEG, PNG or WebP picture."
        ),
        PhotoProblem.TOO_MANY_PIXELS: _(
            "This picture is too big (%(w)d × %(h)d pixels; at most %(mp)d megapixels).",
            w=int(d["width"]),
            h=int(d["height"]),
            mp=int(d.get("limit", MAX_PIXELS)) // 1_000_000,
        )
        if "width" in d
        else _("This picture is too big (at most %(mp)d megapixels).", mp=MAX_PIXELS // 1_000_000),
        PhotoProblem.TOO_SMALL: _(
            "This picture is too small to show pips (%(w)d × %(h)d pixels; at least %(min)d).",
            w=int(d.get("width", 0)),
            h=int(d.get("height", 0)),
            min=MIN_SIDE,
        ),
        PhotoProblem.BROKEN_IMAGE: _("This photo is damaged and cannot be read; take it again."),
        PhotoProblem.UNREADABLE: _(
            "No tile could be read in this photo (it may be blurred, too dark, or show no "
            "face-up tiles). Nothing was counted: type your points or tap your tiles instead, "
            "or take a sharper photo from above."
        ),
    }
    if error.problem in (PhotoProblem.TOO_MANY_BYTES, PhotoProblem.TOO_MANY_PIXELS):
        return " ".join((messages[error.problem], smaller_or_type()))
    return messages[error.problem]


def smaller_or_type() -> str:
    """What to do about a photo too big to read, in the player's words."""
    return _("Take it again at a lower camera resolution, or type your points instead.")


def busy_message(busy: photo_gate.PhotoBusy) -> str:
    """Why a photo was not read now, in the player's words."""
    if busy.rate:
        return _(
            "Too many photos from this phone in the last minute. Wait %(s)d seconds and try "
            "again, or type your points.",
            s=busy.retry_after,
        )
    return _(
        "Other phones' photos are being read right now. Try again in %(s)d seconds, or type "
        "your points.",
        s=busy.retry_after,
    )


def busy_headers(busy: photo_gate.PhotoBusy) -> dict[str, str]:
    """The headers of a 429 answer: when to try again."""
    return {"Retry-After": str(busy.retry_after)}


def read_photo(data: bytes, max_pips: int) -> tuple[Reading, dict[str, Any]]:
    """Count the pips in ``data``: the reading and the marked photo for
    ``_photo_reading.html``. Raises :class:`PhotoError` (see :func:`problem_message`)."""
    reading, rgb = pips.read_photo(data, max_pips)
    return reading, marked_photo(rgb, reading, max_pips)


def picker_context(game: Game) -> dict[str, Any]:
    """What every photo page shows beside its own links and form: the choices of the tile
    picker that corrects a reading, and each choice's ``points`` under the game's house rules
    (the double-blank at its value, blank halves as set), which the headline adds up
    (static/js/photo.js as tiles are corrected)."""
    rules = rules_of(game)
    choices = tile_choices(game.set_size)
    return {
        "choices": choices,
        "points": {c: tile_points(parse_tile(c), rules) for c in choices},
        "not_a_tile": NOT_A_TILE,
        "confirm_words": confirm_words(),
        "picked_twice": picked_twice,
        "sure_words": sure_words,
    }


def sure_words(marks: Sequence[TileMark]) -> str:
    """How many tiles were found, and how many of those were read surely or are to be checked
    ("4 tiles found, each read sure"; "5 tiles found: 3 read sure, 2 to check"). It speaks of
    the tiles found, never of the hand: the reader can miss a tile without a word, so "All 4
    tiles sure" told a player whose hand had 5 there was nothing to check. The page asks next
    whether that is every tile in the hand (``_photo_reading.html``)."""
    sure = sum(mark.sure for mark in marks)
    if sure == len(marks):
        return ngettext(
            "%(num)d tile found, read sure", "%(num)d tiles found, each read sure", sure
        )
    return ngettext(
        "%(num)d tile found: %(sure)d read sure, %(check)d to check",
        "%(num)d tiles found: %(sure)d read sure, %(check)d to check",
        len(marks),
        sure=sure,
        check=len(marks) - sure,
    )


def reading_message(unread: int) -> str:
    """One sentence on the result: ``unread`` tiles not read, or what to check (a photo with
    no tile read never gets here: it is refused as ``PhotoProblem.UNREADABLE``)."""
    if unread:
        return ngettext(
            "%(num)d tile could not be read (marked ?): pick it below or type the points.",
            "%(num)d tiles could not be read (marked ?): pick each one below or type the points.",
            unread,
        )
    return _("Check every tile against the photo, fix any that is wrong, then confirm.")


@dataclass(frozen=True)
class TileMark:
    """One tile as the answer page draws it: outline points (SVG), its centre (the tap
    circle's), label position and size, reading; all in working-image pixels."""

    index: int
    points: str
    centre_x: float
    centre_y: float
    label_x: float
    label_y: float
    text: str
    read: bool
    sure: bool
    font: float
    pips: tuple[tuple[float, float, float], ...]
    #: a line from the label to the tile's centre: the label found no free spot next to it
    #: (False in a reading kept before labels had them)
    leader: bool = False


def marked_photo(rgb: np.ndarray, reading: Reading, max_pips: int = 12) -> dict[str, Any]:
    """What ``_photo_reading.html`` draws: the working image as a data URI (JPEG), its size,
    and every tile's outline, label and pips in its pixel coordinates; ``hit``: the radius of
    each tile's invisible tap circle; ``drawn_height``: the SVG's height, more than the
    photo's when labels found no room in it (:func:`place_labels`); all in pixels of the
    working image. Each label is given room for the widest pick of a double-``max_pips``
    set, so a label redrawn as the player picks stays clear of the other tiles too."""
    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, "JPEG", quality=80)
    stroke = max(1.5, reading.width / 300)
    least = readable_font(reading.width)
    centres = [tile.centre for tile in reading.tiles]
    fonts, spans = [], []
    for index, tile in enumerate(reading.tiles):
        room = min(
            (math.dist(tile.centre, other) for i, other in enumerate(centres) if i != index),
            default=math.inf,
        )
        label = f"{index + 1}: {tile.text}"
        font = label_font(tile.corners, label, stroke * 9, room, least)
        fonts.append(font)
        # room for a longer pick than the reading ("1: ?" picked as "1: 12-11") and for the
        # reading of a tile not sure ("1: 6-4?")
        widest = f"{index + 1}: {max_pips}-{max_pips}"
        spans.append(font * _EM_PER_CHAR * max(len(label) + 1, len(widest)))
    places = place_labels(
        [tile.corners for tile in reading.tiles],
        [(span, 1.2 * font) for span, font in zip(spans, fonts, strict=True)],
        reading.width,
        reading.height,
        gap=stroke,
    )
    marks = [
        TileMark(
            index=index,
            points=" ".join(f"{x:.1f},{y:.1f}" for x, y in tile.corners),
            centre_x=round(tile.centre[0], 1),
            centre_y=round(tile.centre[1], 1),
            label_x=round(places[index].x, 1),
            label_y=round(places[index].y, 1),
            text=tile.text,
            read=tile.read,
            sure=tile.sure,
            font=fonts[index],
            pips=tuple((round(p.x, 1), round(p.y, 1), round(max(p.r, 2.0), 1)) for p in tile.pips),
            leader=places[index].leader,
        )
        for index, tile in enumerate(reading.tiles)
    ]
    return {
        "src": JPEG_URI + base64.b64encode(buffer.getvalue()).decode("ascii"),
        "width": reading.width,
        "height": reading.height,
        "drawn_height": labels_bottom(marks, reading.height),
        "marks": marks,
        "stroke": stroke,
        "hit": hit_radius(reading.width),
        "total": reading.total,
    }


#: How wide the marked photo is shown on a 360 px phone (CSS px: the page's margins taken off).
SHOWN_CSS_PX = 340
#: The least font size of a tile's label as shown there (CSS px): readable at arm's length.
LABEL_CSS_PX = 13
#: The radius of a tile's tap circle as shown there (CSS px): a 44 px target for the thumb.
HIT_CSS_PX = 22


def readable_font(width: int) -> float:
    """The least label font size (pixels of a working image ``width`` pixels wide, the SVG's
    viewBox units) that is :data:`LABEL_CSS_PX` CSS px on a photo shown
    :data:`SHOWN_CSS_PX` wide: a tile's own size set 6 CSS px on a 4000 px photo."""
    return round(width * LABEL_CSS_PX / SHOWN_CSS_PX, 1)


def hit_radius(width: int) -> float:
    """The radius (working-image pixels) of a tile's invisible tap circle: :data:`HIT_CSS_PX`
    CSS px on a photo shown :data:`SHOWN_CSS_PX` wide, so a small tile is still a 44 px
    target (its outline alone could be under 40 px)."""
    return round(width * HIT_CSS_PX / SHOWN_CSS_PX, 1)


@dataclass(frozen=True)
class LabelPlace:
    """Where a tile's label is drawn: its box's centre (working-image pixels) and whether a
    leader line joins it to its tile (drawn when no free spot was found right next to it)."""

    x: float
    y: float
    leader: bool = False


#: A label box: left, top, right, bottom (working-image pixels).
Box = tuple[float, float, float, float]


def place_labels(
    outlines: Sequence[Sequence[tuple[float, float]]],
    sizes: Sequence[tuple[float, float]],
    width: int,
    height: int,
    gap: float = 0.0,
) -> list[LabelPlace]:
    """Where each tile's label is drawn: its box (``sizes``: width and height, working-image
    pixels) lies over no other tile's outline and no other label, ``gap`` pixels clear of both
    (the outline's stroke), so a tap on a label always reaches its own tile and the number read
    is that tile's. In order of preference: on the tile's centre; else the free spot nearest
    the tile, tried all around it and then further out, ring by ring, inside the photo (a spot
    more than half a label's height off the tile gets a leader line to it); else, when the
    photo has no free spot left (tiles covering it), or only spots whose line would cross more
    other tiles than a line straight down out of the photo (a wide photo shown small), in
    rows below the photo, with a leader line: the SVG is drawn taller for them
    (:func:`labels_bottom`)."""
    hulls = [_hull(outline) for outline in outlines]
    bounds = [_bounds(hull) for hull in hulls]  # a cheap first test: most boxes are far apart
    centres = [_centre(outline) for outline in outlines]
    places: dict[int, LabelPlace] = {}
    boxes: list[Box] = []

    def free(index: int, x: float, y: float, below: bool = False) -> bool:
        w, h = sizes[index]
        box = (x - w / 2 - gap, y - h / 2 - gap, x + w / 2 + gap, y + h / 2 + gap)
        # below the photo only other labels are in the way (and a label wider than the
        # photo must still find a row)
        if not below and (box[0] < 0 or box[2] > width or box[1] < 0 or box[3] > height):
            return False
        if any(_boxes_overlap(box, other) for other in boxes):
            return False
        return not any(
            _box_on_hull(box, hull, bounds[j]) for j, hull in enumerate(hulls) if j != index
        )

    def owned(index: int, x: float, y: float) -> bool:
        """Whether a label of tile ``index`` at (x, y) is clearly nearer its tile's centre than
        any other tile's: read as that tile's without a line."""
        w, h = sizes[index]
        box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        near = [_box_to_point(box, centre) for centre in centres]
        # clearly nearer: by half a label's height (a hair nearer reads as either tile's)
        return all(near[index] + h / 2 <= d for j, d in enumerate(near) if j != index)

    def crossed(index: int, x: float, y: float) -> int:
        """How many other tiles a leader line from tile ``index`` to (x, y) crosses."""
        line = (centres[index], (x, y))
        # a line passing a tile's corner closely looks as if it pointed at it: a quarter of
        # a label's height clear
        margin = sizes[index][1] / 4
        return sum(
            _segment_on_hull(line, hull, bounds[j], margin)
            for j, hull in enumerate(hulls)
            if j != index
        )

    def below(index: int) -> tuple[float, float]:
        """The first row below the photo, under tile ``index`` (within the photo's width)."""
        w, h = sizes[index]
        return min(
            max(centres[index][0], w / 2 + gap), width - w / 2 - gap
        ), height + h / 2 + 2 * gap

    def crossed_below(index: int, x: float, y: float) -> int:
        """How many other tiles and labels placed so far a leader line from tile ``index``
        to (x, y) below the photo crosses."""
        line = (centres[index], (x, y))
        labels = sum(_segment_on_hull(line, _box_corners(box), box) for box in boxes)
        return crossed(index, x, y) + labels

    def take(index: int, x: float, y: float, leader: bool) -> None:
        w, h = sizes[index]
        places[index] = LabelPlace(x, y, leader)
        boxes.append((x - w / 2, y - h / 2, x + w / 2, y + h / 2))

    # first every label that fits on its own tile's centre, so that none is pushed off its
    # tile by another tile's label placed before it
    for index, (cx, cy) in enumerate(centres):
        if free(index, cx, cy):
            take(index, cx, cy, False)
    for index in range(len(outlines)):
        if index in places:
            continue
        spot = _nearest_free(
            hulls[index],
            centres[index],
            sizes[index],
            width,
            height,
            gap,
            functools.partial(free, index),
            functools.partial(owned, index),
            functools.partial(crossed, index),
        )
        if spot is not None and not (
            spot[2] and crossed(index, *spot[:2]) > crossed(index, *below(index))
        ):
            take(index, *spot)
    # no free spot in the photo, or only one whose line crosses more tiles than a line
    # straight down out of it (a wide photo shown small: labels as tall as its tiles): rows
    # below it, each label under its tile if it can be
    for index in range(len(outlines)):
        if index in places:
            continue
        x, y = _row_spot(
            below(index),
            width,
            gap,
            sizes[index],
            functools.partial(free, index, below=True),
            functools.partial(crossed_below, index),
        )
        take(index, x, y, True)
    return [places[index] for index in range(len(outlines))]


def _row_spot(
    first: tuple[float, float],
    width: int,
    gap: float,
    size: tuple[float, float],
    free: Callable[[float, float], bool],
    crossings: Callable[[float, float], int],
) -> tuple[float, float]:
    """A spot below the photo for a label (``size``: width, height), row by row from
    ``first`` (under its tile): the free spot whose leader line crosses the fewest other
    tiles and labels (``crossings``), nearest under the tile; a line through another tile or
    label reads as pointing at it. Rows further down are looked at while the best so far
    crosses something, up to :data:`_ROWS_FOR_A_CLEAR_LINE` rows past the first free spot."""
    w, h = size
    x0, y = first
    low, high = w / 2 + gap, max(w / 2 + gap, width - w / 2 - gap)
    best: tuple[int, float, float, float] | None = None  # crossings, off, x, y
    rows_left = _ROWS_FOR_A_CLEAR_LINE
    while best is None or (best[0] and rows_left):
        for x in _steps(low, high, w / 4) + [x0]:
            if free(x, y):
                spot = (crossings(x, y), abs(x - x0), x, y)
                best = spot if best is None or spot < best else best
        if best is not None:
            rows_left -= 1
        y += h / 2
    return best[2], best[3]


#: How many rows further down a label below the photo looks for a line crossing nothing.
_ROWS_FOR_A_CLEAR_LINE = 4


def _box_corners(box: Box) -> list[tuple[float, float]]:
    """A box's corners, clockwise from its top left."""
    return [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]


def labels_bottom(marks: Sequence[TileMark], height: int) -> float:
    """How tall the marked photo's SVG is drawn (working-image pixels): the photo's
    ``height``, or more when :func:`place_labels` put labels below it (a label's box is 1.2
    of its font tall, centred on its ``label_y``)."""
    return round(max([float(height), *(m.label_y + 0.7 * m.font for m in marks)]), 1)


def _nearest_free(
    hull: Sequence[tuple[float, float]],
    centre: tuple[float, float],
    size: tuple[float, float],
    width: int,
    height: int,
    gap: float,
    free: Callable[[float, float], bool],
    owned: Callable[[float, float], bool],
    crossed: Callable[[float, float], int],
) -> tuple[float, float, bool] | None:
    """The free spot nearest a tile (``free(x, y)`` says whether a label centred there is
    free): ring after ring around the tile's bounding box, half a label's height further out
    each time; the label's centre and whether it needs a leader line; None when no spot in the
    photo is free. A spot at most half a label's height off the tile whose label would be
    nearer the tile's centre than any other tile's (``owned(x, y)``) comes first, with no
    line; any other spot gets a leader line, ring by ring, those squarely beside the tile
    (the middle half of the label level with its centre: a straight line) first, then the
    others nearest the tile's centre;
    one whose line crosses another tile (``crossed(x, y)``: how many) is taken only when no
    spot up to :data:`_RINGS_FOR_A_CLEAR_LINE` rings further out has a line crossing none: a
    line over another tile points at the wrong one."""
    w, h = size
    left, top, right, bottom = _bounds(hull)
    left, top, right, bottom = left - gap, top - gap, right + gap, bottom + gap
    step = h / 2

    def ring_spots(ring: int) -> list[tuple[float, float]]:
        """The spots of a ring, squarely beside the tile first, then nearest its centre; none
        when the ring is all outside the photo (so is everything further out)."""
        out = ring * step
        # the box's centre on this ring: the box just touches the tile's bounding box grown by
        # ``out`` (its sides, its corners); level with the tile's centre on each side too
        x0, x1 = left - out - w / 2, right + out + w / 2
        y0, y1 = top - out - h / 2, bottom + out + h / 2
        if x0 < w / 2 and x1 > width - w / 2 and y0 < h / 2 and y1 > height - h / 2:
            return []
        spots = []
        for x in [centre[0], *_steps(x0, x1, step)]:
            spots += [(x, y0), (x, y1)]
        for y in [centre[1], *_steps(y0 + step, y1 - step, step)]:
            spots += [(x0, y), (x1, y)]
        return sorted(spots, key=lambda spot: (not square(spot), math.dist(spot, centre)))

    def square(spot: tuple[float, float]) -> bool:
        # the label's middle half level with the tile's centre: a label much wider than its
        # tile, shifted further along, sits over its neighbours as much as over it
        return abs(spot[0] - centre[0]) <= w / 4 or abs(spot[1] - centre[1]) <= h / 4

    # right next to the tile (at most half a label's height off it) and nearer its centre than
    # any other tile's: no line
    for ring in (0, 1):
        for x, y in sorted(ring_spots(ring), key=lambda spot: math.dist(spot, centre)):
            if owned(x, y) and free(x, y):
                return x, y, False
    best: tuple[int, float, float] | None = None  # crossings, x, y of the best led spot
    until = math.inf  # the last ring looked at once a led spot crossing tiles is found
    ring = 0
    while ring <= until:
        spots = ring_spots(ring)
        if not spots:
            break
        for x, y in spots:
            if not free(x, y):
                continue
            crossings = crossed(x, y)
            if crossings == 0:
                return x, y, True
            if best is None or crossings < best[0]:
                best = (crossings, x, y)
                until = min(until, ring + _RINGS_FOR_A_CLEAR_LINE)
        ring += 1
    return None if best is None else (best[1], best[2], True)


#: How many rings further out a spot is looked for whose leader line crosses no other tile.
_RINGS_FOR_A_CLEAR_LINE = 8  # four label heights


def _steps(start: float, stop: float, step: float) -> list[float]:
    """``start`` to ``stop`` (both included) about ``step`` apart."""
    count = max(1, math.ceil((stop - start) / step))
    return [start + (stop - start) * k / count for k in range(count + 1)]


def _centre(outline: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The mean of an outline's corners."""
    return (
        sum(x for x, _ in outline) / len(outline),
        sum(y for _, y in outline) / len(outline),
    )


def _hull(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The convex hull of ``points``, counter-clockwise (monotone chain): an outline as the
    area its fill covers for a tap."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _boxes_overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _box_on_hull(box: Box, hull: Sequence[tuple[float, float]], bounds: Box) -> bool:
    """Whether a box and a convex polygon (``bounds``: its bounding box) overlap (separating
    axes: the box's two, then each of the polygon's edges' normals)."""
    if not _boxes_overlap(box, bounds):
        return False
    corners = _box_corners(box)
    for i, (ax, ay) in enumerate(hull):
        bx, by = hull[(i + 1) % len(hull)]
        nx, ny = by - ay, ax - bx  # the edge's normal
        mine = [nx * x + ny * y for x, y in hull]
        theirs = [nx * x + ny * y for x, y in corners]
        if max(theirs) <= min(mine) or max(mine) <= min(theirs):
            return False
    return True


def _segment_on_hull(
    line: tuple[tuple[float, float], tuple[float, float]],
    hull: Sequence[tuple[float, float]],
    bounds: Box,
    margin: float = 0.0,
) -> bool:
    """Whether a line segment crosses a convex polygon (``bounds``: its bounding box) or
    passes within about ``margin`` of it, by separating axes: the polygon's edges' normals
    and the segment's own (the segment's extent on each grown by ``margin``)."""
    (px, py), (qx, qy) = line
    reach = (
        min(px, qx) - margin,
        min(py, qy) - margin,
        max(px, qx) + margin,
        max(py, qy) + margin,
    )
    if not _boxes_overlap(reach, bounds):
        return False
    edges = [(hull[i], hull[(i + 1) % len(hull)]) for i in range(len(hull))]
    for (ax, ay), (bx, by) in [*edges, line]:
        nx, ny = by - ay, ax - bx
        grow = margin * math.hypot(nx, ny)
        mine = [nx * x + ny * y for x, y in hull]
        theirs = [nx * px + ny * py, nx * qx + ny * qy]
        if max(theirs) + grow <= min(mine) or max(mine) <= min(theirs) - grow:
            return False
    return True


def _box_to_point(box: Box, point: tuple[float, float]) -> float:
    """How far ``point`` is from ``box`` (0 inside it)."""
    dx = max(box[0] - point[0], point[0] - box[2], 0.0)
    dy = max(box[1] - point[1], point[1] - box[3], 0.0)
    return math.hypot(dx, dy)


def _bounds(points: Sequence[tuple[float, float]]) -> Box:
    """The bounding box of ``points``."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


#: How the marked photo's image starts (a data URI; nothing else is ever drawn).
JPEG_URI = "data:image/jpeg;base64,"


def marked_to_text(marked: dict[str, Any]) -> str:
    """``marked`` (:func:`marked_photo`) as JSON text, so the confirm form can carry the reading
    back: a refused confirm shows it again with every pick (the photo itself is not kept)."""
    return json.dumps({**marked, "marks": [asdict(m) for m in marked["marks"]]})


def marked_from_text(text: str) -> dict[str, Any] | None:
    """The marked photo of :func:`marked_to_text`, or None when ``text`` is not one."""
    try:
        data = json.loads(text)
        marks = [
            TileMark(**{**m, "pips": tuple(tuple(float(v) for v in p) for p in m["pips"])})
            for m in data["marks"]
        ]
        if not str(data["src"]).startswith(JPEG_URI):
            return None
        return {
            "src": str(data["src"]),
            "width": int(data["width"]),
            "height": int(data["height"]),
            "drawn_height": labels_bottom(marks, int(data["height"])),
            "stroke": float(data["stroke"]),
            "hit": hit_radius(int(data["width"])),
            "total": int(data["total"]),
            "marks": marks,
        }
    except (ValueError, TypeError, KeyError):
        return None


# Bold digits are about 0.62 em wide. A label whose box fits the circle inscribed in its tile
# stays inside the tile at any rotation, so labels of tiles that do not overlap never overlap.
_EM_PER_CHAR = 0.62


def label_font(
    corners: Sequence[tuple[float, float]],
    label: str,
    largest: float,
    room: float = math.inf,
    least: float = 1.0,
) -> float:
    """The font size (photo pixels) of a tile's label: ``largest`` unless the label's box would
    not fit the circle inscribed in the tile (diameter: the tile's short side, or ``room``, the
    distance to the nearest other tile's centre, when the outlines of touching tiles overlap a
    little), then as large as fits it; never under ``least`` (readable on the phone: a label
    that large sticks out of a small tile, :func:`place_labels` keeps it off the others)."""
    sides = [math.dist(corners[i], corners[(i + 1) % len(corners)]) for i in range(len(corners))]
    diameter = 0.95 * min(*sides, room)
    fits = diameter / math.hypot(_EM_PER_CHAR * max(1, len(label)), 1.0)
    return round(max(1.0, least, min(largest, fits)), 1)


def tile_choices(set_size: int) -> list[str]:
    """Every tile of a double-``set_size`` set, as the picker lists them ("12-12" ... "0-0")."""
    return [f"{high}-{low}" for high in range(set_size, -1, -1) for low in range(high, -1, -1)]


def picked_twice(tile: str) -> str:
    """Why a confirm is refused when ``tile`` is picked more than once, in the player's words
    (twice or three times: the words hold for both)."""
    return _(
        "%(t)s is picked more than once: a set has only one %(t)s; pick another tile or "
        "'not a tile'.",
        t=tile,
    )


def not_picked(numbers: list[str]) -> str:
    """Why a confirm is refused when the tiles ``numbers`` (as shown: "1", "4") are on "?"."""
    return ngettext(
        "Tile %(tiles)s is not picked yet: pick it below, or 'not a tile', then confirm.",
        "Tiles %(tiles)s are not picked yet: pick each one below, or 'not a tile', then confirm.",
        len(numbers),
        tiles=", ".join(numbers),
    )


def nothing_left() -> str:
    """Why a confirm is refused when every tile is set to "not a tile"."""
    return _(
        "Every tile is set to 'not a tile': there is no tile left to post. Pick the tiles, "
        "or type the points instead."
    )


def reading_lost() -> str:
    """Why a reading cannot be shown again (the form did not carry it back), in the player's
    words: the photo itself is not kept."""
    return _("This photo's reading could not be shown again: take or choose the photo again.")


def confirm_words() -> dict[str, str]:
    """The refusals above for static/js/photo.js, which says them before Confirm is sent
    (``{t}``: the tile picked twice; ``{n}``: the tile's number)."""
    return {"twice": picked_twice("{t}"), "pick": not_picked(["{n}"]), "none": nothing_left()}


def confirm_problem(picks: list[str], set_size: int) -> tuple[str, list[int]] | None:
    """Why the player's picks cannot be posted, in their words, and the indexes of the tiles
    to fix; None when they can be posted. Refused: a tile picked twice (a set has one of each,
    so one of them is misread), tiles still on "?" (or holding something that is not a tile of
    the set), or no tile left at all."""
    tiles, missing = confirmed_tiles(picks, set_size)
    twice = [tile for tile, n in Counter(tiles).items() if n > 1]
    if twice:
        return picked_twice(twice[0]), [i for i, pick in enumerate(picks) if pick == twice[0]]
    if missing:
        return not_picked([str(i + 1) for i in missing]), missing
    if not tiles:
        return nothing_left(), list(range(len(picks)))
    return None


def centre_tile(double: int | None) -> str:
    """The centre double of the photo's round as a tile's text ("6-6"); "" with no round."""
    return f"{double}-{double}" if double is not None else ""


def centre_double_problem(
    picks: list[str], who: str, double: int | None
) -> tuple[str, list[int]] | None:
    """Why picks holding the centre double of the photo's round (``double``; None: no round)
    cannot go into ``who``'s hand, in the round form's words, and the indexes of those picks;
    None when there is none. The round form has no box for that tile: put in its draft, it
    was dropped unsaid while the game page counted it in "N tiles from the photo"."""
    centre = centre_tile(double)
    flagged = [i for i, pick in enumerate(picks) if double is not None and pick == centre]
    if not flagged:
        return None
    return str(centre_double_in_hand(who, centre)), flagged


def held_elsewhere(
    who: str, double: int | None, held: Mapping[str, str], clash: Callable[[str, str], str]
) -> dict[str, str]:
    """Tile -> why it cannot be picked for ``who``'s hand, in the words of the refusal to
    come: the centre double of the photo's round (``double``; None: no round), in the round
    form's words (:func:`centre_double_problem`), and each tile ``held`` in another hand
    (tile -> whose hand), in ``clash(tile, whose)``. ``_photo_reading.html`` says them beside
    a picker holding one from the first render, and static/js/photo.js as tiles are picked:
    before Confirm, not only when the Confirm (or the round's Save) is refused."""
    words = {tile: clash(tile, other) for tile, other in held.items()}
    if double is not None:
        centre = centre_tile(double)
        words[centre] = str(centre_double_in_hand(who, centre))
    return words


def confirmed_tiles(picks: list[str], set_size: int) -> tuple[list[str], list[int]]:
    """The tiles the player confirmed (one pick per outline; :data:`NOT_A_TILE` drops it) and
    the indexes of outlines still unread or holding something that is not a tile of the set."""
    allowed = set(tile_choices(set_size))
    tiles, missing = [], []
    for index, pick in enumerate(picks):
        if pick == NOT_A_TILE:
            continue
        if pick in allowed:
            tiles.append(pick)
        else:
            missing.append(index)
    return tiles, missing


def hand_value(game: Game, tiles: list[str]) -> int:
    """The points ``tiles`` are worth under the game's house rules (the double-blank at its
    value, blank halves as set): what the headline adds up and what is posted."""
    return hand_points((parse_tile(tile) for tile in tiles), rules_of(game))


def filled_in(game: Game, who: str, tiles: list[str]) -> str:
    """What the game page says when it shows the round form with a photo's confirmed
    ``tiles`` in ``who``'s hand, for the first time: they are there, to check and save."""
    return ngettext(
        "%(who)s: %(num)d tile from the photo, %(points)s. Check the round and save it.",
        "%(who)s: %(num)d tiles from the photo, %(points)s. Check the round and save it.",
        len(tiles),
        who=who,
        # one plural per message: the points are their own ("1 point", "4 очка")
        points=_points(game, tiles),
    )


def _points(game: Game, tiles: list[str]) -> str:
    """The points ``tiles`` are worth (:func:`hand_value`), in words: "20 points"."""
    return ngettext("%(num)d point", "%(num)d points", hand_value(game, tiles))


def not_filled_in(game: Game, who: str, double: int | None, tiles: list[str]) -> str:
    """Why a photo's confirmed ``tiles`` (``who``'s hand) are not in the round form: the round
    with ``double`` the photo was taken for is no longer the one to be entered, in the
    players' words. Saved without them: from another tab or phone before the Confirm came,
    or after it, by the save the scorekeeper typed on the game page's offline copy while the
    Confirm waited in the outbox (sent first, its tiles went into a form never shown). The
    tiles and their points are said too: the photo is not kept, and this is all that is left
    of its reading (the scorekeeper can correct the saved round with them)."""
    points = _points(game, tiles)
    shown = ", ".join(tiles) if tiles else "-"
    if double is not None and any(r.start_double == double for r in scored_rounds(game)):
        return _(
            "%(who)s's hand from the photo was not used: the round with %(double)s was saved "
            "with what was typed. The photo's tiles: %(tiles)s (%(points)s). To use them, "
            "correct that round.",
            who=who,
            double=double_name(double),
            tiles=shown,
            points=points,
        )
    return _(
        "%(who)s's hand from the photo was not filled in: its round is no longer the round to "
        "enter. The photo's tiles: %(tiles)s (%(points)s).",
        who=who,
        tiles=shown,
        points=points,
    )


def draft_with_tiles(
    fields: list[tuple[str, str]], tiles_field: str, total_field: str, tiles: list[str]
) -> list[tuple[str, str]]:
    """A kept hand form's fields (name, value pairs) with one hand's entries (its
    ``tiles_field`` and ``total_field``) replaced by the confirmed ``tiles``."""
    kept = [(name, value) for name, value in fields if name not in (tiles_field, total_field)]
    return [*kept, *((tiles_field, tile) for tile in tiles)]
