"""The layout tree (RULES.md §0, §5): the centre double, spokes, chicken feet and their toes.

A layout is immutable. Every tile is attached to a parent id (``"C"`` is the centre double) and
is written touching end first. :func:`replay` rebuilds a layout from the JSON of RULES.md §0 and
refuses a position that could not have been played, naming the first impossible placement.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from immutables import Map

from .errors import ErrorCode, LayoutError, TileError
from .reasons import Reason
from .tiles import DominoSet, Tile, parse_ends

CENTER = "C"
_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,15}$")


@dataclass(frozen=True, slots=True)
class Placement:
    """One tile on the table.

    Attributes:
        id: its id in the layout (``S1``, ``D1``, ``T3``, ...).
        on: the parent's id (``"C"`` for a spoke).
        touching: the end laid against the parent.
        outer: the other end (for a double, the same number).
    """

    id: str
    on: str
    touching: int
    outer: int

    @property
    def tile(self) -> Tile:
        """The tile itself, unordered."""
        return Tile.of(self.touching, self.outer)

    @property
    def is_double(self) -> bool:
        """A double off the centre: a chicken foot (§5.4)."""
        return self.touching == self.outer

    def text(self) -> str:
        """Touching end first, as in RULES.md §0: ``"9-5"``."""
        return f"{self.touching}-{self.outer}"


@dataclass(frozen=True, slots=True)
class OpenEnd:
    """A place a tile can go: a free hub slot, a free toe slot of a foot, or an uncovered end.

    Attributes:
        on: the id to play on (``"C"``, a double's id, or a tile's id).
        number: the number a tile must show to go there.
        free: free slots there (hub: spokes still missing; foot: toes missing; end: 1).
        kind: ``"hub"``, ``"foot"`` or ``"end"``.
    """

    on: str
    number: int
    free: int
    kind: str


_Chain = tuple[Placement, "_Chain | None"]  # the placements, newest first, shared by versions
_Ends = tuple[tuple[int, str], ...]  # (order of placement, id): centre 0, first tile 1, ...


class Layout:
    """A position on the table. Build with :meth:`start` and :meth:`attach`, or :func:`replay`.

    A layout never changes once built: :meth:`attach` returns a new one. Versions share their
    structure (persistent maps and a shared chain of placements), so attaching a tile costs the
    same however many tiles are on the table, and the open ends are kept in an index by number
    that each attach updates, so :meth:`open_ends` and the legal-move search read it instead of
    walking the table (RULES.md §5).

    Attributes:
        center: the centre (hub) double.
        spokes_required: K, spokes the hub takes before play spreads (§5.2).
        toes_required: toes a chicken foot takes (§5.4).
        placements: the tiles on the table in the order they were attached.
    """

    __slots__ = (
        "center",
        "spokes_required",
        "toes_required",
        "_count",
        "_chain",
        "_tuple",
        "_by_id",
        "_children",
        "_used",
        "_open_feet",
        "_by_number",
        "_next_n",
    )

    center: Tile
    spokes_required: int
    toes_required: int
    # the private state _make sets (declared so that the type checker knows the slots' types)
    _count: int
    _chain: _Chain | None
    _tuple: tuple[Placement, ...] | None
    _by_id: Map[str, Placement]
    _children: Map[str, int]
    _used: Map[Tile, str]
    _open_feet: tuple[str, ...]
    _by_number: Map[int, _Ends]
    _next_n: tuple[int, int]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("Build a layout with Layout.start(...) and attach(...), or replay(...).")

    @classmethod
    def _make(
        cls,
        center: Tile,
        spokes_required: int,
        toes_required: int,
        count: int,
        chain: _Chain | None,
        by_id: Map[str, Placement],
        children: Map[str, int],
        used: Map[Tile, str],
        open_feet: tuple[str, ...],
        by_number: Map[int, _Ends],
        next_n: tuple[int, int],
    ) -> Layout:
        # Called on every attach: the slots are filled through their descriptors, which skips
        # the attribute lookup of object.__setattr__ (about half the cost of building a version).
        self = object.__new__(cls)
        _SET_CENTER(self, center)
        _SET_SPOKES(self, spokes_required)
        _SET_TOES(self, toes_required)
        _SET_COUNT(self, count)
        _SET_CHAIN(self, chain)
        _SET_TUPLE(self, None)
        _SET_BY_ID(self, by_id)
        _SET_CHILDREN(self, children)
        _SET_USED(self, used)
        _SET_OPEN_FEET(self, open_feet)
        _SET_BY_NUMBER(self, by_number)
        _SET_NEXT_N(self, next_n)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"A layout is immutable: cannot set {name}.")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"A layout is immutable: cannot delete {name}.")

    @classmethod
    def start(cls, center: Tile, spokes_required: int = 4, toes_required: int = 3) -> Layout:
        """A layout holding only the centre double. Raises LayoutError if it is not a double."""
        if not center.is_double:
            raise LayoutError(
                ErrorCode.BAD_CENTER,
                "The centre must be a double, not %(center)s.",
                "input.layout.center",
                params={"center": center},
            )
        hub: _Ends = ((0, CENTER),) if spokes_required > 0 else ()
        return cls._make(
            center,
            spokes_required,
            toes_required,
            0,
            None,
            Map(),
            Map({CENTER: 0}),
            Map({center: CENTER}),
            (),
            Map({center.high: hub}) if hub else Map(),
            (1, 1),
        )

    # --- value semantics ----------------------------------------------------------------------
    def _key(self) -> tuple[Tile, int, int, tuple[Placement, ...]]:
        return (self.center, self.spokes_required, self.toes_required, self.placements)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self is other or (self._count == other._count and self._key() == other._key())

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Layout(center={self.center!r}, spokes_required={self.spokes_required}, "
            f"toes_required={self.toes_required}, placements={self.placements!r})"
        )

    def __copy__(self) -> Layout:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Layout:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.center, self.spokes_required, self.toes_required, self.placements))

    # --- reading the position ------------------------------------------------------------
    @property
    def placements(self) -> tuple[Placement, ...]:
        """The tiles on the table in the order they were attached (built once, on demand)."""
        cached = self._tuple
        if cached is None:
            items: list[Placement] = []
            node = self._chain
            while node is not None:
                items.append(node[0])
                node = node[1]
            items.reverse()
            cached = tuple(items)
            _SET_TUPLE(self, cached)
        return cached

    @property
    def last(self) -> Placement | None:
        """The tile attached last, if any."""
        return self._chain[0] if self._chain is not None else None

    @property
    def hub(self) -> int:
        """The centre double's number."""
        return self.center.high

    @property
    def spokes(self) -> int:
        """Spokes laid on the centre double so far."""
        return self._children[CENTER]

    @property
    def hub_complete(self) -> bool:
        """True once the centre has its K spokes and play may spread (§5.2)."""
        return self._children[CENTER] >= self.spokes_required

    @property
    def open_foot(self) -> str | None:
        """The id of the chicken foot still missing toes, if any (at most one, §5.4)."""
        return self._open_feet[0] if self._open_feet else None

    @property
    def in_open_play(self) -> bool:
        """True when every open end may be played on: the centre has its spokes and no chicken
        foot is missing toes (§5.2, §5.4)."""
        return not self._open_feet and self._children[CENTER] >= self.spokes_required

    @property
    def used(self) -> Collection[Tile]:
        """Every tile on the table, the centre double included (a read-only collection)."""
        return self._used

    @property
    def ends_by_number(self) -> Mapping[int, tuple[tuple[int, str], ...]]:
        """The open-end index: number -> ((order of placement, id), ...) of every place with a
        free slot that takes a tile showing that number, oldest first (centre order 0).
        Read only; phases are not applied (see :meth:`playable_targets`)."""
        return self._by_number

    def __contains__(self, item: object) -> bool:
        return item == CENTER or item in self._by_id

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Placement]:
        return iter(self.placements)

    def get(self, tile_id: str) -> Placement:
        """The placement with this id. Raises LayoutError(``UNKNOWN_ID``)."""
        placement = self._by_id.get(tile_id)
        if placement is None:
            raise LayoutError(
                ErrorCode.UNKNOWN_ID,
                "There is no tile '%(tile_id)s' in the layout.",
                tile_id,
                params={"tile_id": tile_id},
            )
        return placement

    def children(self, tile_id: str) -> int:
        """Tiles attached to ``tile_id`` (spokes for ``"C"``, toes for a foot)."""
        return self._children.get(tile_id, 0)

    def kind(self, tile_id: str) -> str:
        """``"hub"``, ``"foot"`` or ``"end"`` for an id in the layout."""
        if tile_id == CENTER:
            return "hub"
        return "foot" if self.get(tile_id).is_double else "end"

    def number_at(self, tile_id: str) -> int:
        """The number a tile played on ``tile_id`` must show."""
        return self.center.high if tile_id == CENTER else self.get(tile_id).outer

    def capacity(self, tile_id: str) -> int:
        """How many tiles ``tile_id`` can take in all: K, the toes of a foot, or 1."""
        kind = self.kind(tile_id)
        if kind == "hub":
            return self.spokes_required
        return self.toes_required if kind == "foot" else 1

    def free_slots(self, tile_id: str) -> int:
        """Slots still free on ``tile_id``."""
        return max(0, self.capacity(tile_id) - self.children(tile_id))

    def _end(self, tile_id: str) -> OpenEnd:
        return OpenEnd(
            on=tile_id,
            number=self.number_at(tile_id),
            free=self.free_slots(tile_id),
            kind=self.kind(tile_id),
        )

    def open_ends(self) -> list[OpenEnd]:
        """Every place with a free slot, centre first, then in order of placement.

        This lists the geometry only; which of them a move may use now depends on the spoke and
        foot phases (see :func:`playable_targets`). Read from the index, not the whole table.
        """
        # The index holds every open end once, under the number it takes; the placement order
        # (centre 0, then 1, 2, ...) gives the listing order.
        ends = sorted(e for under in self._by_number.values() for e in under)
        return [self._end(tile_id) for _, tile_id in ends]

    def phase_target(self) -> tuple[str, int] | None:
        """Outside open play, the one place a move may go as (id, number): the centre during
        the spoke phase (None once it is full), the open chicken foot while one is missing
        toes (§5.2, §5.4). In open play: None (use :attr:`ends_by_number`)."""
        if self._children[CENTER] < self.spokes_required:
            return (CENTER, self.center.high)
        if self._open_feet:
            foot = self._open_feet[0]
            return (foot, self._by_id[foot].outer)
        return None

    def playable_targets(self) -> list[OpenEnd]:
        """The open ends a move may use now: only the hub during the spoke phase, only the open
        foot while one is open, else every open end (§5.2, §5.4)."""
        if not self.hub_complete:
            free = self.free_slots(CENTER)
            return [OpenEnd(on=CENTER, number=self.hub, free=free, kind="hub")] if free else []
        foot = self.open_foot
        if foot is not None:
            return [
                OpenEnd(
                    on=foot, number=self.number_at(foot), free=self.free_slots(foot), kind="foot"
                )
            ]
        return self.open_ends()

    def next_id(self, tile: Tile) -> str:
        """A fresh id for ``tile``: ``D<n>`` for a double, ``T<n>`` otherwise (QUESTIONS.md);
        the smallest n not taken."""
        if tile.is_double:
            return f"D{self._next_n[0]}"
        return f"T{self._next_n[1]}"

    def to_json(self) -> dict[str, Any]:
        """The layout in the JSON of RULES.md §0."""
        return {
            "center": str(self.center),
            "tiles": [{"id": p.id, "on": p.on, "tile": p.text()} for p in self.placements],
        }

    # --- changing the position (returns a new layout) --------------------------------------
    def attach(self, tile: Tile, on: str, tile_id: str | None = None) -> Layout:
        """A new layout with ``tile`` laid on ``on``, checking the geometry only.

        Checks: the parent exists, it has a free slot, the tile shows its number, the tile is
        not already on the table, and the id is new. Spoke/foot *phase* rules are checked by
        :func:`companion.engine.moves.check_move` and by :func:`replay`.
        Raises LayoutError with the move reason codes (``CENTER_FULL``, ``FOOT_FULL``,
        ``END_COVERED``, ``NO_MATCH``) or ``DUPLICATE_TILE``/``UNKNOWN_ID``/``DUPLICATE_ID``.
        Costs the same whatever the size of the layout (persistent maps, bounded index).
        """
        if on == CENTER:
            number, capacity = self.center.high, self.spokes_required
        else:
            parent = self._by_id.get(on)
            if parent is None:
                raise LayoutError(
                    ErrorCode.UNKNOWN_ID,
                    "There is no tile '%(on)s' to play on.",
                    on,
                    params={"on": on},
                )
            number = parent.outer
            capacity = self.toes_required if parent.touching == parent.outer else 1
        if tile in self._used:
            raise LayoutError(
                ErrorCode.DUPLICATE_TILE,
                "%(tile)s is already on the table.",
                str(tile),
                params={"tile": tile},
            )
        if tile.high != number and tile.low != number:
            raise LayoutError(
                Reason.NO_MATCH,
                "%(tile)s has no %(number)s, so it cannot go on %(end)s.",
                on,
                params={"tile": tile, "number": number, "end": _where(self, on)},
            )
        free = capacity - self._children.get(on, 0)
        if free <= 0:
            raise LayoutError(full_code(self.kind(on)), full_message(self, on), on)
        new_id = tile_id or self.next_id(tile)  # a generated id is well formed and new
        if tile_id is not None and (new_id in self or not _ID.match(new_id)):
            raise LayoutError(
                ErrorCode.DUPLICATE_ID if new_id in self else ErrorCode.BAD_ID,
                "'%(new_id)s' cannot be used as a tile id here.",
                new_id,
                params={"new_id": new_id},
            )
        outer = tile.low if tile.high == number else tile.high  # it shows number (checked)
        is_double = outer == number
        placement = Placement(id=new_id, on=on, touching=number, outer=outer)
        count = self._count + 1
        by_id = self._by_id.set(new_id, placement)
        children = self._children.set(on, capacity - free + 1)
        if is_double:
            children = children.set(new_id, 0)
        open_feet = self._open_feet
        if free == 1 and on in open_feet:  # that toe completed the foot
            open_feet = tuple(f for f in open_feet if f != on)
        if is_double and self.toes_required > 0:
            open_feet = (*open_feet, new_id)
        by_number = self._by_number
        if free == 1:  # the parent is full now: it leaves the index
            by_number = _without(by_number, number, on)
        entry = (count, new_id)
        by_number = by_number.set(outer, (*by_number.get(outer, ()), entry))
        return Layout._make(
            self.center,
            self.spokes_required,
            self.toes_required,
            count,
            (placement, self._chain),
            by_id,
            children,
            self._used.set(tile, new_id),
            open_feet,
            by_number,
            _advance(self._next_n, new_id, by_id),
        )

    def find(self, tile: Tile) -> str | None:
        """The id where ``tile`` lies (``"C"`` for the centre double), or None if not laid."""
        return self._used.get(tile)

    def name_of(self, tile: Tile) -> str:
        """Words for where ``tile`` lies: ``"the centre double"`` or its id."""
        where = self.find(tile)
        return "the centre double" if where == CENTER else str(where)

    def foot_of(self, tile_id: str) -> str | None:
        """The id of the double whose toe ``tile_id`` is, if it is a toe."""
        placement = self._by_id.get(tile_id)
        if placement is None or placement.on == CENTER:
            return None
        parent = self._by_id[placement.on]
        return parent.id if parent.is_double else None


