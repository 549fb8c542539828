"""Typed positions: short text (or pasted JSON) to the layout JSON of RULES.md §0, and back.

Pure functions, no Flask. The text is a list of items separated by ``;``, ``,`` or new lines::

    9-9 centre; 9-5 on C, 5-5 on that, 5-2 on D1
    9-5 on C, 9-3 on C, 5-5 on S1

* ``9-9 centre`` (or ``center``, ``hub``, ``centre 9-9``) names the centre double; without it
  the caller's default centre (the round's double) is used.
* ``TILE on TARGET`` lays a tile; TARGET is ``C`` (the centre), an id laid earlier, or
  ``that``/``it`` (the tile laid just before). The tile may be written either way round: it is
  turned so that its matching end touches the target (RULES.md §0 writes touching end first).
* Ids are given in order of placement: ``S1, S2, ...`` for spokes (tiles on the centre),
  ``D1, D2, ...`` for other doubles (chicken feet), ``T1, T2, ...`` for the rest. An item may
  name its own id first: ``S4: 9-1 on C`` or ``X=5-4 on S1``.

Pasted JSON is also accepted: a layout ``{"center", "tiles"}`` (``"centre"`` is read as
``"center"``) or a whole QUESTIONS.md question (its ``input.layout`` is the position).

Every problem raises :class:`NotationError` with the engine's code where the engine decides
(``TILE_OUTSIDE_SET``, ``DUPLICATE_TILE``, ``UNKNOWN_ID``, ``SPOKES_INCOMPLETE`` ...: the
position is replayed with :func:`companion.engine.replay`) and with ``item`` = the index of the
offending item, so a page can mark it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from flask_babel import gettext as _

from ..engine import CENTER, DominoSet, EngineError, Layout, Tile, replay
from ..engine.errors import ErrorCode
from ..engine.tiles import TILE_TEXT, parse_ends
from ..words import error_words

_TILE = TILE_TEXT
_CENTRE_WORDS = r"(?:centre|center|hub|middle|c)"
_CENTRE_AFTER = re.compile(rf"^(?P<tile>{_TILE})\s+(?:is\s+)?(?:the\s+)?{_CENTRE_WORDS}$", re.I)
_CENTRE_BEFORE = re.compile(
    rf"^(?:the\s+)?{_CENTRE_WORDS}\s*(?:[:=]|is)?\s*(?P<tile>{_TILE})$", re.I
)
_PLACE = re.compile(
    rf"^(?:(?P<id>[A-Za-z][A-Za-z0-9_]{{0,15}})\s*[:=]\s*)?(?P<tile>{_TILE})\s+"
    r"(?:on|to|at|onto)\s+(?P<on>[A-Za-z][A-Za-z0-9_]{0,15})$",
    re.I,
)
_PREVIOUS = {"that", "it", "prev", "previous", "last"}
MAX_ITEMS = 200


class NotationCode(StrEnum):
    """The codes of typed or pasted positions the checker cannot read (besides the engine's
    own :class:`~companion.engine.errors.ErrorCode`, e.g. ``UNKNOWN_ID``)."""

    NOTHING_BEFORE = "NOTHING_BEFORE"  # "that" with no earlier tile
    TOO_LONG = "TOO_LONG"  # more than MAX_ITEMS items
    BAD_NOTATION = "BAD_NOTATION"  # an item that is neither a centre nor a placement
    NO_CENTRE = "NO_CENTRE"  # no centre double named
    BAD_JSON = "BAD_JSON"  # pasted text that is not JSON


class NotationError(EngineError):
    """Typed text (or JSON) that cannot be read as a position.

    Attributes (besides the EngineError ``code``, ``message``, ``where``):
        item: index of the offending item of the text (0-based), or None for the whole text.
        tile_id: the id of the first impossible placement, when the engine named one.
    """

    def __init__(
        self,
        code: StrEnum,
        message: str,
        where: str = "",
        item: int | None = None,
        tile_id: str | None = None,
    ) -> None:
        super().__init__(code, message, where)
        self.item = item
        self.tile_id = tile_id


@dataclass(frozen=True)
class Position:
    """A parsed, validated position.

    Attributes:
        layout: the replayed engine Layout.
        spec: the layout JSON of RULES.md §0 (``{"center", "tiles": [{"id", "on", "tile"}]}``).
        question: the whole question when a QUESTIONS.md question was pasted, else None.
    """

    layout: Layout
    spec: dict[str, Any]
    question: dict[str, Any] | None = field(default=None)


def split_items(text: str) -> list[str]:
    """The non-empty items of ``text``, split on ``;``, ``,`` and new lines."""
    return [part.strip() for part in re.split(r"[;,\n]+", text) if part.strip()]


def _orient(ends: tuple[int, int], number: int | None) -> tuple[int, int]:
    """Turn a tile so the end matching ``number`` comes first (touching end first, §0)."""
    a, b = ends
    if number is not None and a != number and b == number:
        return b, a
    return a, b


class _Builder:
    """Collects items into layout JSON, assigning ids and resolving ``that``/``it``."""

    def __init__(self, center: str | None) -> None:
        self.center = center
        self.tiles: list[dict[str, str]] = []
        self.outer: dict[str, int] = {}
        self.counts = {"S": 0, "D": 0, "T": 0}

    def number_at(self, on: str) -> int | None:
        if on == CENTER:
            return parse_ends(self.center)[0] if self.center else None
        return self.outer.get(on)

    def next_id(self, on: str, ends: tuple[int, int]) -> str:
        """The id the next tile on ``on`` gets unless it names one (S/D/T numbering)."""
        prefix = "S" if on == CENTER else ("D" if ends[0] == ends[1] else "T")
        taken = {t["id"] for t in self.tiles}
        n = self.counts[prefix] + 1
        while f"{prefix}{n}" in taken:
            n += 1
        return f"{prefix}{n}"

    def fresh_id(self, on: str, ends: tuple[int, int]) -> str:
        """Assign :meth:`next_id` and count it."""
        tile_id = self.next_id(on, ends)
        self.counts[tile_id[0]] = int(tile_id[1:])
        return tile_id

    def place(self, index: int, item: str, match: re.Match[str]) -> None:
        on = match.group("on")
        if on.lower() in _PREVIOUS:
            if not self.tiles:
                raise NotationError(
                    NotationCode.NOTHING_BEFORE,
                    _(
                        '"%(item)s": there is no earlier tile for "%(on)s" to mean.',
                        item=item,
                        on=on,
                    ),
                    f"item {index + 1}",
                    index,
                )
            on = self.tiles[-1]["id"]
        elif on.upper() == CENTER:
            on = CENTER
        elif on not in self.outer:
            raise NotationError(
                ErrorCode.UNKNOWN_ID,
                _(
                    '"%(item)s": there is no tile %(on)s on the table before it; use C for '
                    'the centre, an earlier id, or "that".',
                    item=item,
                    on=on,
                ),
                f"item {index + 1}",
                index,
            )
        ends = _orient(parse_ends(match.group("tile"), f"item {index + 1}"), self.number_at(on))
        tile_id = match.group("id") or self.fresh_id(on, ends)
        self.tiles.append({"id": tile_id, "on": on, "tile": f"{ends[0]}-{ends[1]}"})
        self.outer[tile_id] = ends[1]

    def spec(self) -> dict[str, Any]:
        return {"center": self.center, "tiles": self.tiles}


def parse_text(text: str, default_center: str | None = None) -> tuple[dict[str, Any], list[str]]:
    """Read typed text into layout JSON (not yet validated) and the items it was made of.

    Raises NotationError(``BAD_NOTATION``) for an item that is neither a centre nor a
    placement, ``UNKNOWN_ID`` for a target not laid before, ``NO_CENTRE`` when no centre is
    known, ``TOO_LONG`` past :data:`MAX_ITEMS` items.
    """
    items = split_items(text)
    if len(items) > MAX_ITEMS:
        raise NotationError(
            NotationCode.TOO_LONG,
            _("A position has at most %(max_items)s items.", max_items=MAX_ITEMS),
        )
    builder = _Builder(default_center)
    for index, item in enumerate(items):
        centre = _CENTRE_AFTER.match(item) or _CENTRE_BEFORE.match(item)
        placement = _PLACE.match(item)
        if centre and not builder.tiles:
            builder.center = centre.group("tile").strip("[] ")
        elif centre:
            raise NotationError(
                NotationCode.BAD_NOTATION,
                _('"%(item)s": name the centre double first, before any tile is laid.', item=item),
                f"item {index + 1}",
                index,
            )
        elif placement:
            builder.place(index, item, placement)
        else:
            raise NotationError(
                NotationCode.BAD_NOTATION,
                _(
                    'Could not read "%(item)s": write a placement like "9-5 on C" or "5-5 '
                    'on that", or the centre like "9-9 centre".',
                    item=item,
                ),
                f"item {index + 1}",
                index,
            )
    if builder.center is None:
        raise NotationError(
            NotationCode.NO_CENTRE,
            _('Say which double is in the centre, e.g. "9-9 centre".'),
            "centre",
        )
    return builder.spec(), items


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _with_center_key(layout: Mapping[str, Any]) -> dict[str, Any]:
    """The layout with the centre under RULES.md's key ``center``: "centre", the game's own
    spelling (the typing help writes "9-9 centre"), is read as the same key."""
    spec = dict(layout)
    if "center" not in spec and "centre" in spec:
        spec["center"] = spec.pop("centre")
    return spec


def parse_json(text: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Read pasted JSON: a layout, or a question whose ``input.layout`` is the position.

    Returns (layout JSON, the question or None). Raises NotationError(``BAD_JSON``) for
    invalid JSON or an object that is neither.
    """
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        # the parser's own words ("Expecting ',' delimiter ...") go to the details only
        raise NotationError(
            NotationCode.BAD_JSON,
            _(
                "The pasted text is not valid JSON: it breaks near character %(value)s.",
                value=exc.pos + 1,
            ),
            str(exc),
        ) from None
    except (ValueError, RecursionError) as exc:
        raise NotationError(
            NotationCode.BAD_JSON, _("The pasted text is not valid JSON."), str(exc)
        ) from None
    if isinstance(data, Mapping) and ("center" in data or "centre" in data):
        return _with_center_key(data), None
    if isinstance(data, Mapping) and isinstance(data.get("input"), Mapping):
        layout = data["input"].get("layout")
        if isinstance(layout, Mapping):
            layout = _with_center_key(layout)
            return layout, {**data, "input": {**data["input"], "layout": layout}}
    raise NotationError(
        NotationCode.BAD_JSON,
        _(
            'This JSON is not a position: paste a layout {"center": "9-9", "tiles":'
            " [...]} or a question that holds one."
        ),
    )


