"""The position on the checker page: the typed or pasted text read into a layout, or the
refusal with the drawing of what could be laid and the refused placement in red."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from ..engine import (
    EngineError,
    Layout,
    Tile,
    check_move,
)
from ..engine.errors import ErrorCode
from ..engine.tiles import parse_ends
from ..words import end_name, move_reason
from .context import TableSetting
from .drawing import draw_layout
from .notation import (
    NotationCode,
    NotationError,
    format_layout,
    layout_prefix,
    parse_position,
    read_position,
    split_items,
)

MAX_POS = 20000  # characters of typed or pasted position accepted (a big JSON layout fits)


class PositionView:
    """The typed position, parsed: ``layout`` when it is possible, else ``error`` and the
    drawing of what could be laid with the refused placement in red."""

    def __init__(self, table: TableSetting, text: str) -> None:
        self.text = text[:MAX_POS]
        self.layout: Layout | None = None
        self.error: NotationError | None = None
        self.refused_item: str = ""
        self.without_refused: str | None = None
        self.question: dict[str, Any] | None = None
        try:
            pos = parse_position(
                self.text,
                table.dominoes,
                table.spokes,
                table.rules.foot_toes_required,
                table.centre,
            )
        except NotationError as exc:
            self.error = exc
            items = split_items(self.text) if not self.text.strip().startswith("{") else []
            if exc.item is not None and exc.item < len(items):
                self.refused_item = items[exc.item]
                self.without_refused = "; ".join(i for n, i in enumerate(items) if n != exc.item)
        else:
            self.layout, self.question = pos.layout, pos.question
            self.text = format_layout(pos.spec) if self.text.strip() else ""
        self.table = table

    def drawing(self, candidate: tuple[Tile, str, bool] | None = None, highlight=()) -> Any:
        """The drawing of the position (or of its playable part and the refused tile)."""
        if self.layout is not None:
            return draw_layout(self.layout, candidate=candidate, highlight=highlight)
        return self._refused_drawing()

    def _refused_drawing(self) -> Any:
        """What could be laid before the refused placement, and that placement in red."""
        prefix, refused = self._refused_parts()
        return draw_layout(prefix, refused=refused)

    def _refused_parts(self) -> tuple[Layout, tuple[str, str, str] | None]:
        """The layout that could be laid before the refused placement, and that placement as
        (id, on, "a-b") when it can be read."""
        table = self.table
        try:
            spec, _items, _q = read_position(self.text, table.centre)
        except NotationError:
            spec = {"center": table.centre, "tiles": []}
        tiles = [t for t in spec.get("tiles") or [] if isinstance(t, dict)]
        wanted = self.error.tile_id if self.error else None
        index = next((i for i, t in enumerate(tiles) if t.get("id") == wanted), len(tiles))
        toes = table.rules.foot_toes_required
        prefix, _stop = layout_prefix(
            {**spec, "tiles": tiles[:index]}, table.dominoes, table.spokes, toes
        )
        if prefix is None:
            prefix = Layout.start(table.dominoes.parse(table.centre), table.spokes, toes)
        refused = None
        if index < len(tiles):
            try:
                a, b = parse_ends(tiles[index].get("tile"))
                refused = (str(tiles[index].get("id")), str(tiles[index].get("on")), f"{a}-{b}")
            except EngineError:
                refused = None
        return prefix, refused

    @property
    def unreadable(self) -> bool:
        """True when the text could not be read at all (pasted text that is not JSON, or JSON
        that is not a position): a typing problem, not a position that cannot be played."""
        return self.error is not None and self.error.code == NotationCode.BAD_JSON

    @property
    def refusal_words(self) -> str:
        """Why the refused placement could not have been played, in players' words (the same
        move check a question gets); ``""`` when the refusal is not about a move (a typo, a
        tile twice, an unknown id): then the reader's own message says it."""
        if self.error is None:
            return ""
        prefix, refused = self._refused_parts()
        if refused is not None and self.error.code == ErrorCode.DUPLICATE_TILE:
            # the engine's message names tile ids ("S2 9-5 is already on the table as S1")
            return _(
                "%(tile)s is already on the table: a set has only one of each tile.",
                tile=refused[2],
            )
        if refused is None or refused[1] not in prefix:
            return ""
        _id, on, text = refused
        try:
            # a tile outside the set is refused for that (the reader's own message), before
            # any move check: check_move knows the layout, not the set
            tile = self.table.dominoes.check(Tile.of(*(int(v) for v in text.split("-"))))
            verdict = check_move(prefix, tile, on)
        except EngineError:
            return ""
        if verdict.legal:
            return ""
        return _(
            "%(tile)s on %(end)s: %(reason)s",
            tile=text,
            end=end_name(prefix, on),
            reason=move_reason(prefix, verdict),
        )

    def without_last(self) -> str:
        """The position text with its last placement taken back (undo)."""
        if self.layout is None or not len(self.layout):
            return ""
        spec = self.layout.to_json()
        spec["tiles"] = spec["tiles"][:-1]
        return format_layout(spec) if spec["tiles"] else ""

    def with_tile(self, tile: Tile, on: str) -> str:
        """The position text with ``tile`` laid on ``on``."""
        base = self.text or f"{self.table.centre} centre"
        return f"{base}; {tile} on {on}"
