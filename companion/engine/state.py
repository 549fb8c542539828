"""The public state of a round at one moment (RULES.md §3-§6): what the engine's verbs about a
round are asked about, as one frozen value instead of loose arguments.

Three types, one per moment a round is asked about, each requiring what its verb needs:

* :class:`RoundState`, before its double is known (:func:`~.sequence.next_round`): the rules,
  the doubles that started the rounds played so far and, after a deal, who holds which double
  (all optional: nothing played yet is a real answer);
* :class:`RoundStart`, at its start (:func:`~.starters.start_of_round`): the round's number is
  required (it picks the first-round or later-round starter rule), with the seats, the double
  and what the table knows of who holds, found or drew tiles;
* :class:`RoundInPlay`, in play (:func:`~.round_end.round_status`): the layout, the hands and
  the chicken yard's count are required (a yard of 0 would end a blocked round), with what is
  known of the turn.

:meth:`RoundState.at_start` and :meth:`RoundState.in_play` carry the game around the round
(rules, set, seats, doubles, holders) from one moment to the next.

The simulator (:mod:`.simulate`) deals each round from such a state and asks the engine with a
state built from it, so the round's context has this one home.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from .layout import Layout
from .rules import RuleSet
from .tiles import Tile


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundState:
    """The game around a round (before its double is known); built with keywords, every part
    but the rules optional.

    Attributes:
        rules: the house rules in force.
        set_size: N of the double-N set; None = ``rules.set_size`` (see :attr:`n`).
        number: the round's number, 1-based (decides the starter rule, §3.6).
        seats: the players in seating order, clockwise (``P1`` first); () when not known.
        played: the start doubles of the rounds played before, in order (9 for 9-9; §3.5, §4).
        round1_starter: who started round 1 (``rotate_left``, §3.6).
        holders: double -> who holds it, or None when known that nobody does (after a deal;
            doubles not listed are assumed found normally, §3.5).
        start_double: this round's double (9 for 9-9); None = the double that normally starts
            this round (see :attr:`double`).
        draws: player -> the tile they drew to pick the first starter (``draw_highest_tile``).
        found_by: who found the double in a pre-deal search or by drawing for it (§3.4).

    >>> from companion.engine import RuleSet
    >>> RoundState(rules=RuleSet(), number=3).double  # double-9, round 3: 7-7
    7
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

    def __post_init__(self) -> None:
        # A caller's lists and dicts must not change the state afterwards: copy and freeze them.
        put = object.__setattr__
        put(self, "seats", tuple(self.seats))
        put(self, "played", tuple(self.played))
        put(self, "holders", MappingProxyType(dict(self.holders)))
        put(self, "draws", MappingProxyType(dict(self.draws)))

    @property
    def n(self) -> int:
        """N of the double-N set: ``set_size`` when given, else the rules' set."""
        return self.rules.set_size if self.set_size is None else self.set_size

    @property
    def double(self) -> int:
        """This round's double (9 for 9-9): ``start_double``, else the one that normally starts
        round ``number``: N - number + 1 (§4)."""
        if self.start_double is not None:
            return self.start_double
        return self.n - self.number + 1

    def _game(self) -> dict[str, Any]:
        """The parts every moment shares, as keywords for another moment's type."""
        return {f.name: getattr(self, f.name) for f in fields(RoundState)}

    def at_start(self, **changes: Any) -> RoundStart:
        """This round at its start (``changes``: e.g. ``number``, ``start_double``)."""
        return RoundStart(**{**self._game(), **changes})

    def in_play(
        self, *, layout: Layout, hands: Mapping[str, Sequence[Tile]], yard_count: int, **known: Any
    ) -> RoundInPlay:
        """This round in play: its ``layout``, ``hands`` and chicken yard count, and what is
        ``known`` of the turn (``to_move``, ``went_out``, ``last_tile_was_double``,
        ``players``)."""
        return RoundInPlay(
            **self._game(), layout=layout, hands=hands, yard_count=yard_count, **known
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStart(RoundState):
    """A round at its start, for :func:`~.starters.start_of_round`: as :class:`RoundState`,
    with the round's ``number`` required (round 1 has a starter rule of its own, §3.6).

    >>> from companion.engine import RuleSet, start_of_round
    >>> start = RoundStart(rules=RuleSet(), number=2, start_double=8, holders={8: "Bob"})
    >>> start_of_round(start).starter
    'Bob'
    """

    number: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundInPlay(RoundState):
    """A round in play, for :func:`~.round_end.round_status`: as :class:`RoundState`, with the
    tiles on the table, the hands and the chicken yard's count required.

    Attributes (besides :class:`RoundState`'s):
        layout: the tiles on the table (the centre double and everything laid on it).
        hands: player -> tiles held (players not listed are not scored); frozen on creation.
        yard_count: tiles left in the chicken yard (a count of tiles, reserve included).
        players: the player count (for the S001 reserve); None = the seats, else the hands.
        to_move: the player whose turn it is, if known.
        went_out: the player who just laid their last tile, if known from an event.
        last_tile_was_double: that last tile was a double (``going_out_on_double``, §6).

    >>> from companion.engine import Layout, RuleSet, Tile, parse_tile
    >>> table = Layout.start(Tile(9, 9), 4, 3)
    >>> state = RoundInPlay(rules=RuleSet(), layout=table, hands={"Ann": [parse_tile("9-5")]},
    ...                     yard_count=20)
    >>> state.double, state.hands["Ann"]
    (9, (Tile(high=9, low=5),))
    """

    layout: Layout
    hands: Mapping[str, Sequence[Tile]]
    yard_count: int
    players: int | None = None
    to_move: str | None = None
    went_out: str | None = None
    last_tile_was_double: bool = False

    def __post_init__(self) -> None:
        RoundState.__post_init__(self)  # not super(): a slotted dataclass is a new class
        hands = MappingProxyType({p: tuple(h) for p, h in self.hands.items()})
        object.__setattr__(self, "hands", hands)

    @property
    def double(self) -> int:
        """This round's double: ``start_double``, else the layout's centre."""
        return self.layout.center.high if self.start_double is None else self.start_double

    @property
    def player_count(self) -> int | None:
        """Players at the table: ``players``, else the seats, else the hands (None if none)."""
        if self.players is not None:
            return self.players
        return len(self.seats) or len(self.hands) or None