_TILE_INDEX = re.compile(r"tiles\[(\d+)\]")
_ID_IN_WHERE = re.compile(r"\(([A-Za-z][A-Za-z0-9_]*)\)")


def _locate(exc: EngineError, items: list[str], spec: Mapping[str, Any]) -> NotationError:
    """The engine's error, pointed at the item of the text that caused it."""
    item = None
    tile_id = None
    match = _TILE_INDEX.search(exc.where or "")
    if match:
        tile_index = int(match.group(1))
        tiles = spec.get("tiles") or []
        if tile_index < len(tiles) and isinstance(tiles[tile_index], Mapping):
            tile_id = tiles[tile_index].get("id")
        # the centre item (if typed) comes before the tiles in the text
        offset = len(items) - len(tiles)
        item = tile_index + offset if items and offset >= 0 else None
    elif exc.where.endswith("center") and items:
        item = 0
    found = _ID_IN_WHERE.search(exc.where or "")
    if tile_id is None and found:
        tile_id = found.group(1)
    where = f"item {item + 1}" if item is not None else exc.where
    return NotationError(exc.code, error_words(exc), where, item, tile_id)


def read_position(
    text: str, default_center: str | None = None
) -> tuple[dict[str, Any], list[str], dict[str, Any] | None]:
    """Read typed text or pasted JSON without validating it: (layout JSON, the typed items,
    the pasted question or None). Raises NotationError for what cannot be read at all."""
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        spec, question = parse_json(stripped)
        return spec, [], question
    spec, items = parse_text(stripped, default_center)
    return spec, items, None


