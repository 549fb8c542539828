"""A game night told in a few sentences, and the night's standings for its picture.

Plain values in (:class:`StoryGame`: names, points per round, places), sentences in the
reader's language out. What is told (issue 25): who won each game and the night, the closest
finish, the biggest comeback (from the running totals: the furthest a winner was behind the
leader after a round), the rounds finished with 0 points, and the double-blank that hurt most
(the hand left holding the 0-0 with the most points, when the tiles were recorded).
Points are game points (lower is better).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

#: the tile whose hand is "the double-blank that hurt"
DOUBLE_BLANK = "0-0"
#: up to this many games, each game's winner gets a sentence; more: only the night's winner
WINNER_SENTENCES = 3
#: at most this many players named for zero rounds: those with the most always, then whole
#: groups of tied counts while they fit (a tie is never cut in two)
ZERO_NAMES = 3


@dataclass(frozen=True, slots=True)
class StoryRound:
    """A scored round: its double and, per seat (seat order), the points and whether the
    hand left held the double-blank (False when the tiles were not recorded)."""

    double: int
    points: tuple[int, ...]
    blank: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class StoryGame:
    """A finished game of the night: its number in the night (1 = first), set, players in
    seat order with their final places (1 = winner; tied players share it), totals and
    scored rounds in play order."""

    number: int
    set_size: int
    names: tuple[str, ...]
    places: tuple[int, ...]
    totals: tuple[int, ...]
    rounds: tuple[StoryRound, ...] = field(default=())

    def winners(self) -> list[str]:
        """The names in first place."""
        return [n for n, p in zip(self.names, self.places, strict=True) if p == 1]


@dataclass(frozen=True, slots=True)
class NightLine:
    """One player's night: games played and won, and points over those games."""

    name: str
    games: int
    wins: int
    points: int


def name_list(names: Sequence[str]) -> str:
    """Names as a list in the reader's language ("Ann, Bob and Cy")."""
    return format_list(list(names), locale=str(get_locale() or "en"))


def night_standings(games: Sequence[StoryGame]) -> list[NightLine]:
    """Everyone who played, best first: most wins (shared ones count), then fewest points per
    game played, then name."""
    lines: dict[str, list[int]] = {}
    for game in games:
        for name, place, total in zip(game.names, game.places, game.totals, strict=True):
            line = lines.setdefault(name, [0, 0, 0])
            line[0] += 1
            line[1] += place == 1
            line[2] += total
    out = [NightLine(name, g, w, p) for name, (g, w, p) in lines.items()]
    return sorted(out, key=lambda ln: (-ln.wins, ln.points / ln.games, ln.name.casefold()))


def story(games: Sequence[StoryGame]) -> list[str]:
    """The night in sentences (empty when no game was finished)."""
    if not games:
        return []
    sentences = [_winner_sentence(g) for g in games] if len(games) <= WINNER_SENTENCES else []
    if len(games) > 1:
        sentences.append(_night_sentence(night_standings(games)))
    for maker in (_closest, _comeback, _zero_rounds, _double_blank):
        if (text := maker(games)) is not None:
            sentences.append(text)
    return sentences


def _winner_sentence(game: StoryGame) -> str:
    winners = game.winners()
    total = min(game.totals)
    if len(winners) > 1:
        return ngettext(
            "Game %(game)s (double-%(set)s): %(names)s shared the win on %(num)s point.",
            "Game %(game)s (double-%(set)s): %(names)s shared the win on %(num)s points.",
            total,
            game=game.number,
            set=game.set_size,
            names=name_list(winners),
        )
    return ngettext(
        "Game %(game)s (double-%(set)s): %(name)s won with %(num)s point.",
        "Game %(game)s (double-%(set)s): %(name)s won with %(num)s points.",
        total,
        game=game.number,
        set=game.set_size,
        name=winners[0],
    )


def _night_sentence(lines: Sequence[NightLine]) -> str:
    most = lines[0].wins
    best = [ln.name for ln in lines if ln.wins == most]
    if most == 0:  # pragma: no cover - every finished game has a winner
        return ""
    if len(best) > 1:
        return ngettext(
            "%(names)s won the most games tonight, %(num)s each.",
            "%(names)s won the most games tonight, %(num)s each.",
            most,
            names=name_list(best),
        )
    return ngettext(
        "%(name)s won the most games tonight: %(num)s.",
        "%(name)s won the most games tonight: %(num)s.",
        most,
        name=best[0],
    )


