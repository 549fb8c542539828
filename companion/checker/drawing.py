"""Coordinates for drawing a layout as it lies on the table (pure: no Flask, no SVG text).

The centre double (hub) lies in the middle; its K spokes leave it at evenly spaced angles, the
first straight up. A tile continues the line of the tile it is laid on. A double off the centre
(a chicken foot) lies crosswise, and its toes fan out from it like a chicken's foot. Open ends
get a round marker with the number a tile must show there.

Units are SVG user units: a tile is :data:`LENGTH` x :data:`WIDTH` (2:1). Angles are degrees,
clockwise from the positive x axis (SVG's y axis points down), 0 = pointing right.
Templates render a :class:`Drawing` (see templates/checker/_layout_svg.html).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine import CENTER, Layout, Tile

LENGTH = 40.0
WIDTH = 20.0
GAP = 2.0
MARKER_R = 12.0
FAN = 60.0  # the toes of a chicken foot spread over this many degrees
FOOT_GAP = 5.0  # between a foot and its toes (room for the slanted toes' corners)
CAPTION_HALF_WIDTH = 62.0  # half the width of a reason code written above a red tile
CAPTION_RISE = 16.0
MIN_VIEW = 260.0  # the narrowest picture, in units (about 6 tiles)
SCALE = 1.25  # CSS pixels per unit: a tile is 50 x 25 px on any screen; a bigger layout scrolls
HIT_R = 20.0  # radius of an open end's tap target: 2 x 20 x SCALE = 50 px >= 44 px


@dataclass(frozen=True, slots=True)
class Label:
    """A number written at (x, y), upright."""

    x: float
    y: float
    number: int


@dataclass(frozen=True, slots=True)
class TileShape:
    """One tile: centre (x, y), rotation ``angle`` of its long side, and its two numbers.

    ``state`` is ``""`` for a tile on the table, ``"centre"`` for the hub, ``"illegal"`` or
    ``"legal"`` for a move being asked about, ``"refused"`` for the first impossible placement
    of a refused position. ``kind`` is ``hub``, ``foot`` (a double off the centre) or ``tile``.
    """

    id: str
    text: str
    x: float
    y: float
    angle: float
    labels: tuple[Label, Label]
    kind: str = "tile"
    state: str = ""

    @property
    def caption_y(self) -> float:
        """Where a caption just above the tile goes (its top edge, whatever its rotation)."""
        rad = math.radians(self.angle)
        return self.y - abs(math.sin(rad)) * LENGTH / 2 - abs(math.cos(rad)) * WIDTH / 2 - 4

    @property
    def transform(self) -> str:
        """The SVG ``transform`` attribute placing a tile drawn around (0, 0)."""
        return f"translate({self.x:.1f} {self.y:.1f}) rotate({self.angle:.1f})"


@dataclass(frozen=True, slots=True)
class EndMarker:
    """An open end: where a tile may go (``on`` its id) and the number it must show.

    ``playable``: a move may use it now (spoke and foot phases, RULES.md §5.2, §5.4);
    ``highlight``: a legal place for the tile asked about.
    """

    on: str
    number: int
    x: float
    y: float
    playable: bool = True
    highlight: bool = False


@dataclass(slots=True)
class Drawing:
    """Everything to draw, and the ``viewbox`` (min x, min y, width, height) around it."""

    tiles: list[TileShape] = field(default_factory=list)
    ends: list[EndMarker] = field(default_factory=list)
    overlay: list[TileShape] = field(default_factory=list)  # drawn last: asked or refused
    viewbox: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)

    @property
    def viewbox_attr(self) -> str:
        """The SVG ``viewBox`` attribute."""
        return " ".join(f"{v:.1f}" for v in self.viewbox)

    @property
    def size_px(self) -> tuple[int, int]:
        """(width, height) in CSS pixels: the drawing keeps its scale and grows (its box
        scrolls) instead of shrinking tiles and tap targets on a deep layout."""
        return round(self.viewbox[2] * SCALE), round(self.viewbox[3] * SCALE)


@dataclass(frozen=True, slots=True)
class _Slot:
    """Where the next child of a tile starts (x, y) and the direction it grows."""

    x: float
    y: float
    angle: float


def _unit(angle: float) -> tuple[float, float]:
    rad = math.radians(angle)
    return math.cos(rad), math.sin(rad)


def _along(x: float, y: float, angle: float, distance: float) -> tuple[float, float]:
    dx, dy = _unit(angle)
    return x + dx * distance, y + dy * distance


class _Geometry:
    """Places tiles one by one, remembering each tile's shape and its children's slots."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.shapes: dict[str, TileShape] = {}
        self.counts: dict[str, int] = {}
        k = max(1, layout.spokes_required)
        self.hub_radius = max(26.0, (WIDTH / 2 + 1) / math.sin(math.pi / max(k, 2)))
        hub_labels = (Label(-LENGTH / 4, 0, layout.hub), Label(LENGTH / 4, 0, layout.hub))
        self.shapes[CENTER] = TileShape(
            CENTER, str(layout.center), 0.0, 0.0, 0.0, hub_labels, "hub", "centre"
        )

    def slot(self, on: str, index: int) -> _Slot:
        """Where the ``index``-th child of ``on`` starts."""
        if on == CENTER:
            k = max(1, self.layout.spokes_required)
            angle = -90.0 + index * 360.0 / k
            x, y = _along(0.0, 0.0, angle, self.hub_radius)
            return _Slot(x, y, angle)
        shape = self.shapes[on]
        if shape.kind == "foot":
            # toes leave the double's outer side from its left end, middle and right end, each
            # turned outwards by its share of the fan: a chicken's foot
            toes = max(1, self.layout.toes_required)
            base = shape.angle - 90.0  # a foot lies crosswise to its line
            share = 0.0 if toes == 1 else index / (toes - 1) - 0.5  # -0.5 .. 0.5
            angle = base + share * FAN
            x, y = _along(shape.x, shape.y, base, WIDTH / 2 + FOOT_GAP)
            x, y = _along(x, y, base + 90.0, share * (LENGTH + 2 * GAP))
            return _Slot(x, y, angle)
        x, y = _along(shape.x, shape.y, shape.angle, LENGTH / 2 + GAP)
        return _Slot(x, y, shape.angle)

    def shape_at(
        self, tile_id: str, touching: int, outer: int, slot: _Slot, state: str = ""
    ) -> TileShape:
        """The shape of a tile laid at ``slot``, touching end first."""
        if touching == outer and tile_id != CENTER:
            x, y = _along(slot.x, slot.y, slot.angle, WIDTH / 2)
            px, py = _unit(slot.angle + 90.0)
            labels = (
                Label(x - px * LENGTH / 4, y - py * LENGTH / 4, touching),
                Label(x + px * LENGTH / 4, y + py * LENGTH / 4, outer),
            )
            return TileShape(
                tile_id, f"{touching}-{outer}", x, y, slot.angle + 90.0, labels, "foot", state
            )
        x, y = _along(slot.x, slot.y, slot.angle, LENGTH / 2)
        dx, dy = _unit(slot.angle)
        labels = (
            Label(x - dx * LENGTH / 4, y - dy * LENGTH / 4, touching),
            Label(x + dx * LENGTH / 4, y + dy * LENGTH / 4, outer),
        )
        return TileShape(tile_id, f"{touching}-{outer}", x, y, slot.angle, labels, "tile", state)

    def place(self, tile_id: str, on: str, touching: int, outer: int) -> TileShape:
        """Lay a tile on ``on`` in its next free slot; where it would lie over a tile already
        drawn, its line bends (the smallest turn that is clear, either way) so that no two
        tiles overlap on a deep layout, as players bend a line that runs into another."""
        index = self.counts.get(on, 0)
        self.counts[on] = index + 1
        slot = self.slot(on, index)
        shape = self._clear_shape(tile_id, touching, outer, slot)
        self.shapes[tile_id] = shape
        return shape

    def _clear_shape(self, tile_id: str, touching: int, outer: int, slot: _Slot) -> TileShape:
        """The first shape at ``slot`` (turned by BENDS, then further out by STRETCH) that
        overlaps no tile drawn so far; the straight one when none is clear."""
        others = list(self.shapes.values())
        for gap in STRETCH:
            for turn in BENDS:
                angle = slot.angle + turn
                x, y = _along(slot.x, slot.y, angle, gap)
                shape = self.shape_at(tile_id, touching, outer, _Slot(x, y, angle))
                if not any(_overlap(shape, other) for other in others):
                    return shape
        return self.shape_at(tile_id, touching, outer, slot)

    def marker(self, on: str, index: int, number: int, playable: bool) -> EndMarker:
        """The open-end marker for the ``index``-th child slot of ``on`` (a foot's markers sit
        further out, so that three fanned markers do not overlap)."""
        slot = self.slot(on, index)
        reach = MARKER_R + (6.0 if on != CENTER and self.shapes[on].kind == "foot" else 0.0)
        x, y = _along(slot.x, slot.y, slot.angle, reach)
        return EndMarker(on, number, x, y, playable)