# The slot setters of Layout (its __setattr__ refuses every change after _make).
(
    _SET_CENTER,
    _SET_SPOKES,
    _SET_TOES,
    _SET_COUNT,
    _SET_CHAIN,
    _SET_TUPLE,
    _SET_BY_ID,
    _SET_CHILDREN,
    _SET_USED,
    _SET_OPEN_FEET,
    _SET_BY_NUMBER,
    _SET_NEXT_N,
) = (getattr(Layout, name).__set__ for name in Layout.__slots__)


def _without(by_number: Map[int, _Ends], number: int, tile_id: str) -> Map[int, _Ends]:
    """The index with ``tile_id`` no longer open under ``number`` (ends under one number are
    few: bounded by the set, not by the tiles on the table)."""
    under = by_number[number]
    if len(under) == 1:  # the usual case: that end was the only one open under its number
        return by_number.delete(number)
    left = tuple([e for e in under if e[1] != tile_id])
    return by_number.set(number, left) if left else by_number.delete(number)


def _advance(next_n: tuple[int, int], new_id: str, by_id: Map[str, Placement]) -> tuple[int, int]:
    """The smallest free ``D<n>`` and ``T<n>`` after ``new_id`` was taken (only ever grows, so
    the scan is amortised O(1) per tile)."""
    doubles, others = next_n
    if new_id[0] == "D":
        if new_id == f"D{doubles}":
            doubles += 1
            while f"D{doubles}" in by_id:
                doubles += 1
    elif new_id == f"T{others}":
        others += 1
        while f"T{others}" in by_id:
            others += 1
    return doubles, others


