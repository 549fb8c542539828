"""The public state of a round at one moment (RULES.md §3-§6): what the engine's verbs about a
round are asked about, as one frozen value instead of loose arguments.

One value serves the three moments a round is asked about:

* before its double is known (:func:`~.sequence.next_round`): the rules, the doubles that
  started the rounds played so far and, after a deal, who holds which double;
* at its start (:func:`~.starters.start_of_round`): the seats, the round's number and double,
  and what the table knows of who holds, found or drew tiles;
* in play (:func:`~.round_end.round_status`): the layout, the hands, the chicken yard's count and
  what is known of the turn.

The simulator (:mod:`.simulate`) deals each round from such a state and asks the engine with a
state built from it, so the round's context has this one home.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from .layout import Layout
from .rules import RuleSet
from .tiles import Tile


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundState:
    """A round of a game at one moment; built with keywords, every part but the rules optional.

    Attributes:
        rules: the house rules in force.
        set_size: N of the double-N set; None = ``rules.set_size`` (see :attr:`n`).
        number: the round's number, 1-based (decides the starter rule, §3.6).
        seats: the players in seating order, clockwise (``P1`` first); () when not known.
        played: the start doubles of the rounds played before, in order (9 for 9-9; §3.5, §4).
        round1_starter: who started round 1 (``rotate_left``, §3.6).
        holders: double -> who holds it, or None when known that nobody does (after a deal;
            doubles not listed are assumed found normally, §3.5).
        start_double: this round's double (9 for 9-9); None = the layout's centre, else the
            double that normally starts this round (see :attr:`double`).
        draws: player -> the tile they drew to pick the first starter (``draw_highest_tile``).
        found_by: who found the double in a pre-deal search or by drawing for it (§3.4).
        layout: the tiles on the table (the centre double and everything laid on it); None
            before the centre double is laid.
        hands: player -> tiles held (players not listed are not scored); frozen on creation.
        yard_count: tiles left in the chicken yard (a count of tiles, reserve included).
        players: the player count (for the S001 reserve); None = the seats, else the hands.
        to_move: the player whose turn it is, if known.
        went_out: the player who just laid their last tile, if known from an event.
        last_tile_was_double: that last tile was a double (``going_out_on_double``, §6).
    """

    rules: RuleSet
    set_size: int | None = None
    number: int = 1
    seats: Sequence[str] = ()
    played: Sequence[int] = ()
    round1_starter: str | None = None
    holders: Mapping[int, str | None] = field(default_factory=dict)
    start_double: int | None = None
    draws: Mapping[str, Tile] = field(default_factory=dict)
    found_by: str | None = None
    layout: Layout | None = None
    hands: Mapping[str, Sequence[Tile]] = field(default_factory=dict)
    yard_count: int = 0
    players: int | None = None
    to_move: str | None = None
    went_out: str | None = None
    last_tile_was_double: bool = False

    def __post_init__(self) -> None:
        # A caller's lists and dicts must not change the state afterwards: copy and freeze them.
        put = object.__setattr__
        put(self, "seats", tuple(self.seats))
        put(self, "played", tuple(self.played))
        put(self, "holders", MappingProxyType(dict(self.holders)))
        put(self, "draws", MappingProxyType(dict(self.draws)))
        put(self, "hands", MappingProxyType({p: tuple(h) for p, h in self.hands.items()}))

    @property
    def n(self) -> int:
        """N of the double-N set: ``set_size`` when given, else the rules' set."""
        return self.rules.set_size if self.set_size is None else self.set_size

    @property
    def double(self) -> int:
        """This round's double (9 for 9-9): ``start_double``, else the layout's centre, else
        the one that normally starts round ``number``: N - number + 1 (§4)."""
        if self.start_double is not None:
            return self.start_double
        if self.layout is not None:
            return self.layout.center.high
        return self.n - self.number + 1

    @property
    def player_count(self) -> int | None:
        """Players at the table: ``players``, else the seats, else the hands (None if none)."""
        if self.players is not None:
            return self.players
        return len(self.seats) or len(self.hands) or None

    @property
    def table(self) -> Layout:
        """The layout, for the verbs about a round in play.

        Raises ValueError when no layout was given (a caller's mistake, not a player's)."""
        if self.layout is None:
            raise ValueError("This needs the round in play: give the state its layout.")
        return self.layout