def _closest(games: Sequence[StoryGame]) -> str | None:
    """The game with the smallest gap between first place and the next total."""
    best: tuple[int, StoryGame, str, str, int] | None = None
    for game in games:
        if len(game.names) < 2:
            continue
        order = sorted(zip(game.places, game.totals, game.names, strict=True))
        (_p1, t1, n1), (_p2, t2, n2) = order[0], order[1]
        gap = t2 - t1
        if best is None or gap < best[0]:
            best = (gap, game, n1, n2, t1)
    if best is None:
        return None
    gap, game, first, second, total = best
    if gap == 0:
        return ngettext(
            "Closest finish: in game %(game)s %(first)s and %(second)s ended level on "
            "%(num)s point.",
            "Closest finish: in game %(game)s %(first)s and %(second)s ended level on "
            "%(num)s points.",
            total,
            game=game.number,
            first=first,
            second=second,
        )
    return ngettext(
        "Closest finish: in game %(game)s %(first)s was %(num)s point ahead of %(second)s.",
        "Closest finish: in game %(game)s %(first)s was %(num)s points ahead of %(second)s.",
        gap,
        game=game.number,
        first=first,
        second=second,
    )


def behind_leader(game: StoryGame) -> list[tuple[int, str, int]]:
    """For each winner of ``game``: (points behind the leader, name, round number) at the
    round after which they were furthest behind (running totals; rounds before the last)."""
    out = []
    for seat, name in enumerate(game.names):
        if game.places[seat] != 1:
            continue
        running = [0] * len(game.names)
        worst = (0, name, 0)
        for number, rnd in enumerate(game.rounds[:-1], start=1):
            running = [a + b for a, b in zip(running, rnd.points, strict=True)]
            gap = running[seat] - min(running)
            if gap > worst[0]:
                worst = (gap, name, number)
        out.append(worst)
    return out


def _comeback(games: Sequence[StoryGame]) -> str | None:
    best: tuple[int, str, int, StoryGame] | None = None
    for game in games:
        for gap, name, number in behind_leader(game):
            if gap > 0 and (best is None or gap > best[0]):
                best = (gap, name, number, game)
    if best is None:
        return None
    gap, name, number, game = best
    return ngettext(
        "Biggest comeback: %(name)s was %(num)s point behind after round %(round)s "
        "(the %(double)s-%(double)s) and still won game %(game)s.",
        "Biggest comeback: %(name)s was %(num)s points behind after round %(round)s "
        "(the %(double)s-%(double)s) and still won game %(game)s.",
        gap,
        name=name,
        round=number,
        double=game.rounds[number - 1].double,
        game=game.number,
    )


def _zero_rounds(games: Sequence[StoryGame]) -> str | None:
    counts: dict[str, int] = {}
    for game in games:
        for rnd in game.rounds:
            for name, points in zip(game.names, rnd.points, strict=True):
                if points == 0:
                    counts[name] = counts.get(name, 0) + 1
    if not counts:
        return _("Nobody finished a round with 0 points.")
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].casefold()))
    named: list[tuple[str, int]] = []
    for _count, group in groupby(ranked, key=lambda kv: kv[1]):
        tied = list(group)
        if named and len(named) + len(tied) > ZERO_NAMES:
            break
        named += tied
    parts = [_("%(name)s (%(num)s)", name=name, num=n) for name, n in named]
    return _("Most rounds finished with 0 points: %(list)s.", list=name_list(parts))


def _double_blank(games: Sequence[StoryGame]) -> str | None:
    best: tuple[int, str, int, StoryGame] | None = None
    for game in games:
        for number, rnd in enumerate(game.rounds, start=1):
            for name, points, blank in zip(game.names, rnd.points, rnd.blank, strict=False):
                if blank and (best is None or points > best[0]):
                    best = (points, name, number, game)
    if best is None:
        return None
    points, name, number, game = best
    return ngettext(
        "The double-blank hurt most in game %(game)s, round %(round)s: %(name)s was left "
        "holding it, %(num)s point in all.",
        "The double-blank hurt most in game %(game)s, round %(round)s: %(name)s was left "
        "holding it, %(num)s points in all.",
        points,
        game=game.number,
        round=number,
        name=name,
    )
