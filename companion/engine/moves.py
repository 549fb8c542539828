"""Can this tile go there? Move checks with one reason code each (RULES.md §0, §5).

Reason codes, in order of precedence: ``SPOKES_INCOMPLETE``, ``FOOT_INCOMPLETE``,
``CENTER_FULL`` / ``FOOT_FULL`` / ``END_COVERED``, ``NO_MATCH``, ``ONE_TILE_PER_TURN``, ``OK``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import ErrorCode, LayoutError
from .layout import CENTER, Layout, describe_target, full_code, full_message, place_of
from .reasons import MOVE_REASONS, SECTION, Reason
from .tiles import Tile

#: reason code -> the RULES.md section it rests on (derived from :data:`.reasons.SECTION`)
RULE_SECTION: dict[str, str] = {str(r): SECTION[r] for r in MOVE_REASONS}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to "can ``tile`` go on ``on``?".

    Attributes:
        legal: True when the move may be made.
        reason: one reason code (see module doc).
        message: one sentence a player can read out.
        rule: the RULES.md section the verdict rests on.
        tile: the tile moved; ``on``: the target id.
        new_open_end: when legal, the number the tile leaves open (a double: its own number).
        creates_foot_needing_toes: when a legal double starts a chicken foot, the toes it needs.
        foot_complete_after: when the move is a toe, whether it completes the foot.
        params: the facts the reason rests on, for wording it in any language (not part of
            the QUESTIONS.md answer): ``on`` (target id), ``tile``, and per reason
            ``centre``/``spokes``/``required``/``number`` (SPOKES_INCOMPLETE, CENTER_FULL),
            ``foot``/``double``/``toes``/``required``/``number`` (FOOT_INCOMPLETE, FOOT_FULL),
            ``number`` (NO_MATCH, END_COVERED), ``player`` (ONE_TILE_PER_TURN); for OK the
            kind of move ``played_as`` (``spoke``, ``toe``, ``foot`` or ``end``), ``open_end``
            and ``left`` (spokes or toes still needed after it).
    """

    legal: bool
    reason: Reason
    message: str
    rule: str
    tile: Tile
    on: str
    new_open_end: int | None = None
    creates_foot_needing_toes: int | None = None
    foot_complete_after: bool | None = None
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def as_answer(self) -> dict[str, Any]:
        """The verdict as a QUESTIONS.md placement answer (keys that do not apply left out)."""
        answer: dict[str, Any] = {"legal": self.legal, "reason": str(self.reason)}
        for key in ("new_open_end", "creates_foot_needing_toes", "foot_complete_after"):
            value = getattr(self, key)
            if value is not None:
                answer[key] = value
        answer["message"] = self.message
        answer["rule"] = self.rule
        return answer


def _illegal(reason: Reason, message: str, tile: Tile, on: str, **params: Any) -> Verdict:
    facts = {"tile": str(tile), "on": on, **params}
    return Verdict(
        legal=False,
        reason=reason,
        message=message,
        rule=SECTION[reason],
        tile=tile,
        on=on,
        params=facts,
    )


def _hub_params(layout: Layout) -> dict[str, Any]:
    """The centre's facts: its double, spokes down and required, and its number (§5.2)."""
    return {
        "centre": str(layout.center),
        "spokes": layout.spokes,
        "required": layout.spokes_required,
        "number": layout.hub,
    }


def _foot_params(layout: Layout, foot: str) -> dict[str, Any]:
    """A chicken foot's facts: its id, double, toes down and required, its number (§5.4)."""
    double = layout.get(foot).tile
    return {
        "foot": foot,
        "double": str(double),
        "toes": layout.children(foot),
        "required": layout.toes_required,
        "number": double.high,
    }