def _rebuild(
    center: Tile, spokes_required: int, toes_required: int, placements: tuple[Placement, ...]
) -> Layout:
    """Unpickling: attach the placements again (they were valid when pickled)."""
    layout = Layout.start(center, spokes_required, toes_required)
    for p in placements:
        layout = layout.attach(p.tile, p.on, p.id)
    return layout


def full_code(kind: str) -> Reason:
    """The reason code for a target with no free slot: CENTER_FULL, FOOT_FULL or END_COVERED."""
    return {"hub": Reason.CENTER_FULL, "foot": Reason.FOOT_FULL}.get(kind, Reason.END_COVERED)


def full_message(layout: Layout, on: str) -> str:
    """One sentence saying that ``on`` (hub, foot or end) has no free slot (§5.2-5.4)."""
    kind = layout.kind(on)
    if kind == "hub":
        return f"The centre {layout.center} already has its {layout.spokes_required} spokes."
    if kind == "foot":
        return (
            f"The chicken foot on {layout.get(on).tile} ({on}) already has its "
            f"{layout.toes_required} toes."
        )
    return f"The end of {layout.get(on).text()} ({on}) is already covered."


class PlaceKind(StrEnum):
    """What kind of place on the table an error names (RULES.md §0)."""

    CENTRE = "centre"  # the centre double as a target: "the centre 9-9"
    CENTRE_DOUBLE = "centre_double"  # where a tile lies: it is the centre double
    FOOT = "foot"  # a double on the table: "the chicken foot 5-5 (D1)"
    END = "end"  # an open end: "the open 5 of 9-5 (S1)"
    TILE_ID = "tile_id"  # where a tile lies, by its id: "S1"


