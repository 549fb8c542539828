"""Finding tiles and their pips in a working image, with classical computer vision (OpenCV).

The divider line is what makes a face-up tile: every face-up domino has one across its middle,
a face-down tile (logo, dots) has none. So the counter

1. marks every small feature that differs from its surroundings, channel by channel (a
   morphological black-hat for dark pips on light tiles, a top-hat for light pips on dark
   tiles): this sees black, red, blue or khaki pips alike and ignores slow lighting gradients;
2. sorts the marks into dividers (long thin bars) and pips (round blobs);
3. builds one tile around each divider (a 2:1 rectangle turned as the divider is, which also
   separates touching tiles) and counts the pips on each side of it;
4. refuses to guess: a half with more pips than the set allows, pips of very different sizes,
   or pips that are not laid out symmetrically make the tile "unread" (or less confident).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .calibration import confidence, highest_unsure
from .reading import SURE, Pip, Point, Quad, TileRead, Unread

#: The most pips a half can have in the biggest set the app knows (double-18).
MAX_HALF = 18
#: Divider length / tile width: dividers stop short of the tile's long edges.
DIVIDER_SPAN = 0.8
#: The shortest divider, in working-image pixels, that can carry readable pips.
MIN_DIVIDER = 14
#: A first look whose dividers are this many times longer (or shorter) than the photo's
#: measured ones found something else (:func:`find_tiles`).
OTHER_SIZE = 2.0
#: A divider is at least this many times longer than thick.
DIVIDER_ASPECT = 5.0
#: Pip diameter as a share of the divider's length: the range accepted.
PIP_SIZE = (0.07, 0.36)
#: A mark on a tile under this share of its usual pip's diameter is a speck, not a pip.
SPECK = 0.5
#: A mark this many times smaller or larger than a tile's usual pip that keeps a half from a
#: standard pattern is left out of the guess shown for a tile not sure (:func:`_without_stray`).
STRAY_SIZE = 1.2
#: Pips of one tile whose diameters differ by more than this factor make it unread.
PIP_SIZE_SPREAD = 1.9
#: How round a blob must be (4 pi area / perimeter^2) to be a pip.
MIN_ROUNDNESS = 0.55
#: The most two halves of one tile may differ in colour (Lab, 0-255 scale): lighting only.
FACE_COLOUR_STEP = 22
#: A pip's usual diameter as a share of its tile's divider length.
USUAL_PIP = 0.22
#: How far pips lie from a tile's centre, along the divider and across it, in tile widths.
FACE_REACH = (0.45, 0.92)
#: A face's corners, in tile widths from its centre (along the divider, across it): no pip
#: pattern reaches past both (the outer pips lie within 0.3 along and 0.8 across), but a
#: tile's shadow and a neighbour's corner do; a mark there is left out.
FACE_CORNER = (0.35, 0.8)
#: Divider lengths, as shares of the typical one, taken for tiles of the same set.
SAME_SIZE = (0.75, 1.33)
#: Where a tile's face is sampled across the divider, in tile widths: within 0.7, since some
#: sets' tiles are only 1.5 times as long as wide (a half 0.75 wide).
FACE_SAMPLES_ACROSS = (0.14, 0.33, 0.52, 0.7)
#: Of the 20 spots sampled on each side of a divider, how many must be plain surface: on the
#: side with fewer and on the side with more.
PLAIN_SPOTS = (6, 12)
#: How much (Lab, 0-255 scale) a tile's face must differ from the table around it.
SURROUND_STEP = 18
#: Where a tile's edge is looked for: just inside and just outside, as shares of the distance
#: from the tile's centre to that side.
EDGE_RINGS = (0.5, 0.65, 1.25, 1.4)
#: Where along a side its edge is sampled, as shares of the side's half-length: away from the
#: corners (tiles are often shorter than 2:1) and from the divider's line.
EDGE_SPOTS = (-0.55, -0.45, -0.35, -0.25, -0.15, 0.15, 0.25, 0.35, 0.45, 0.55)
#: The share of spots just outside a side that must differ from the face for an edge.
EDGE_SHARE = 0.8
#: Of a tile's four sides, how many must show an edge (touching tiles share the others).
EDGES_SEEN = 2
#: The first look's neighbourhoods, as fractions (1/n) of the photo's short side.
FIRST_LOOK_SHARES = (8, 16, 32)
#: Where a half's pips must centre, in tile widths: at most this far along the divider from
#: the tile's middle, and between these distances across it (the half's middle is at 0.5).
HALF_MIDDLE = (0.2, 0.3, 0.7)
#: A tile with at most this many pips must show its edges too (see :func:`_needs_edges`).
FAKEABLE = 4
#: A tile's length in tile widths, with room for a tilted outline: a mark longer than this
#: is no mark on a tile's face.
TILE_LONGER = 2.2
#: A mark this many times longer than its bounding rectangle is thick is measured for its
#: usual width (the rectangle of a divider with its centre pin is as thick as the pin).
ELONGATED = 2.5
#: How much firmer than the usual threshold a mark that is neither pip nor bar is looked at
#: again (a divider with pips run into it).
PARTING = 2.0
#: How much firmer still two pips run together (a merged pair, too long for one pip) are
#: looked at: their waist stays above the firmer threshold when a photo was enlarged.
RUN_TOGETHER = 3.0
#: How many times the dividers' length a mark that is neither pip nor bar must be for the
#: dividers run into it to be looked for at :data:`RUN_TOGETHER` times the threshold
#: (:func:`_dividers_off_seam`): the seam between two tiles lying side by side is a tile long
#: (2.5 dividers); a pip run into a divider, or two pips run together, are shorter.
SEAM_LONGER = 1.5
#: The most area (in pips) the wedge of table a corner pip ran into may have, where the two
#: part at :data:`RUN_TOGETHER` times the threshold (:func:`_pip_and_wedge`): a sliver past
#: the tile's edge, not a letter of a logo.
WEDGE = 2.0
#: A long mark is a bar blurred thick when it keeps this share of its length at the firmer
#: threshold; a smear of a blurred photo fades to a short stub there.
STAYS_LONG = 0.85
#: How many strips along an elongated mark its width is measured in.
WIDTH_STRIPS = 8
#: How much wider than a stick's usual width the band cut along it is (:func:`_across_stick`):
#: a divider crossing the stick widens the mark's outline where they meet.
STICK_BAND = 1.4
#: A mark on a would-be tile's face at least this many times longer than thick that reaches
#: :data:`TO_EDGE` of the way to its outline is a stick or a pen cut off by the tile's edge
#: (darker than the face there only), not a logo printed on it (:func:`_stick_on_face`).
#: 3.5, not 4: a stick that ends on the face leaves a shorter piece there (a 1-0's was 3.8
#: times longer than thick and vetoed the tile); it must still reach the face's edge.
STICK_ASPECT = 3.5
#: How far out, as a share of the distance from a tile's centre to its outline, a stick's
#: piece on the face reaches: a logo lies well inside the face.
TO_EDGE = 0.9
#: A tile that must show its edges (:func:`_needs_edges`) and does not is still offered, asked,
#: when it has at least this many pips read in standard patterns: grain and knots fake a
#: blank half or a pair of pips, not a 3-1 or a 5-0 on a tile the colour of the table.
EDGELESS_PIPS = 4
#: Contrast (0-255) a mark needs above its surroundings.
MIN_CONTRAST = 28
#: How far past a would-be tile's outline (a share of its size) a mark may reach and still
#: be one on its face: the outline is drawn from the divider's length, a little off at times.
OFF_FACE = 1.1
#: Share of a would-be tile's area another must cover to be its rival for the same place.
RIVAL_SHARE = 0.25
#: Where a would-be tile's face is looked at for marks over it: out to these shares of its
#: width along the divider and across it, with this many spots each way.
COVER_SPOTS = ((0.4, 12), (0.9, 30))
#: Share of either half of a tile's face (pips and divider left out) that marks may cover
#: while its reading stays sure: a face is plain around its pips, a stick or a pen lying over
#: the tile is not, and the pips it hides are one half's.
COVERED = 0.15


@dataclass(frozen=True)
class Blob:
    """A connected mark: centre, size and shape (working-image pixels)."""

    x: float
    y: float
    length: float
    thickness: float
    angle: float  # of the long side, radians
    area: float
    roundness: float
    #: the width at the usual threshold, for a mark thinned by a firmer look (:func:`_blobs`);
    #: two pieces of one divider are told by the gap the usual width bridges
    outer: float = 0.0
    #: a divider found under a stick or a pen lying across it (:func:`_across_stick`): the
    #: stick may hide pips of its tile, which is asked
    under: bool = False

    @property
    def diameter(self) -> float:
        return 2.0 * math.sqrt(self.area / math.pi)

    def along_across(self, x: float, y: float) -> tuple[float, float]:
        """Where the point (``x``, ``y``) lies from this mark's centre, in pixels: along its
        long side, and across it (for a divider: towards one half or the other)."""
        ax, ay = math.cos(self.angle), math.sin(self.angle)
        dx, dy = x - self.x, y - self.y
        return dx * ax + dy * ay, -dx * ay + dy * ax


#: A tile's two halves: each mark with its index among the tile's marks.
Halves = tuple[list[tuple[int, Blob]], list[tuple[int, Blob]]]


def divider_length(rgb: np.ndarray) -> float | None:
    """The typical divider's length in ``rgb`` (pixels), or None when no divider shows: what
    the reader scales every photo by, so that tiles reach it at one size.

    A half-size copy is enough for tiles of ordinary size; when it shows no pip around any
    divider, the tiles may be too small for it (a small photo, tiles far away: at half size
    their pips merge with the divider), and the full-size copy is looked at too."""
    blurred = cv2.GaussianBlur(rgb, (3, 3), 0)
    best: tuple[list[Blob], int, float] = ([], -1, 1.0)
    for shrink in (0.5, 1.0):
        sized = (
            blurred
            if shrink == 1.0
            else cv2.resize(blurred, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        )
        # the polarity whose dividers have the most pips around them (a pen on the table is
        # a bar too, with none), then the one with the most dividers (double-blanks have no
        # pips)
        looks = [_first_look(sized, dark) for dark in (True, False)]
        dividers, support = max(looks, key=lambda look: (look[1], len(look[0])))
        if support > best[1]:  # the full size only when its dividers have pips
            best = (dividers, support, shrink)
        if support > 0:
            break
    dividers, _, shrink = best
    if not dividers:
        return None
    return float(np.median([d.length for d in dividers])) / shrink


def find_tiles(rgb: np.ndarray, max_pips: int, divider: float | None = None) -> list[TileRead]:
    """Every face-up tile in ``rgb`` (H x W x 3), read or marked unread. ``max_pips``: the
    most pips one half may have in the set being played (18 for double-18); ``divider``: the
    dividers' length (pixels) when the photo was already measured (:func:`divider_length`,
    over both kinds of marks), else None.

    A first look with a wide neighbourhood finds the dividers and so the tiles' size; the
    second uses a neighbourhood fitted to that size, so that a tile on a lighter background
    (a white table) is not itself taken for a dark mark. All tiles of a set are one size: a
    first look at one kind of mark whose dividers are :data:`OTHER_SIZE` times longer or
    shorter than ``divider`` found something else (the squares of a checked cloth, a
    pattern), and the measured length stands for it."""
    blurred = cv2.GaussianBlur(rgb, (3, 3), 0)
    # The first look only needs the dividers' length: half the pixels are enough.
    half = cv2.resize(blurred, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.medianBlur(rgb, 5), cv2.COLOR_RGB2LAB)
    tiles: list[TileRead] = []
    for dark_marks in (True, False):
        first, _ = _first_look(half, dark_marks)
        if not first:
            continue
        expected = 2.0 * float(np.median([d.length for d in first]))
        if divider is not None and not 1 / OTHER_SIZE <= expected / divider <= OTHER_SIZE:
            expected = divider
        contrast = _contrast_map(blurred, dark_marks, _fitted_side(expected))
        blobs = _blobs(contrast, biggest_pip=_pip_sizes(expected)[1], divider=expected)
        face = _Face(lab, contrast < _level(contrast))
        found = _read_polarity(blobs, max_pips, face, expected)
        tiles.extend(t for t in found if not _overlaps_any(t, tiles))
    return _one_double_blank(tiles)


def _one_double_blank(tiles: list[TileRead]) -> list[TileRead]:
    """``tiles``, with every 0-0 unread when more than one was read: a set has one 0-0, and
    each is worth 50 points under the default house rules, so when several show, stripes of
    grain or a pattern made them and none is taken (the player picks what they are)."""
    if sum(t.halves == (0, 0) for t in tiles) < 2:
        return tiles
    return [
        TileRead(t.corners, None, t.pips, 0.0, Unread.DOUBLE_BLANK_TWICE)
        if t.halves == (0, 0)
        else t
        for t in tiles
    ]


def _first_look(half: np.ndarray, dark_marks: bool) -> tuple[list[Blob], int]:
    """The dividers of a half-size copy, with the neighbourhood (an 8th, 16th or 32nd of the
    short side) that shows the most pips around them, and how many pips that is: a
    neighbourhood wider than the tiles would take a whole tile lighter or darker than the
    table for one mark."""
    best: list[Blob] = []
    best_support = -1
    short = min(half.shape[0], half.shape[1])
    for share in FIRST_LOOK_SHARES:
        side = max(9, short // share) | 1
        glance = _blobs(_contrast_map(half, dark_marks, side))
        pips = [b for b in glance if _is_pip_shape(b)]
        # a whole tile shows in the photo, so its divider is shorter than the short side
        bars = [b for b in _bars(glance, MIN_DIVIDER / 2) if b.length <= DIVIDER_SPAN * short]
        first = _usual_size(bars, pips)
        support = sum(_support(b, pips) for b in first)
        if support > best_support:
            best, best_support = first, support
    return best, best_support


def _fitted_side(divider: float) -> int:
    """Neighbourhood wider than a pip (about a quarter of a divider) and than the divider's
    stroke, narrower than a tile: 0.6 of the dividers' length ``divider`` (pixels; odd)."""
    return max(9, int(0.6 * divider)) | 1