def check_move(
    layout: Layout,
    tile: Tile,
    on: str,
    *,
    played_this_turn: int = 0,
    tiles_per_turn: int | str = 1,
    player: str = "",
) -> Verdict:
    """Check one move against the position (RULES.md §5.1-5.4).

    Args:
        layout: the position before the move.
        tile: the tile as held (either order).
        on: the target id (``"C"`` for the centre).
        played_this_turn: tiles this player has already laid in the current turn.
        tiles_per_turn: the house rule (1, or ``"unlimited"``).
        player: only used in the message.
    Raises LayoutError(``UNKNOWN_ID``) for a target not in the layout and
    LayoutError(``DUPLICATE_TILE``) for a tile already on the table: those are bad questions,
    not illegal moves.

    >>> from companion.engine import Layout, Tile, check_move, parse_tile
    >>> table = Layout.start(Tile(9, 9), 4, 3)
    >>> check_move(table, parse_tile("9-5"), "C").message
    'Yes: 9-5 is a spoke on the centre 9-9, leaving a 5 open; 3 more spokes to go.'
    >>> check_move(table, parse_tile("6-5"), "C").reason
    <Reason.NO_MATCH: 'NO_MATCH'>
    """
    if on not in layout:
        raise LayoutError(
            ErrorCode.UNKNOWN_ID,
            "There is no tile '%(on)s' in the layout to play on.",
            params={"on": on},
        )
    if tile in layout.used:
        raise LayoutError(
            ErrorCode.DUPLICATE_TILE,
            "%(tile)s is already on the table as %(place)s.",
            params={"tile": tile, "place": place_of(layout, tile)},
        )
    k = layout.spokes_required
    if not layout.hub_complete and on != CENTER:
        return _illegal(
            Reason.SPOKES_INCOMPLETE,
            f"The centre {layout.center} has {layout.spokes} of {k} spokes: every play "
            f"must be a new spoke on it (a tile with a {layout.hub}) until all {k} "
            "are down.",
            tile,
            on,
            **_hub_params(layout),
        )
    foot = layout.open_foot
    if foot is not None and on != foot:
        double = layout.get(foot).tile
        return _illegal(
            Reason.FOOT_INCOMPLETE,
            f"The chicken foot on {double} ({foot}) has {layout.children(foot)} of "
            f"{layout.toes_required} toes: the next plays must be toes on it (tiles "
            f"with a {double.high}).",
            tile,
            on,
            **_foot_params(layout, foot),
        )
    if layout.free_slots(on) == 0:
        return _full(layout, tile, on)
    number = layout.number_at(on)
    if not tile.has(number):
        return _illegal(
            Reason.NO_MATCH,
            f"{tile} has no {number}, so it cannot go on {describe_target(layout, on)}.",
            tile,
            on,
            number=number,
        )
    if tiles_per_turn == 1 and played_this_turn >= 1:
        who = player or "This player"
        return _illegal(
            Reason.ONE_TILE_PER_TURN,
            f"One tile per turn: {who} has already laid a tile this turn.",
            tile,
            on,
            player=player,
        )
    return _legal(layout, tile, on, number)


def _full(layout: Layout, tile: Tile, on: str) -> Verdict:
    kind = layout.kind(on)
    params: dict[str, Any] = {}
    if kind == "hub":
        params = _hub_params(layout)
    elif kind == "foot":
        params = _foot_params(layout, on)
    else:
        params = {"number": layout.get(on).outer}
    return _illegal(Reason(full_code(kind)), full_message(layout, on), tile, on, **params)