def parse_position(
    text: str,
    dominoes: DominoSet,
    spokes_required: int,
    toes_required: int = 3,
    default_center: str | None = None,
) -> Position:
    """Parse typed text or pasted JSON and replay it under the rules (RULES.md §0, §5).

    Args:
        text: the typed position or pasted JSON.
        dominoes: the set in play (tiles outside it are refused).
        spokes_required: K, spokes the centre takes first (§5.2); toes_required: per foot (§5.4).
        default_center: the round's centre double (``"9-9"``) when the text names none.
    Raises NotationError naming the code, the message and the offending item (see module doc).
    """
    spec, items, question = read_position(text, default_center)
    try:
        layout = replay(spec, dominoes, spokes_required, toes_required)
    except EngineError as exc:
        raise _locate(exc, items, spec) from None
    return Position(layout, layout.to_json(), question)


def layout_prefix(
    spec: Mapping[str, Any], dominoes: DominoSet, spokes_required: int, toes_required: int = 3
) -> tuple[Layout | None, int]:
    """As much of a refused layout as can be laid, by geometry alone (no phase rules): the
    layout of the tiles before the first one that cannot be laid, and that tile's index.
    (None, 0) when even the centre is unusable. For drawing a refused position."""
    try:
        layout = Layout.start(dominoes.parse(spec.get("center")), spokes_required, toes_required)
    except EngineError:
        return None, 0
    tiles = spec.get("tiles") or []
    for index, item in enumerate(tiles):
        try:
            a, b = parse_ends(item.get("tile"))
            tile = dominoes.check(Tile.of(a, b))
            if a != layout.number_at(item.get("on")):
                return layout, index
            layout = layout.attach(tile, item.get("on"), item.get("id"))
        except (EngineError, AttributeError, TypeError):
            return layout, index
    return layout, len(tiles)


def format_layout(spec: Mapping[str, Any]) -> str:
    """The layout JSON as text that :func:`parse_text` reads back to the same JSON.

    Ids that the parser would assign itself are left out; others are written ``ID: tile``.
    """
    builder = _Builder(str(spec.get("center")))
    parts = [f"{spec.get('center')} centre"]
    for tile in spec.get("tiles") or []:
        ends = parse_ends(tile["tile"])
        on = tile["on"]
        label = f"{tile['id']}: "
        if tile["id"] == builder.next_id(on, ends):
            builder.fresh_id(on, ends)
            label = ""
        parts.append(f"{label}{tile['tile']} on {on}")
        builder.tiles.append(dict(tile))
        builder.outer[tile["id"]] = ends[1]
    return "; ".join(parts)


def tile_of(text: str, dominoes: DominoSet, where: str = "") -> Tile:
    """One tile typed in a form (``"9-5"``), checked against the set. Raises TileError."""
    return dominoes.parse(text, where)