@dataclass(frozen=True, slots=True)
class Place:
    """A place on the table named in an error's parameters, as data, so that a page can word it
    in the player's language (``companion.words``); ``str()`` is the engine's English.

    Attributes:
        kind: which kind of place.
        tile: the tile there as written ("9-5"), if any.
        number: the open number (pips) of an open end, else 0.
        id: the tile id ("S1", "D1"), if any.
    """

    kind: PlaceKind
    tile: str = ""
    number: int = 0
    id: str = ""

    def __str__(self) -> str:
        if self.kind is PlaceKind.CENTRE:
            return f"the centre {self.tile}"
        if self.kind is PlaceKind.CENTRE_DOUBLE:
            return "the centre double"
        if self.kind is PlaceKind.FOOT:
            return f"the chicken foot {self.tile} ({self.id})"
        if self.kind is PlaceKind.END:
            return f"the open {self.number} of {self.tile} ({self.id})"
        return self.id


class Phrase(StrEnum):
    """Fixed pieces of an error sentence (a parameter), worded by pages like a template."""

    NONE = ""
    TOUCHING_END_FIRST = " (write the touching end first)"


def _where(layout: Layout, on: str) -> Place:
    if on == CENTER:
        return Place(kind=PlaceKind.CENTRE, tile=str(layout.center))
    placement = layout.get(on)
    if placement.is_double:
        return Place(kind=PlaceKind.FOOT, tile=str(placement.tile), id=on)
    return Place(kind=PlaceKind.END, tile=placement.text(), number=placement.outer, id=on)


