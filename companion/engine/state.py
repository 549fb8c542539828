"""The public state of a round at one moment (RULES.md §5, §6): what the engine's verbs about a
round in play are asked about, as one frozen value instead of loose arguments."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from .layout import Layout
from .rules import RuleSet
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class RoundState:
    """A round at one moment.

    Attributes:
        layout: the tiles on the table (the centre double and everything laid on it).
        hands: player -> tiles held (players not listed are not scored); frozen on creation.
        yard_count: tiles left in the chicken yard (a count of tiles).
        rules: the house rules in force.
        players: the player count (for the S001 reserve); None = the number of hands.
        to_move: the player whose turn it is, if known.
        went_out: the player who just laid their last tile, if known from an event.
        last_tile_was_double: that last tile was a double (``going_out_on_double``, §6).
    """

    layout: Layout
    hands: Mapping[str, Sequence[Tile]]
    yard_count: int
    rules: RuleSet
    players: int | None = None
    to_move: str | None = None
    went_out: str | None = None
    last_tile_was_double: bool = False

    def __post_init__(self) -> None:
        # A caller's dict of lists must not change the state afterwards: copy and freeze it.
        frozen = MappingProxyType({p: tuple(h) for p, h in self.hands.items()})
        object.__setattr__(self, "hands", frozen)