def _contrast_map(blurred: np.ndarray, dark_marks: bool, side: int) -> np.ndarray:
    """Per pixel, the strongest local contrast over R, G and B: how much darker (or lighter)
    it is than the surface around it. Coloured pips show in the channel they absorb."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    op = cv2.MORPH_BLACKHAT if dark_marks else cv2.MORPH_TOPHAT
    return np.max(cv2.morphologyEx(blurred, op, kernel), axis=2)


def _level(contrast: np.ndarray) -> float:
    """The contrast a mark needs: a share of the strongest marks, never below the noise."""
    return max(MIN_CONTRAST, float(np.percentile(contrast, 99.7)) * 0.3)


def _blobs(
    contrast: np.ndarray, biggest_pip: float | None = None, divider: float | None = None
) -> list[Blob]:
    """The connected marks of ``contrast`` above a threshold from its own histogram. A mark
    that is neither pip nor divider is looked at again at a firmer threshold: on a small or
    blurred tile the pips nearest the divider run into it, a row of pips runs together, and
    a pip in a tile's corner runs into the table around it when the table is lighter (or
    darker) than the tile; they part there. So is a round mark wider than ``biggest_pip``
    (pixels, from the dividers' length; None: no such look): a corner pip run into a wedge of
    light table between two tiles is round enough to pass for one mark, too big for a pip,
    and would otherwise veto its tile as a logo. A long mark that only gets thinner there (one
    part, about as long: a divider blurred thick on a small photo) takes the thinner width but
    keeps its length and its usual width for joining: a piece of a divider split by its
    centre pin must still join its other piece. A mark still one piece there that parts into
    pips only at :data:`RUN_TOGETHER` times the threshold is those pips (two pips of a row a
    hair apart, run together when a photo was enlarged and shrunk again). With the dividers'
    length ``divider`` known (pixels; None: no such look), a bar longer than a tile is a
    stick or a pen, and a divider it lies across is kept too (:func:`_across_stick`)."""
    level = _level(contrast)
    firmer: list[tuple[Blob, np.ndarray]] | None = None
    firmest: list[tuple[Blob, np.ndarray]] | None = None
    blobs = []
    for blob, contour in _marks(contrast, level):
        oversized = biggest_pip is not None and blob.length > biggest_pip
        pip_shaped = _is_pip_shape(blob) and not oversized
        if not pip_shaped and not _is_divider(blob, MIN_DIVIDER / 2):
            firmer = _marks(contrast, PARTING * level) if firmer is None else firmer
            parts = [b for b, _ in firmer if cv2.pointPolygonTest(contour, (b.x, b.y), False) >= 0]
            if divider is not None and blob.length >= SEAM_LONGER * divider:
                firmest = _marks(contrast, RUN_TOGETHER * level) if firmest is None else firmest
                blobs.extend(_dividers_off_seam(contour, parts, firmest, divider))
            if len(parts) == 1 and blob.length >= ELONGATED * blob.thickness:
                part = parts[0]
                if part.length >= STAYS_LONG * blob.length:  # not a blurred smear fading away
                    thinner = min(blob.thickness, part.thickness)
                    blob = replace(blob, thickness=thinner, outer=blob.thickness)
                blobs.append(blob)
                continue
            if any(_is_pip_shape(b) or _is_divider(b, MIN_DIVIDER / 2) for b in parts):
                blobs.extend(parts)
                continue
            if _split_divider(parts):
                blobs.extend(parts)
                continue
            if len(parts) == 1:
                firmest = _marks(contrast, RUN_TOGETHER * level) if firmest is None else firmest
                pips = [
                    b for b, _ in firmest if cv2.pointPolygonTest(contour, (b.x, b.y), False) >= 0
                ]
                if len(pips) >= 2 and all(_is_pip_shape(b) for b in pips):
                    blobs.extend(pips)
                    continue
                if oversized and _is_pip_shape(blob) and _pip_and_wedge(pips, biggest_pip):
                    blobs.extend(pips)  # a corner pip, and the table's wedge it ran into
                    continue
        stick = divider is not None and blob.length > TILE_LONGER * divider / DIVIDER_SPAN
        if stick and divider is not None and _is_divider(blob):
            blobs.extend(_across_stick(blob, contour, contrast.shape, divider))
        blobs.append(blob)
    return blobs


def _dividers_off_seam(
    contour: np.ndarray,
    parts: list[Blob],
    firmest: list[tuple[Blob, np.ndarray]],
    divider: float,
) -> list[Blob]:
    """The dividers that part from the mark ``contour`` only at :data:`RUN_TOGETHER` times the
    threshold (``firmest``): in a pair of tiles lying long side to long side, a divider that
    runs into the seam between them (and their shadow along it) is one thin mark with it, a
    tile long, that stays one at :data:`PARTING` times (``parts``), so no divider was found
    and the tile was dropped without a word (a 2-0 beside a 5-2). Only pieces of about the
    dividers' ``divider`` length (pixels, :data:`SAME_SIZE`) count, none where a part at
    the firmer threshold is one already; two collinear pieces (a divider parted at its
    centre pin) are joined into one."""
    low, high = SAME_SIZE[0] * divider, SAME_SIZE[1] * divider

    def sized(b: Blob) -> bool:
        return _is_divider(b) and low <= b.length <= high

    inside = [
        b
        for b, _ in firmest
        if cv2.pointPolygonTest(contour, (b.x, b.y), False) >= 0
        and b.length >= MIN_DIVIDER / 2
        and b.length >= ELONGATED * b.thickness
    ]
    found = [b for b in inside if sized(b)]
    for i, a in enumerate(inside):  # the two pieces of one parted at its centre pin
        for b in inside[i + 1 :]:
            if _in_line(a, b) and sized(joined := _join(a, b)):
                found.append(joined)
    kept = [b for b in parts if sized(b)]  # found at the firmer threshold already
    return [b for b in found if all(math.hypot(b.x - k.x, b.y - k.y) > k.length / 2 for k in kept)]


def _in_line(a: Blob, b: Blob) -> bool:
    """Whether two pieces lie along one line (about 10 degrees, within their thickness across):
    the pieces of one divider, however wide the gap its centre pin left between them."""
    if abs(math.sin(a.angle - b.angle)) > 0.17:  # about 10 degrees
        return False
    return abs(a.along_across(b.x, b.y)[1]) <= 1.5 * max(a.thickness, b.thickness)


def _pip_and_wedge(parts: list[Blob], biggest_pip: float | None) -> bool:
    """Whether ``parts``, what a round mark too big for a pip parts into at
    :data:`RUN_TOGETHER` times the threshold, are one pip (round, of a pip's size) and a
    wedge of table it ran into (not round, no bigger than :data:`WEDGE` pips): a 5-5's
    corner pip near its end ran into the light square of a checked cloth past the tile's edge,
    and the mark, too big for a pip, vetoed the tile as a logo (dropped without a word)."""
    pips = [b for b in parts if _is_pip_shape(b)]
    if len(pips) != 1 or len(parts) < 2 or biggest_pip is None:
        return False
    pip = pips[0]
    rest = [b for b in parts if b is not pip]
    return pip.length <= biggest_pip and all(b.area <= WEDGE * pip.area for b in rest)


def _across_stick(
    stick: Blob, contour: np.ndarray, shape: tuple[int, ...], divider: float
) -> list[Blob]:
    """The dividers a stick or a pen lies across: the mark ``contour`` is a bar longer than
    a tile, and a divider it crosses runs into it, the two one mark far too long for a
    divider (the tile was dropped without a word). Cut out a band :data:`STICK_BAND` times
    the stick's usual width along its middle line (fitted to the mark's pixels: a divider
    crossing it tilts the outline's rectangle), the pieces left across it are the divider's.
    Two collinear pieces either side of the band are joined into one, as the two pieces of a
    divider parted by its centre pin are; a piece alone, shorter than the dividers'
    ``divider`` length (pixels), goes on under the stick (its other end is hidden there, or
    too short to show past it): it is drawn on across the band, never longer than that."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.drawContours(mask, [contour], -1, 255, cv2.FILLED)
    ys, xs = np.nonzero(mask)
    points = np.column_stack((xs, ys)).astype(np.float32)
    line = cv2.fitLine(points, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    ax, ay, x0, y0 = (float(v) for v in line)
    band = STICK_BAND * stick.thickness
    half = stick.length / 2 + band
    ends = ((x0 - half * ax, y0 - half * ay), (x0 + half * ax, y0 + half * ay))
    start, end = ((int(round(x)), int(round(y))) for x, y in ends)
    cv2.line(mask, start, end, 0, max(1, int(round(band))))
    angle = math.atan2(ay, ax)
    pieces = [
        piece
        for piece, _ in _marks(mask, 0)
        if piece.length >= ELONGATED * piece.thickness
        and piece.length >= MIN_DIVIDER / 2
        and abs(math.sin(piece.angle - angle)) > 0.5
    ]

    def side(x: float, y: float) -> float:
        return -(x - x0) * ay + (y - y0) * ax

    joined: list[Blob] = []
    used: set[int] = set()
    for i, a in enumerate(pieces):
        for j in range(i + 1, len(pieces)):
            b = pieces[j]
            if i in used or j in used or side(a.x, a.y) * side(b.x, b.y) >= 0:
                continue
            if abs(math.sin(a.angle - b.angle)) > 0.17:
                continue  # about 10 degrees
            if abs(a.along_across(b.x, b.y)[1]) <= 1.5 * max(a.thickness, b.thickness):
                used.update((i, j))
                joined.append(replace(_join(a, b), under=True))
    for k, piece in enumerate(pieces):
        if k in used:
            continue
        px, py = math.cos(piece.angle), math.sin(piece.angle)
        # the piece's end nearer the stick, as +1 or -1 along the piece
        toward = min((-1.0, 1.0), key=lambda e: abs(side(piece.x + e * px, piece.y + e * py)))
        tip = side(
            piece.x + toward * piece.length / 2 * px, piece.y + toward * piece.length / 2 * py
        )
        through = band / abs(math.sin(piece.angle - angle))  # across the band, along the piece
        extra = min(divider - piece.length, through + MIN_DIVIDER / 2)
        if abs(tip) <= band / 2 + 2.0 and extra > 0:  # it ends at the band: it goes on under
            shift = toward * extra / 2
            piece = replace(
                piece, x=piece.x + shift * px, y=piece.y + shift * py, length=piece.length + extra
            )
        joined.append(replace(piece, under=True))
    return joined


def _split_divider(parts: list[Blob]) -> bool:
    """Whether two of ``parts`` are the pieces of one divider parted at its centre pin
    (collinear, about as long, touching): the whole mark, pin and both pieces, was too thick
    for a divider (a pin a shade darker than the face, widening the line around it), and
    neither piece alone is long enough for one. A 6-0 on a 640 px photo was dropped so."""
    return any(
        (gap := _joinable_gap(a, b)) is not None
        and gap <= max(2.0, 0.5 * a.thickness)
        and _is_divider(_join(a, b), MIN_DIVIDER / 2)
        for i, a in enumerate(parts)
        for b in parts[i + 1 :]
    )


def _marks(contrast: np.ndarray, level: float) -> list[tuple[Blob, np.ndarray]]:
    """The connected marks of ``contrast`` above ``level``, each with its outline."""
    _, mask = cv2.threshold(contrast, level, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    # every boundary pixel (not only corners): a bar's width is measured along its length
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    marks = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < 6:
            continue
        (x, y), (w, h), deg = cv2.minAreaRect(contour)
        perimeter = cv2.arcLength(contour, True) or 1.0
        angle = math.radians(deg) if w >= h else math.radians(deg + 90)
        length, thickness = max(w, h), max(1.0, min(w, h))
        if length >= ELONGATED * thickness:
            thickness = min(thickness, _usual_width(contour, x, y, angle, length))
        blob = Blob(
            x=x,
            y=y,
            length=length,
            thickness=thickness,
            angle=angle,
            area=area,
            roundness=4 * math.pi * area / perimeter**2,
        )
        marks.append((blob, contour))
    return marks


def _usual_width(contour: np.ndarray, x: float, y: float, angle: float, length: float) -> float:
    """The median width (pixels) of an elongated mark across its length, in
    :data:`WIDTH_STRIPS` strips: a divider's centre pin (a spinner) touching it widens its
    bounding rectangle in the middle only, and would make it too thick for a divider."""
    points = contour.reshape(-1, 2).astype(np.float32)
    dx, dy = points[:, 0] - x, points[:, 1] - y
    along = dx * math.cos(angle) + dy * math.sin(angle)
    across = -dx * math.sin(angle) + dy * math.cos(angle)
    strip = np.clip(((along / length + 0.5) * WIDTH_STRIPS).astype(int), 0, WIDTH_STRIPS - 1)
    widths = [float(np.ptp(across[strip == k])) + 1.0 for k in np.unique(strip)]
    return max(1.0, float(np.median(widths)))


def _bars(
    blobs: list[Blob], shortest: float = MIN_DIVIDER, expected: float | None = None
) -> list[Blob]:
    """The dividers among ``blobs``; the two pieces of one divider split by its centre pin (a
    spinner) are joined first (each piece with its nearest collinear partner of similar
    length, once, so that the dividers of tiles lying in a row are not chained together).
    With the dividers' ``expected`` length known (pixels), two pieces are joined only into a
    bar of about that length: the dividers of two tiles lying long side to long side are
    collinear too, and on a small photo the seam between the tiles nearly bridges them."""
    pieces = [b for b in blobs if b.length >= shortest / 2 and b.length / b.thickness >= 2.5]
    partner: dict[int, tuple[float, int]] = {}
    for i, a in enumerate(pieces):
        for j, b in enumerate(pieces):
            gap = _joinable_gap(a, b) if i != j else None
            if gap is not None and expected and a.length + b.length + gap > SAME_SIZE[1] * expected:
                continue
            touching = gap is not None and gap <= max(2.0, 0.5 * a.thickness, 0.5 * a.outer)
            if gap is not None and not touching and not _pin_between(a, b, blobs):
                continue
            if gap is not None and gap < partner.get(i, (math.inf, -1))[0]:
                partner[i] = (gap, j)
    bars: list[Blob] = []
    used: set[int] = set()
    for i, piece in enumerate(pieces):
        if i in used:
            continue
        j = partner.get(i, (0.0, -1))[1]
        if j >= 0 and j not in used and partner.get(j, (0.0, -1))[1] == i:
            used.update((i, j))
            bars.append(_join(piece, pieces[j]))
        else:
            bars.append(piece)
    return [b for b in bars if _is_divider(b, shortest)]


def _joinable_gap(a: Blob, b: Blob) -> float | None:
    """The gap between two collinear pieces of similar length that may be one divider."""
    if max(a.length, b.length) > 1.6 * min(a.length, b.length):
        return None
    if not _in_line(a, b):
        return None
    along, _ = a.along_across(b.x, b.y)
    gap = abs(along) - (a.length + b.length) / 2
    return gap if gap <= 0.5 * min(a.length, b.length) else None


def _pin_between(a: Blob, b: Blob, blobs: list[Blob]) -> bool:
    """Whether a round mark wider than the line sits right in the gap between two pieces (the
    divider's centre pin); between the dividers of two tiles side by side there is none."""
    ax, ay = math.cos(a.angle), math.sin(a.angle)
    along = (b.x - a.x) * ax + (b.y - a.y) * ay
    # the middle of the gap, not of the two centres: the pieces may differ in length
    middle = (
        (a.length / 2 + along - b.length / 2) / 2
        if along > 0
        else (along + b.length / 2 - a.length / 2) / 2
    )
    mx, my = a.x + middle * ax, a.y + middle * ay
    thick = max(a.thickness, b.thickness)
    return any(
        c.roundness > 0.6
        and 1.3 * thick <= c.diameter <= 0.4 * a.length
        and math.hypot(c.x - mx, c.y - my) < thick
        for c in blobs
    )


def _join(a: Blob, b: Blob) -> Blob:
    """One bar spanning two collinear pieces."""
    ax, ay = math.cos(a.angle), math.sin(a.angle)
    along = (b.x - a.x) * ax + (b.y - a.y) * ay
    start = min(-a.length / 2, along - b.length / 2)
    end = max(a.length / 2, along + b.length / 2)
    middle = (start + end) / 2
    return Blob(
        x=a.x + middle * ax,
        y=a.y + middle * ay,
        length=end - start,
        thickness=max(a.thickness, b.thickness),
        angle=a.angle,
        area=a.area + b.area,
        roundness=0.0,
        under=a.under or b.under,
    )


def _is_divider(blob: Blob, shortest: float = MIN_DIVIDER) -> bool:
    return blob.length >= shortest and blob.length / blob.thickness >= DIVIDER_ASPECT


def _is_pip_shape(blob: Blob) -> bool:
    return blob.roundness >= MIN_ROUNDNESS and blob.length / blob.thickness <= 1.7


@dataclass(frozen=True)
class _Face:
    """The photo in Lab colours, and where it is plain surface (no mark)."""

    lab: np.ndarray
    plain: np.ndarray

    def looks_like_tile(self, divider: Blob, blank: bool) -> bool:
        """Whether both sides of ``divider`` are one plain surface of the same colour, as the
        two halves of a tile are (a tile's edge has the table on one side), standing out from
        the table. ``blank``: no pip on it, so the shape alone must convince."""
        sides = [
            np.array(
                [c for depth in self._face_colours(divider, sign) for c in depth], np.float32
            ).reshape(-1, 3)
            for sign in (-1, 1)
        ]
        # a face is mostly plain surface, grain or a pattern is not; a half full of pips (an
        # 8, a 9) leaves fewer plain spots, the other half of a tile rarely does too
        fewer, more = sorted(len(side) for side in sides)
        if fewer < PLAIN_SPOTS[0] or more < PLAIN_SPOTS[1]:
            return False
        medians = [np.median(s, axis=0) for s in sides]
        spread = max(
            float(np.median(np.abs(s[:, 0] - m[0]))) for s, m in zip(sides, medians, strict=True)
        )
        return float(np.linalg.norm(medians[0] - medians[1])) < FACE_COLOUR_STEP and spread < 20

    def stands_out(self, divider: Blob) -> bool:
        """Whether the would-be tile has edges: on at least :data:`EDGES_SEEN` of its four
        sides, the face just inside differs in colour from what lies just outside (a tile
        touching another shares a side with it; a stripe of wood grain, a knot or a crease
        has the same surface all around, which is how a phantom double-blank was made)."""
        width = divider.length / DIVIDER_SPAN
        ax, ay = math.cos(divider.angle), math.sin(divider.angle)
        height, breadth = self.plain.shape
        seen = 0
        # (half-extent along the divider, across it) of each side, in tile widths
        for su, sv in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            rings = []
            for reach in EDGE_RINGS:
                spots = []
                for t in EDGE_SPOTS:
                    u = (su * 0.5 * reach + (t * 0.5 if su == 0 else 0)) * width
                    v = (sv * 1.0 * reach + (t * 1.0 if sv == 0 else 0)) * width
                    x, y = int(divider.x + u * ax - v * ay), int(divider.y + u * ay + v * ax)
                    if 0 <= x < breadth and 0 <= y < height:
                        spots.append((y, x))
                rings.append(spots)
            seen += self._edge(rings[0] + rings[1], rings[2] + rings[3])
        return seen >= EDGES_SEEN

    def covered(self, divider: Blob, tile: TileRead) -> float:
        """The larger share (0-1) of either half of ``tile``'s face, its counted pips and
        ``divider`` left out, that marks cover (:data:`COVER_SPOTS`; spots off the photo not
        counted; nor the face's corners, :data:`FACE_CORNER`). A tile's face is plain around its
        pips; a stick lying over a 6-2 hid four pips and ran into them, and the rest read a
        sure 2-2. Each half is judged alone: a stick over one pip of a 1-1 covered a fifth of
        that half but a tenth of the face (the other half plain), and the 1-1 read a sure
        1-0."""
        width = divider.length / DIVIDER_SPAN
        (along, n_along), (across, n_across) = COVER_SPOTS
        u, v = np.meshgrid(
            np.linspace(-along, along, n_along) * width,
            np.linspace(-across, across, n_across) * width,
        )
        ax, ay = math.cos(divider.angle), math.sin(divider.angle)
        x, y = divider.x + u * ax - v * ay, divider.y + u * ay + v * ax
        keep = np.abs(v) >= divider.thickness / 2 + 0.08 * width  # the divider and its pin
        # the corners left out, as for pips (_on_face): the outline is drawn from the
        # divider's length, and there the table showed past a plain 8-0's blank end
        keep &= (np.abs(u) <= FACE_CORNER[0] * width) | (np.abs(v) <= FACE_CORNER[1] * width)
        for pip in tile.pips:
            keep &= (x - pip.x) ** 2 + (y - pip.y) ** 2 >= (1.5 * pip.r) ** 2
        height, breadth = self.plain.shape
        keep &= (x >= 0) & (x < breadth) & (y >= 0) & (y < height)
        shares = [0.0]
        for half in (keep & (v < 0), keep & (v > 0)):
            if half.any():
                shares.append(float((~self.plain[y[half].astype(int), x[half].astype(int)]).mean()))
        return max(shares)

    def _face_colours(self, divider: Blob, sign: int) -> list[list[np.ndarray]]:
        """The Lab colours of the plain spots (pips left out) on one side (``sign``: -1 or 1)
        of ``divider``'s would-be tile, at each depth of :data:`FACE_SAMPLES_ACROSS`, five
        along the divider each."""
        width = divider.length / DIVIDER_SPAN
        ax, ay = math.cos(divider.angle), math.sin(divider.angle)
        height, breadth = self.plain.shape
        depths = []
        for v in FACE_SAMPLES_ACROSS:
            colours = []
            for u in (-0.36, -0.18, 0.0, 0.18, 0.36):
                x = int(divider.x + u * width * ax - sign * v * width * ay)
                y = int(divider.y + u * width * ay + sign * v * width * ax)
                if 0 <= x < breadth and 0 <= y < height and self.plain[y, x]:
                    colours.append(self.lab[y, x])
            depths.append(colours)
        return depths

    def steady_in_depth(self, divider: Blob) -> bool:
        """Whether each side of ``divider`` is one colour from the divider out to its end: at
        each inner depth of :data:`FACE_SAMPLES_ACROSS` with 3 plain spots or more (pips or the
        photo's border hide the rest), their median colour lies within
        :data:`SURROUND_STEP` (Lab) of every other depth's. A tile's face is; stripes running
        along the divider are not, and they fake the two ends' edges (a 0-0 was offered on a
        striped cloth). Asked of a would-be 0-0 alone: a tile with pips has them to show it is
        one, and a glint on a 7-0's blank half, or an 8-0's at 0.5x, dropped the tile."""
        for sign in (-1, 1):
            # the outermost depth is left out: on a tile only 1.5 times as long as wide, its
            # width judged a little large, it lies on the table (a 9-0 was dropped so)
            depths = [
                np.median(np.array(colours, np.float32), axis=0)
                for colours in self._face_colours(divider, sign)[:-1]
                if len(colours) >= 3
            ]
            for i, first in enumerate(depths):
                if any(np.linalg.norm(first - other) >= SURROUND_STEP for other in depths[i + 1 :]):
                    return False
        return True

    def _edge(self, inside: list[tuple[int, int]], outside: list[tuple[int, int]]) -> bool:
        """Whether one side shows an edge: the face's plain spots just inside (pips left out)
        are one steady colour, and nearly all spots just outside differ from it by at least
        :data:`SURROUND_STEP`. The outside need not be steady (a checked cloth, a
        neighbour's pips); grain around a patch of grain has spots of the patch's colour."""
        face = [self.lab[y, x] for y, x in inside if self.plain[y, x]]
        if len(face) < 5 or len(outside) < 5:
            return False  # pips or the photo's border hide this side: it says nothing
        colours = np.array(face, np.float32)
        middle = np.median(colours, axis=0)
        if float(np.median(np.linalg.norm(colours - middle, axis=1))) >= SURROUND_STEP / 2:
            return False  # not one surface: grain, a pattern
        around = np.array([self.lab[y, x] for y, x in outside], np.float32)
        steps = np.linalg.norm(around - middle, axis=1)
        return float(np.mean(steps >= SURROUND_STEP)) >= EDGE_SHARE


def _read_polarity(
    blobs: list[Blob], max_pips: int, face: _Face, expected: float
) -> list[TileRead]:
    """Tiles around the dividers among ``blobs``, each with the round blobs on its halves;
    ``expected``: the dividers' length (pixels) the first look found."""
    pips = [b for b in blobs if _is_pip_shape(b)]
    dividers = _usual_size(_bars(blobs, expected=expected), pips, expected)
    claimed: set[int] = set()
    tiles: list[TileRead] = []
    for divider in _fewest_rivals_first(dividers, blobs, pips, max_pips, face):
        tile = _tile_if_one(divider, blobs, pips, claimed, max_pips, face)
        if tile is None:
            continue
        if _overlaps_any(tile, tiles):
            continue  # a seam between two touching tiles, or a tile found twice
        if tile.sure and (divider.under or face.covered(divider, tile) > COVERED):
            # something lies over it and may hide pips: the player says (asked only once the
            # tile is taken, so that which tiles are taken stays as it was)
            tile = replace(tile, confidence=highest_unsure(tile.halves or (0, 0), SURE))
        if tile.read:  # only a tile kept claims its pips, so a seam cannot take a tile's
            claimed.update(
                i for i, p in enumerate(pips) if Pip(p.x, p.y, p.diameter / 2) in tile.pips
            )
        tiles.append(tile)
    return tiles


def _tile_if_one(
    divider: Blob,
    blobs: list[Blob],
    pips: list[Blob],
    claimed: set[int],
    max_pips: int,
    face: _Face,
) -> TileRead | None:
    """The tile around ``divider`` (its pips not among ``claimed``), or None when what lies
    around it is not a tile's face: a logo, a surface unlike a tile's, grain or stripes."""
    marks = _foreign_marks(divider, blobs)
    if not all(_stick_on_face(mark, divider) for mark in marks):
        return None  # a logo or a picture: the back of a tile, or not a tile at all
    tile = _tile_at(divider, pips, claimed, max_pips)
    if tile is None or not face.looks_like_tile(divider, blank=not tile.pips):
        return None
    asked = bool(marks)  # a stick lies over the face and may hide pips
    if _needs_edges(tile) and not face.stands_out(divider):
        if not _reads_without_edges(tile):
            return None  # a blank half with no tile edge around it: grain, a knot, a crease
        asked = True  # a tile the colour of the table: its pips say it is one, the player too
    if tile.halves == (0, 0) and not face.steady_in_depth(divider):
        return None  # stripes along the divider, whose own edges passed for the tile's
    if asked and tile.sure and tile.halves is not None:
        tile = replace(tile, confidence=highest_unsure(tile.halves, SURE))
    return tile


def _reads_without_edges(tile: TileRead) -> bool:
    """Whether ``tile``, whose edges do not show (a green tile on a green cloth, a red one on
    a red table), is read well enough to be offered anyway, asked: sure from its pips alone
    (standard patterns, one size) and at least :data:`EDGELESS_PIPS` of them. A 5-0 and a
    3-1 were dropped without a word for want of edges."""
    return tile.sure and tile.halves is not None and sum(tile.halves) >= EDGELESS_PIPS


def _fewest_rivals_first(
    dividers: list[Blob], blobs: list[Blob], pips: list[Blob], max_pips: int, face: _Face
) -> list[Blob]:
    """``dividers`` in the order their tiles are taken: those whose would-be tile covers
    the fewest other would-be tiles first, each counted by its confidence (0-1), the given
    order among equals. The seam between two touching tiles looks like a divider, and its
    would-be tile (half of each) lies over both real ones, while each real one lies over
    the seam's and the other seams' (read unsure, halves of pips of two tiles): taken first,
    a seam kept a 5-1 out and made it a sure 1-0."""
    found = [(d, _tile_if_one(d, blobs, pips, set(), max_pips, face)) for d in dividers]
    others = [(np.array(t.corners, np.float32), t.confidence) for _, t in found if t is not None]

    def rivals(tile: TileRead | None) -> float:
        if tile is None:
            return 0.0  # not a tile on its own: its turn changes nothing
        own = np.array(tile.corners, np.float32)
        area = max(cv2.contourArea(own), 1.0)
        return sum(
            sure
            for other, sure in others
            if cv2.intersectConvexConvex(own, other)[0] > RIVAL_SHARE * area
            and not np.array_equal(other, own)
        )

    order = sorted(range(len(found)), key=lambda i: rivals(found[i][1]))
    return [found[i][0] for i in order]


def _needs_edges(tile: TileRead) -> bool:
    """Whether the tile is one grain, knots or a crease can fake: a blank half, or few pips
    (a knot either side of a stripe of grain is a 1-1)."""
    return _has_blank_half(tile) or (tile.halves is not None and sum(tile.halves) <= FAKEABLE)


def _has_blank_half(tile: TileRead) -> bool:
    """Whether a half of the tile shows no pip: what a stripe of grain between two plain
    patches looks like, so such a tile must also show its edges."""
    return tile.halves is not None and min(tile.halves) == 0


def _usual_size(bars: list[Blob], pips: list[Blob], expected: float | None = None) -> list[Blob]:
    """The bars about as long as the typical divider (all tiles of a set are the same size,
    seen at about the same distance); much longer bars are tile edges or pens, much shorter
    ones scratches or grain. The typical one agrees in length with the most other bars that
    have pips around them, then has the most pips of the usual size for its length (a pip is
    about a fifth of a divider across), then is nearest the ``expected`` length (pixels) when
    one is known: a lone double-blank has no pip to tell it from a pen or a crease. Nearest
    their median length first: a tile found first keeps its place, and the seam between two
    tiles lying long side to long side, split in two where their dividers meet it, gives two
    bars a little longer than a divider, whose would-be tiles straddle both real ones."""
    if len(bars) < 2:
        return bars
    low, high = SAME_SIZE
    support = [_support(b, pips) for b in bars]
    floor = min(2, max(support))
    backed = [b for b, n in zip(bars, support, strict=True) if n >= floor]

    def score(bar: Blob) -> tuple[int, float, float]:
        agreeing = sum(1 for b in backed if low * bar.length <= b.length <= high * bar.length)
        sizes = np.array([p.diameter / bar.length for p in _pips_on(bar, pips)])
        # each pip counts by how close its size is to the usual one for this bar
        fit = float(np.exp(-(((sizes - USUAL_PIP) / 0.08) ** 2)).sum())
        return agreeing, fit, -abs(math.log(bar.length / expected)) if expected else 0.0

    typical = max(backed, key=score).length
    usual = [b for b in bars if low * typical <= b.length <= high * typical]
    middle = float(np.median([b.length for b in usual]))
    return sorted(usual, key=lambda b: abs(math.log(b.length / middle)))


def _support(divider: Blob, pips: list[Blob]) -> int:
    """How many round blobs of a pip's size for ``divider`` lie on its would-be tile; none
    when a side holds more than any half can (:data:`MAX_HALF`): the squares of a checked
    cloth around a pen are not pips."""
    found = _pips_on(divider, pips)
    first = sum(1 for p in found if divider.along_across(p.x, p.y)[1] < 0)
    return len(found) if max(first, len(found) - first) <= MAX_HALF else 0


def _pip_sizes(divider: float) -> tuple[float, float]:
    """The smallest and the biggest diameter (pixels) a pip may have on a tile whose divider
    is ``divider`` pixels long (:data:`PIP_SIZE`)."""
    return PIP_SIZE[0] * divider, PIP_SIZE[1] * divider


def _on_face(u: float, v: float, width: float) -> bool:
    """Whether a point ``u`` along and ``v`` across a divider (pixels) is where a pip of that
    tile can be: pips keep clear of the tile's edges (a margin that also keeps a touching
    neighbour's pips out when the tile's width is misjudged a little), and out of its corners
    (:data:`FACE_CORNER`: a 1-1 at 3x was dropped for two flecks of its shadow there)."""
    in_corner = abs(u) > FACE_CORNER[0] * width and abs(v) > FACE_CORNER[1] * width
    return abs(u) <= FACE_REACH[0] * width and abs(v) <= FACE_REACH[1] * width and not in_corner


def _pips_on(divider: Blob, pips: list[Blob]) -> list[Blob]:
    """The round blobs of a pip's size for ``divider`` on its would-be tile."""
    width = divider.length / DIVIDER_SPAN
    low, high = _pip_sizes(divider.length)
    found = []
    for pip in pips:
        u, v = divider.along_across(pip.x, pip.y)
        if low <= pip.diameter <= high and _on_face(u, v, width):
            found.append(pip)
    return found


def _foreign_marks(divider: Blob, blobs: list[Blob]) -> list[Blob]:
    """The marks bigger than any pip (a letter of a logo, an edge, a stick's piece) that lie
    on the would-be tile's face, away from the divider."""
    width = divider.length / DIVIDER_SPAN
    biggest_pip = _pip_sizes(divider.length)[1] ** 2 * math.pi / 4
    marks = []
    for blob in blobs:
        if blob.area <= biggest_pip or blob.area < 0.35 * blob.length * blob.thickness:
            continue  # pip-sized, or a thin outline (a tile's shadow along two edges)
        if blob.length > TILE_LONGER * width:
            continue  # longer than a tile: a shadow run into the dark squares of a cloth
        u, v = divider.along_across(blob.x, blob.y)
        if _runs_off_face(blob, divider, u, v, width):
            continue  # the table around the tile: a dark square of a cloth at its end
        if abs(u) < 0.4 * width and divider.thickness < abs(v) < 0.85 * width:
            marks.append(blob)
    return marks


def _stick_on_face(blob: Blob, divider: Blob) -> bool:
    """Whether ``blob``, a mark on ``divider``'s would-be tile, is the piece of a stick or a
    pen lying over the face: long and thin (:data:`STICK_ASPECT`) and running out to the
    face's edge (:data:`TO_EDGE`), where the stick, darker than the face but not than the
    table, stops showing. A logo's letters lie inside the face. A stick over a 1-1's half
    made the tile a face-down one's and it was dropped; now the tile is asked."""
    if blob.length < STICK_ASPECT * blob.thickness:
        return False
    width = divider.length / DIVIDER_SPAN
    u, v = divider.along_across(blob.x, blob.y)
    turn = blob.angle - divider.angle
    cos, sin = abs(math.cos(turn)), abs(math.sin(turn))
    reach_u = abs(u) + cos * blob.length / 2 + sin * blob.thickness / 2
    reach_v = abs(v) + sin * blob.length / 2 + cos * blob.thickness / 2
    return reach_v >= TO_EDGE * width or reach_u >= TO_EDGE * width / 2


def _runs_off_face(blob: Blob, divider: Blob, u: float, v: float, width: float) -> bool:
    """Whether ``blob``, whose centre lies ``u`` along and ``v`` across ``divider`` (pixels),
    reaches past the would-be tile's outline (``width`` wide, twice as long) by more than
    :data:`OFF_FACE` allows for a width misjudged: a mark printed on a face lies inside it.
    Its middle line's ends reach half its length along the way it lies, and half its
    thickness at least either way: a tile's own shadow running along its side, joined into
    one mark longer than the tile, is no logo on it (at 0.5x a 5-3 was dropped for one)."""
    turn = blob.angle - divider.angle
    half = blob.length / 2
    reach_u = max(blob.thickness / 2, abs(math.cos(turn)) * half)
    reach_v = max(blob.thickness / 2, abs(math.sin(turn)) * half)
    return abs(v) + reach_v > OFF_FACE * width or abs(u) + reach_u > OFF_FACE * width / 2


def _tile_at(divider: Blob, pips: list[Blob], claimed: set[int], max_pips: int) -> TileRead | None:
    """The tile whose divider is ``divider``: its outline and the pips on each half."""
    width = divider.length / DIVIDER_SPAN
    ax, ay = math.cos(divider.angle), math.sin(divider.angle)  # along the divider
    nx, ny = -ay, ax  # across it, towards one half
    low, high = _pip_sizes(divider.length)
    halves: tuple[list[tuple[int, Blob]], list[tuple[int, Blob]]] = ([], [])
    for index, pip in enumerate(pips):
        if index in claimed or not low <= pip.diameter <= high:
            continue
        u, v = divider.along_across(pip.x, pip.y)
        if not _on_face(u, v, width):
            continue
        if abs(v) < divider.thickness / 2 + 0.45 * pip.diameter:
            continue  # on the divider: the centre pin (spinner), not a pip
        halves[0 if v < 0 else 1].append((index, pip))
    halves = _without_specks(halves, divider)
    found = [p for _, p in halves[0] + halves[1]]
    left_out = False
    if not _halves_centred(halves, divider, width):
        centred = _centred_without_stray(halves, divider, width) or _centred_without_corner(
            halves, divider, width
        )
        if centred is None:
            return None
        halves, left_out = centred, True
    corners = _outline(divider.x, divider.y, (ax, ay), (nx, ny), width)
    marks = tuple(Pip(p.x, p.y, p.diameter / 2) for p in found)
    problem = _why_unreadable(halves, found, max_pips)
    patterned = problem is Unread.MIXED_PIP_SIZES and _patterned(halves, divider)
    if problem and not patterned:
        return TileRead(corners, None, marks, 0.0, problem)
    regularity = _regularity(found, [[p for _, p in half] for half in halves], divider)
    counted = (len(halves[0]), len(halves[1]))
    share = confidence(regularity, counted)
    if left_out or patterned:  # read only by leaving a mark out, or by counting a mark of
        # another size: the player says whether it was a pip
        share = min(share, highest_unsure(counted, SURE))
        marks = tuple(Pip(p.x, p.y, p.diameter / 2) for _, p in halves[0] + halves[1])
    if share < SURE:  # the guess shown for a tap: a mark breaking a pattern left out
        halves = _without_stray(halves, divider)
        counted = (len(halves[0]), len(halves[1]))
        marks = tuple(Pip(p.x, p.y, p.diameter / 2) for _, p in halves[0] + halves[1])
    return TileRead(corners, counted, marks, share, None, regularity)


def _usual_pip(halves: tuple[list[tuple[int, Blob]], list[tuple[int, Blob]]]) -> float | None:
    """The median diameter (pixels) of the marks on a tile's two halves, or None with fewer
    than three marks (too few to tell which size is the usual one)."""
    sizes = sorted(p.diameter for _, p in halves[0] + halves[1])
    return sizes[len(sizes) // 2] if len(sizes) >= 3 else None


def _without_specks(
    halves: tuple[list[tuple[int, Blob]], list[tuple[int, Blob]]], divider: Blob
) -> tuple[list[tuple[int, Blob]], list[tuple[int, Blob]]]:
    """``halves`` without specks: marks under :data:`SPECK` times the tile's usual pip
    across (JPEG noise, a glint at the edge of a tile's shadow). Every pip of a tile has one
    size, so such a mark is no pip; left in, it made the whole tile unread (pips of mixed
    sizes). With two marks, the usual one is the mark nearer a pip's usual size for the
    divider (:data:`USUAL_PIP`): a 1-0 at 3x had a glint at its corner, and the tile was
    dropped (its blank half's "pip" off the half's middle)."""
    usual = _usual_pip(halves) or _nearer_usual(halves, divider)
    if usual is None:
        return halves
    return (
        [(i, p) for i, p in halves[0] if p.diameter >= SPECK * usual],
        [(i, p) for i, p in halves[1] if p.diameter >= SPECK * usual],
    )


def _nearer_usual(
    halves: tuple[list[tuple[int, Blob]], list[tuple[int, Blob]]], divider: Blob
) -> float | None:
    """Of a tile's two marks, the diameter (pixels) of the one nearer a pip's usual size for
    ``divider``; None unless there are exactly two."""
    marks = [p for _, p in halves[0] + halves[1]]
    if len(marks) != 2:
        return None
    expected = USUAL_PIP * divider.length
    return min((p.diameter for p in marks), key=lambda d: abs(math.log(d / expected)))


def _without_stray(halves: Halves, divider: Blob) -> Halves:
    """``halves`` without the one mark that keeps a half from a standard pattern, when there
    is one: its size is at least :data:`STRAY_SIZE` times off the tile's usual pip (a glint,
    a fleck of the table at the tile's edge), the half is not symmetric with it and is
    without it. Only the guess changes: the caller keeps the tile's low confidence, so it
    still waits for a tap. With none such, or fewer than three marks, ``halves`` as they are.
    """
    usual = _usual_pip(halves)
    if usual is None:
        return halves

    def fits(side: int, kept: Halves) -> bool:
        marks = [p for _, p in halves[side]]
        if len(marks) < 2 or _in_pattern(marks, divider):
            return False
        return _in_pattern([p for _, p in kept[side]], divider)

    return _farthest_stray(halves, usual, fits) or halves


def _centred_without_stray(halves: Halves, divider: Blob, width: float) -> Halves | None:
    """``halves`` without the one mark that keeps a half's pips off the half's middle, when
    its size is at least :data:`STRAY_SIZE` times off the tile's usual pip (a speck on a
    blank half, blurred larger on a small photo than :data:`SPECK`) and both halves are
    standard patterns without it, or None when there is none such: a tile read sure at one
    size was dropped at half size for such a speck. The caller keeps the tile below
    ``SURE``, so it waits for a tap."""
    usual = _usual_pip(halves)
    if usual is None:
        return None

    def fits(_side: int, kept: Halves) -> bool:
        patterned = all(_in_pattern([p for _, p in h], divider) for h in kept if h)
        return patterned and _halves_centred(kept, divider, width)

    return _farthest_stray(halves, usual, fits)


def _centred_without_corner(halves: Halves, divider: Blob, width: float) -> Halves | None:
    """``halves`` without the one mark whose disc reaches into a corner of the face
    (:data:`FACE_CORNER`), where no pip lies but the table shows past the outline (drawn from
    the divider's length, a little off at times), when both halves are standard patterns
    around their middles without it; None when there is none such. A 4-0's blank half held
    such a wedge of table, a pip's size at 0.5x, and the tile was dropped without a word. The
    caller keeps the tile below ``SURE``, so it waits for a tap."""
    for side, half in enumerate(halves):
        for k, (_, mark) in enumerate(half):
            u, v = divider.along_across(mark.x, mark.y)
            radius = mark.diameter / 2
            if abs(u) + radius <= FACE_CORNER[0] * width:
                continue
            if abs(v) + radius <= FACE_CORNER[1] * width:
                continue
            kept = _without_mark(halves, side, k)
            patterned = all(_in_pattern([p for _, p in h], divider) for h in kept if h)
            if patterned and _halves_centred(kept, divider, width):
                return kept
    return None


def _farthest_stray(
    halves: Halves, usual: float, fits: Callable[[int, Halves], bool]
) -> Halves | None:
    """``halves`` without the mark farthest off ``usual`` (a pip's diameter, px) in size, of
    those at least :data:`STRAY_SIZE` times off it whose leaving out ``fits`` (the half it
    was in, and the halves without it); None when there is none such."""
    best: tuple[float, int, int] | None = None  # how far off in size, half, place in half
    for side, half in enumerate(halves):
        for k, (_, mark) in enumerate(half):
            off = abs(math.log(mark.diameter / usual))
            if off >= math.log(STRAY_SIZE) and fits(side, _without_mark(halves, side, k)):
                best = max(best or (off, side, k), (off, side, k))
    if best is None:
        return None
    _, side, k = best
    return _without_mark(halves, side, k)


def _without_mark(halves: Halves, side: int, k: int) -> Halves:
    """``halves`` with the ``k``-th mark of half ``side`` (0 or 1) left out."""
    kept = [half if i != side else half[:k] + half[k + 1 :] for i, half in enumerate(halves)]
    return kept[0], kept[1]


def _patterned(halves: Halves, divider: Blob) -> bool:
    """Whether every half with marks lies as a standard pattern does, each mark mirrored
    through the half's centre: then a mark of another size completes the pattern (a pip run
    into the divider on a small photo, seen smaller), and the tile is offered as read with
    it, never sure, instead of unread (a 7-6 at half size was a "?" for one such pip)."""
    return all(_in_pattern([p for _, p in half], divider) for half in halves if half)


def _in_pattern(half: list[Blob], divider: Blob) -> bool:
    """Whether a half's pips lie as a standard pattern does: one pip in the half's middle
    along the divider, or every pip mirrored through the half's centre."""
    if len(half) == 1:
        u, _ = divider.along_across(half[0].x, half[0].y)
        return abs(u) <= 0.6 * half[0].diameter  # the mirror test's tolerance
    return _symmetric_share(half, divider) == 1.0


def _halves_centred(
    halves: tuple[list[tuple[int, Blob]], list[tuple[int, Blob]]], divider: Blob, width: float
) -> bool:
    """Whether each half's pips sit around the middle of that half, as every standard pattern
    does (one pip in the middle, two or more in pairs mirrored through it). Knots on either
    side of a stripe of wood grain lie anywhere along it."""
    for half in halves:
        if not half:
            continue
        us, vs = zip(*(divider.along_across(p.x, p.y) for _, p in half), strict=True)
        u, v = abs(float(np.mean(us))), abs(float(np.mean(vs)))
        if u > HALF_MIDDLE[0] * width or not HALF_MIDDLE[1] <= v / width <= HALF_MIDDLE[2]:
            return False
    return True


def _why_unreadable(halves: tuple[list, list], found: list[Blob], max_pips: int) -> Unread | None:
    """A reason not to trust the count, or None when it can be given."""
    if any(len(h) > max_pips for h in halves):
        return Unread.TOO_MANY_PIPS
    if found:
        sizes = [p.diameter for p in found]
        if max(sizes) > PIP_SIZE_SPREAD * min(sizes):
            return Unread.MIXED_PIP_SIZES
    return None


def _regularity(found: list[Blob], halves: list[list[Blob]], divider: Blob) -> float:
    """0-1: how regular the pips are (not yet a probability: :mod:`.calibration` turns it into
    one). Standard pip patterns are symmetric about the middle of their half; a stray mark, or
    a pip missed, breaks that symmetry."""
    if not found:
        return 0.9  # a double-blank: nothing to check but the divider
    sizes = np.array([p.diameter for p in found])
    spread = float(sizes.std() / sizes.mean()) if len(sizes) > 1 else 0.0
    symmetric = np.mean([_symmetric_share(h, divider) for h in halves if h] or [1.0])
    return round(max(0.0, min(1.0, float(symmetric) - spread)), 2)


def _symmetric_share(half: list[Blob], divider: Blob) -> float:
    """The share of a half's pips that have a mirror image through the half's centre. Along
    the divider that centre is the divider's middle, not the pips' own mean: two pips of a
    3 with the third missed are symmetric about their own mean, and would pass for a 2."""
    if len(half) < 2:
        return 1.0
    us, vs = np.array([divider.along_across(p.x, p.y) for p in half]).T
    across = vs.mean()  # the tile's length is less sure than its divider
    tolerance = 0.6 * np.mean([p.diameter for p in half])
    hits = 0
    for u, v in zip(us, vs, strict=True):
        if np.min(np.hypot(us + u, vs - (2 * across - v))) <= tolerance:
            hits += 1
    return hits / len(half)


def _outline(
    x: float, y: float, along: tuple[float, float], across: tuple[float, float], width: float
) -> Quad:
    """The 2:1 rectangle of a tile ``width`` wide centred on its divider."""

    def corner(su: int, sv: int) -> Point:
        return (
            x + su * along[0] * width / 2 + sv * across[0] * width,
            y + su * along[1] * width / 2 + sv * across[1] * width,
        )

    return (corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1))


def _overlaps_any(tile: TileRead, others: list[TileRead]) -> bool:
    """Whether ``tile``'s centre lies inside another tile already found."""
    cx, cy = tile.centre
    for other in others:
        contour = np.array(other.corners, dtype=np.float32)
        if cv2.pointPolygonTest(contour, (cx, cy), False) >= 0:
            return True
    return False