#: degrees a line may turn to stay clear of the tiles already drawn, the smallest turn first
BENDS = tuple(sorted((15.0 * k for k in range(-10, 11)), key=lambda a: (abs(a), -a)))
STRETCH = (0.0, WIDTH, LENGTH, 2 * LENGTH, 3 * LENGTH)  # then a longer gap before it (units)


def _corners(t: TileShape, inset: float = 1.0) -> list[tuple[float, float]]:
    """The four corners of a tile (``inset`` units inside its edge: tiles may touch)."""
    dx, dy = _unit(t.angle)
    hl, hw = LENGTH / 2 - inset, WIDTH / 2 - inset
    return [
        (t.x + dx * a - dy * b, t.y + dy * a + dx * b)
        for a, b in ((hl, hw), (hl, -hw), (-hl, -hw), (-hl, hw))
    ]


def _overlap(a: TileShape, b: TileShape) -> bool:
    """True when two tiles overlap (separating axis test on their rectangles)."""
    if math.hypot(a.x - b.x, a.y - b.y) >= math.hypot(LENGTH, WIDTH):
        return False
    p, q = _corners(a), _corners(b)
    for poly in (p, q):
        for i in range(4):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % 4]
            nx, ny = y2 - y1, x1 - x2
            pa = [nx * x + ny * y for x, y in p]
            qa = [nx * x + ny * y for x, y in q]
            if max(pa) <= min(qa) or max(qa) <= min(pa):
                return False
    return True