def _legal(layout: Layout, tile: Tile, on: str, number: int) -> Verdict:
    open_end = tile.other(number)
    target = describe_target(layout, on)
    creates = foot_done = None
    left = 0
    if tile.is_double:
        creates = layout.toes_required
        message = (
            f"Yes: {tile} goes crosswise on {target} and starts a chicken foot; the next "
            f"{creates} plays must be toes on it (tiles with a {number})."
        )
        section = "5.4"
        played_as, left = "foot", creates
    elif layout.kind(on) == "foot":
        foot_done = layout.children(on) + 1 >= layout.toes_required
        rest = (
            "that completes the chicken foot, so play is open everywhere again"
            if foot_done
            else f"the foot still needs {layout.toes_required - layout.children(on) - 1} more"
        )
        message = f"Yes: {tile} is a toe on {target}, leaving a {open_end} open; {rest}."
        section = "5.4"
        played_as, left = "toe", max(0, layout.toes_required - layout.children(on) - 1)
    elif on == CENTER:
        left = layout.spokes_required - layout.spokes - 1
        rest = (
            f"{left} more spoke{'s' if left != 1 else ''} to go"
            if left
            else "the centre is now complete, so play may spread"
        )
        message = f"Yes: {tile} is a spoke on {target}, leaving a {open_end} open; {rest}."
        section = "5.2"
        played_as = "spoke"
    else:
        message = f"Yes: {tile} goes on {target} and leaves a {open_end} open."
        section = "5.3"
        played_as = "end"
    params = {
        "tile": str(tile),
        "on": on,
        "played_as": played_as,
        "open_end": open_end,
        "left": left,
    }
    return Verdict(
        legal=True,
        reason=Reason.OK,
        message=message,
        rule=section,
        tile=tile,
        on=on,
        new_open_end=open_end,
        creates_foot_needing_toes=creates,
        foot_complete_after=foot_done,
        params=params,
    )


def legal_moves(layout: Layout, hand: Iterable[Tile]) -> list[tuple[Tile, str]]:
    """Every legal (tile, target id) for a hand, in hand order then target order (§5).

    In open play each tile looks its two numbers up in the layout's open-end index, so the cost
    is the hand times the ends that match, not the size of the layout; in the spoke and foot
    phases only one target is open (§5.2, §5.4).

    >>> from companion.engine import Layout, Tile, legal_moves, parse_tile
    >>> legal_moves(Layout.start(Tile(9, 9), 4, 3), [parse_tile("9-5"), parse_tile("6-5")])
    [(Tile(high=9, low=5), 'C')]
    """
    used = layout.used
    if not layout.in_open_play:
        target = layout.phase_target()
        if target is None:
            return []
        on, number = target
        return [
            (tile, on)
            for tile in hand
            if (tile.high == number or tile.low == number) and tile not in used
        ]
    ends_of = layout.ends_by_number.get  # bound once: this runs on every simulated turn
    moves: list[tuple[Tile, str]] = []
    add = moves.append
    for tile in hand:
        high = ends_of(tile.high, ())
        low = ends_of(tile.low, ()) if tile.low != tile.high else ()
        # two lookups in the index before the tile's own hash (a Python call): a tile that
        # matches no open end is skipped without it
        if not (high or low) or tile in used:
            continue
        for _, on in sorted(high + low) if high and low else high or low:
            add((tile, on))
    return moves


def has_legal_play(layout: Layout, hand: Iterable[Tile]) -> bool:
    """True if any tile of ``hand`` can be played now (§5.1).

    >>> from companion.engine import Layout, Tile, has_legal_play, parse_tile
    >>> has_legal_play(Layout.start(Tile(9, 9), 4, 3), [parse_tile("6-5")])
    False
    """
    used = layout.used
    if layout.in_open_play:
        numbers: Collection[int] = layout.ends_by_number
    else:
        target = layout.phase_target()
        numbers = () if target is None else (target[1],)
    return any(tile.high in numbers or tile.low in numbers for tile in hand if tile not in used)


def play(layout: Layout, tile: Tile, on: str, tile_id: str | None = None) -> Layout:
    """Lay ``tile`` on ``on`` after checking it is legal; returns the new layout.

    Raises LayoutError with the reason code when the move is illegal.

    >>> from companion.engine import Layout, Tile, parse_tile, play
    >>> later = play(Layout.start(Tile(9, 9), 4, 3), parse_tile("9-5"), "C")
    >>> [(p.on, p.outer) for p in later]
    [('C', 5)]
    """
    verdict = check_move(layout, tile, on)
    if not verdict.legal:
        raise LayoutError(verdict.reason, verdict.message, on)
    return layout.attach(tile, on, tile_id)