def describe_target(layout: Layout, on: str) -> str:
    """Words for a target, e.g. ``"the open 5 of 9-5 (S1)"`` or ``"the centre 9-9"``."""
    return str(_where(layout, on))


def place_of(layout: Layout, tile: Tile) -> Place:
    """Where ``tile`` lies, as a :class:`Place` (the centre double or its id)."""
    where = layout.find(tile)
    if where == CENTER:
        return Place(kind=PlaceKind.CENTRE_DOUBLE)
    return Place(kind=PlaceKind.TILE_ID, id=str(where))


def replay(
    spec: Any,
    dominoes: DominoSet,
    spokes_required: int,
    toes_required: int = 3,
    where: str = "input.layout",
    extra_used: Iterable[Tile] = (),
) -> Layout:
    """Rebuild and validate a layout from RULES.md §0 JSON ``{"center", "tiles": [...]}``.

    Each tile must name an earlier id (or ``"C"``) in ``on`` and be written touching end first.
    The position must be reachable under the rules: no tile beyond the spokes before the centre
    has its K spokes, at most one chicken foot open, nothing played beyond an unfinished foot.
    Raises TileError for bad tiles and LayoutError naming the first impossible placement, or
    ``TOO_LARGE`` (before any tile is read) for more tiles than the set holds.

    >>> from companion.engine import DominoSet, replay
    >>> spec = {"center": "9-9", "tiles": [{"id": "S1", "on": "C", "tile": "9-5"}]}
    >>> list(replay(spec, DominoSet(9), 4))
    [Placement(id='S1', on='C', touching=9, outer=5)]
    """
    if not isinstance(spec, Mapping):
        raise LayoutError(
            ErrorCode.BAD_LAYOUT, 'A layout is an object {"center": "9-9", "tiles": [...]}.', where
        )
    center = dominoes.parse(spec.get("center"), f"{where}.center")
    layout = Layout.start(center, spokes_required, toes_required)
    tiles = spec.get("tiles", [])
    if not isinstance(tiles, list):
        raise LayoutError(ErrorCode.BAD_LAYOUT, "layout.tiles must be a list.", f"{where}.tiles")
    if len(tiles) >= dominoes.tile_count:  # the centre double is one of the set's tiles
        raise LayoutError(
            ErrorCode.TOO_LARGE,
            "The layout lists %(count)s tiles besides the centre; a double-%(n)s "
            "set has only %(tile_count)s tiles in all.",
            f"{where}.tiles",
            params={"count": len(tiles), "n": dominoes.n, "tile_count": dominoes.tile_count},
        )
    for i, item in enumerate(tiles):
        layout = _replay_one(layout, item, dominoes, f"{where}.tiles[{i}]")
    _check_phases(layout, where)
    for tile in extra_used:
        if tile in layout.used:
            raise TileError(
                ErrorCode.DUPLICATE_TILE,
                "%(tile)s is both on the table and elsewhere.",
                where,
                params={"tile": tile},
            )
    return layout