def overlapping(drawing: Drawing) -> list[tuple[str, str]]:
    """Pairs of tile ids drawn over each other (none for any position, see tests)."""
    tiles = drawing.tiles
    return [(a.id, b.id) for i, a in enumerate(tiles) for b in tiles[i + 1 :] if _overlap(a, b)]


def _bounds(
    tiles: Iterable[TileShape], ends: Iterable[EndMarker]
) -> tuple[float, float, float, float]:
    xs: list[float] = []
    ys: list[float] = []
    half = math.hypot(LENGTH, WIDTH) / 2
    for t in tiles:
        # a tile being asked about or refused carries a caption above it: leave room for it
        wide = CAPTION_HALF_WIDTH if t.state in ("illegal", "refused") else half
        xs += [t.x - wide, t.x + wide]
        ys += [t.y - half - (CAPTION_RISE if t.state else 0.0), t.y + half]
    for e in ends:
        xs += [e.x - MARKER_R, e.x + MARKER_R]
        ys += [e.y - MARKER_R, e.y + MARKER_R]
    pad = 4.0
    min_x, min_y = min(xs) - pad, min(ys) - pad
    width, height = max(xs) + pad - min_x, max(ys) + pad - min_y
    # a small layout is shown at a table-like scale, not blown up to the screen's width
    if width < MIN_VIEW:
        min_x, width = min_x - (MIN_VIEW - width) / 2, MIN_VIEW
    if height < MIN_VIEW * 0.6:
        min_y, height = min_y - (MIN_VIEW * 0.6 - height) / 2, MIN_VIEW * 0.6
    return (min_x, min_y, width, height)


def draw_layout(
    layout: Layout,
    *,
    candidate: tuple[Tile, str, bool] | None = None,
    highlight: Iterable[str] = (),
    refused: tuple[str, str, str] | None = None,
) -> Drawing:
    """The drawing of ``layout``.

    Args:
        layout: the position (any Layout; phases are not checked here).
        candidate: ``(tile, on, legal)`` a move being asked about, drawn at ``on`` in green or
            red (an occupied or unknown target draws it beside the target's first slot).
        highlight: ids of open ends to highlight (the legal places for the candidate tile).
        refused: ``(id, on, "a-b")`` the first impossible placement of a refused position,
            drawn in red where it was claimed to lie.
    """
    geo = _Geometry(layout)
    tiles = [geo.shapes[CENTER]]
    for p in layout.placements:
        tiles.append(geo.place(p.id, p.on, p.touching, p.outer))
    playable = {e.on for e in layout.playable_targets()}
    wanted = set(highlight)
    ends = []
    for end in layout.open_ends():
        used = layout.children(end.on)
        for index in range(used, used + end.free):
            marker = geo.marker(end.on, index, end.number, end.on in playable)
            if end.on in wanted:
                marker = EndMarker(marker.on, marker.number, marker.x, marker.y, True, True)
            ends.append(marker)
    overlay = []
    if candidate is not None:
        tile, on, legal = candidate
        overlay.append(_ghost(geo, layout, tile, on, "legal" if legal else "illegal"))
    if refused is not None:
        tile_id, on, text = refused
        a, b = (int(v) for v in text.split("-"))
        overlay.append(_ghost(geo, layout, Tile.of(a, b), on, "refused", (a, b), tile_id))
    return Drawing(tiles, ends, overlay, _bounds([*tiles, *overlay], ends))


def _ghost(
    geo: _Geometry,
    layout: Layout,
    tile: Tile,
    on: str,
    state: str,
    ends: tuple[int, int] | None = None,
    tile_id: str = "?",
) -> TileShape:
    """A tile that is not on the table: the move asked about, or a refused placement."""
    if on not in layout:
        on = CENTER
    number = layout.number_at(on)
    if ends is None:
        ends = (number, tile.other(number)) if tile.has(number) else (tile.high, tile.low)
    used = layout.children(on)
    index = used if layout.free_slots(on) else max(0, used - 1)
    slot = geo.slot(on, index)
    if not layout.free_slots(on):
        # the place is taken: draw the tile beside it, shifted sideways, so both show
        x, y = _along(slot.x, slot.y, slot.angle + 90.0, WIDTH * 0.8)
        slot = _Slot(x, y, slot.angle)
    return geo.shape_at(tile_id, ends[0], ends[1], slot, state)
