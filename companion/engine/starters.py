"""Who starts a round and who lays the first spoke (RULES.md §3.6). Play runs clockwise."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .errors import RuleError
from .rules import RuleSet, StartDoubleSource, Starter
from .tiles import Tile


class StartAction(StrEnum):
    """What the starter of a round does (RULES.md §3.6), for :attr:`StartInfo.how`."""

    DREW_HIGHEST = "drew_highest"
    EVERYONE_DRAWS = "everyone_draws"
    ROTATE = "rotate"
    PRE_DEAL_SEARCH = "pre_deal_search"
    PLACES = "places"
    SET_ASIDE = "set_aside"
    DREW_FROM_YARD = "drew_from_yard"


@dataclass(frozen=True, slots=True)
class StartInfo:
    """The start of one round.

    Attributes:
        starter: the player who places the centre double (None when not yet known).
        first_spoke_by: who lays the first spoke (None when seats are unknown).
        tied: players tied on the highest drawn tile, who draw again (``draw_highest_tile``).
        draw_tiles_returned: the tiles drawn to decide the starter go back to the yard.
        set_aside_before_deal: the double is found and placed before the hands are dealt.
        action: what the starter does, in English words (the API's ``starter_action``).
        rule_name: the switch that decided (``first_round_starter``/``later_round_starter``).
        how: what the starter does, as a code (:class:`StartAction`; worded for pages by
            ``companion.words.start_action``).
        lays_first_spoke: the starter also lays the first spoke (``starter_plays_first_spoke``).
    """

    starter: str | None
    first_spoke_by: str | None
    tied: tuple[str, ...]
    draw_tiles_returned: bool
    set_aside_before_deal: bool
    action: str
    rule_name: str
    how: str = ""
    lays_first_spoke: bool = False


def next_clockwise(seats: Sequence[str], player: str, steps: int = 1) -> str:
    """The player ``steps`` seats to the left (clockwise) of ``player``.

    Raises RuleError when ``player`` is not seated.
    """
    if player not in seats:
        raise RuleError(
            "UNKNOWN_PLAYER",
            "%(player)s is not in the seating order.",
            "input.seats_clockwise",
            params={"player": player},
        )
    return seats[(list(seats).index(player) + steps) % len(seats)]


def highest_draw(draws: Mapping[str, Tile]) -> tuple[str, ...]:
    """Players whose drawn tile has the most pips (S000 'highest value' = pip total)."""
    if not draws:
        return ()
    best = max(t.pips for t in draws.values())
    return tuple(p for p, t in draws.items() if t.pips == best)


def start_of_round(
    rules: RuleSet,
    double: int,
    round_number: int,
    *,
    seats: Sequence[str] = (),
    holder: str | None = None,
    draws: Mapping[str, Tile] | None = None,
    found_by: str | None = None,
    round1_starter: str | None = None,
) -> StartInfo:
    """Who starts round ``round_number`` (1-based) with centre double ``double`` (§3.6).

    Args:
        holder: who holds the double (``holder_of_start_double``).
        draws: player -> tile drawn to pick the first starter (``draw_highest_tile``).
        found_by: who found the double in a pre-deal search or by drawing for it.
        round1_starter: who started round 1 (``rotate_left``).
    """
    rule_name = "first_round_starter" if round_number == 1 else "later_round_starter"
    rule = getattr(rules, rule_name)
    pulled = rules.start_double_source == StartDoubleSource.PULLED_BEFORE_DEAL
    returned = False
    tied: tuple[str, ...] = ()
    name = f"{double}-{double}"
    starter: str | None
    if rule == Starter.DRAW_HIGHEST_TILE:
        returned = True
        best = highest_draw(draws or {})
        starter = best[0] if len(best) == 1 else None
        tied = best if len(best) > 1 else ()
        how = StartAction.DREW_HIGHEST if starter else StartAction.EVERYONE_DRAWS
        action = (
            f"drew the highest tile, places {name} in the centre"
            if starter
            else "everyone draws a tile; the highest pip total starts"
        )
    elif rule == Starter.ROTATE_LEFT:
        starter = (
            next_clockwise(seats, round1_starter, round_number - 1)
            if seats and round1_starter
            else None
        )
        how = StartAction.ROTATE
        action = f"starts, to the left of the last round's starter, with {name} in the centre"
    elif rule == Starter.PRE_DEAL_SEARCH:
        returned = True
        starter = found_by
        how = StartAction.PRE_DEAL_SEARCH
        action = f"found {name} in the pre-deal search and places it in the centre"
    else:
        starter = holder or found_by
        how = StartAction.PLACES
        action = f"places {name} in the centre"
        if pulled and starter is None and seats and round1_starter:
            # The double was set aside before the deal, so nobody "holds" it: rotate (§3.6).
            starter = next_clockwise(seats, round1_starter, round_number - 1)
            how = StartAction.SET_ASIDE
            action = f"starts with {name}, set aside before the deal"
        elif holder is None and found_by:
            how = StartAction.DREW_FROM_YARD
            action = f"drew {name} from the chicken yard and places it in the centre"
    if rules.starter_plays_first_spoke:
        action += " and lays the first spoke"
        first = starter
    else:
        first = next_clockwise(seats, starter) if (seats and starter) else None
    return StartInfo(
        starter=starter,
        first_spoke_by=first,
        tied=tied,
        draw_tiles_returned=returned,
        set_aside_before_deal=pulled or rule == Starter.PRE_DEAL_SEARCH,
        action=action,
        rule_name=rule_name,
        how=how,
        lays_first_spoke=rules.starter_plays_first_spoke,
    )