def _replay_one(layout: Layout, item: Any, dominoes: DominoSet, where: str) -> Layout:
    if not isinstance(item, Mapping):
        raise LayoutError(ErrorCode.BAD_LAYOUT, 'Each layout tile is {"id", "on", "tile"}.', where)
    tile_id, on = item.get("id"), item.get("on")
    label = f"{where} ({tile_id})"
    if tile_id is None:
        # a missing id is named by the tile it belongs to, not by Python's "None"
        tile_text = item.get("tile")
        raise LayoutError(
            ErrorCode.MISSING_ID,
            'The tile %(tile)s placed on "%(on)s" has no id: give each tile one, like S1.',
            where,
            params={
                "tile": tile_text if isinstance(tile_text, str) else "?",
                "on": on if isinstance(on, str) else "?",
            },
        )
    if not isinstance(tile_id, str) or not _ID.match(tile_id) or tile_id == CENTER:
        raise LayoutError(
            ErrorCode.BAD_ID,
            "%(tile_id)s is not a usable tile id.",
            where,
            params={"tile_id": repr(tile_id)},
        )
    if tile_id in layout:
        raise LayoutError(
            ErrorCode.DUPLICATE_ID,
            "The id '%(tile_id)s' is used twice.",
            label,
            params={"tile_id": tile_id},
        )
    if not isinstance(on, str) or on not in layout:
        raise LayoutError(
            ErrorCode.UNKNOWN_ID,
            "%(tile_id)s is placed on '%(on)s', which is not an earlier tile of the layout.",
            label,
            params={"tile_id": tile_id, "on": on},
        )
    touching, outer = parse_ends(item.get("tile"), label)
    tile = dominoes.check(Tile.of(touching, outer), label)
    if tile in layout.used:
        raise TileError(
            ErrorCode.DUPLICATE_TILE,
            "%(tile_id)s %(tile)s is already on the table as %(place)s.",
            label,
            params={"tile_id": tile_id, "tile": tile, "place": place_of(layout, tile)},
        )
    number = layout.number_at(on)
    if touching != number:
        hint = Phrase.TOUCHING_END_FIRST if tile.has(number) else Phrase.NONE
        raise LayoutError(
            Reason.NO_MATCH,
            "%(tile_id)s %(touching)s-%(outer)s does not match %(end)s%(hint)s.",
            label,
            params={
                "tile_id": tile_id,
                "touching": touching,
                "outer": outer,
                "end": _where(layout, on),
                "hint": hint,
            },
        )
    if layout.free_slots(on) == 0:
        raise LayoutError(full_code(layout.kind(on)), full_message(layout, on), label)
    return layout.attach(tile, on, tile_id)


def _check_phases(layout: Layout, where: str) -> None:
    """Reject positions no order of legal play could reach (RULES.md §5.2, §5.4, §11)."""
    if not layout.hub_complete:
        for i, p in enumerate(layout.placements):
            if p.on != CENTER:
                raise LayoutError(
                    Reason.SPOKES_INCOMPLETE,
                    "%(id)s could not have been played: the centre has only %(spokes)s of "
                    "%(spokes_required)s spokes, and nothing else may be played before.",
                    f"{where}.tiles[{i}] ({p.id})",
                    params={
                        "id": p.id,
                        "spokes": layout.spokes,
                        "spokes_required": layout.spokes_required,
                    },
                )
    feet = layout._open_feet
    index = {p.id: i for i, p in enumerate(layout.placements)}
    if len(feet) > 1:
        second = feet[1]
        raise LayoutError(
            Reason.FOOT_INCOMPLETE,
            "%(second)s could not have been played: the chicken foot %(feet)s was "
            "still missing toes, and only one foot can be open at a time.",
            f"{where}.tiles[{index[second]}] ({second})",
            params={"second": second, "feet": feet[0]},
        )
    if feet:
        foot = feet[0]
        for i, p in enumerate(layout.placements):
            if layout.foot_of(p.on) == foot:
                raise LayoutError(
                    Reason.FOOT_INCOMPLETE,
                    "%(id)s could not have been played: it extends a toe of the chicken "
                    "foot %(foot)s, which is still missing toes.",
                    f"{where}.tiles[{i}] ({p.id})",
                    params={"id": p.id, "foot": foot},
                )
