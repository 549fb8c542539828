"""A small history with explicit scores, so every statistic can be checked by hand.

Players (created in this order, so ids ascend): Ann, Bob, Cy, Dee, Eve, Annie, Zed.
Games list each player's points per scored round; ``0*`` is going out (``went_out``), ``50d``
going out on a double under the Wikipedia preset (50 points, not a zero round).

Night N1 2026-01-10 "Ann's kitchen" (notes "first night")
  G1 double-9 standard, rounds 9-9 8-8 7-7      Ann 0 12 8 = 20 | Bob 10 0 10 = 20 | Cy 5 7 0 = 12
     Cy wins (lowest total); Ann 2nd over Bob (both 20, one zero round each, lowest single
     non-zero round 8 < 10). One ruling, two audit entries.
  G2 double-9 standard                          Ann 5 0 5 = 10 | Bob 0 5 5 = 10 | Dee 6 6 0 = 12
     Ann and Bob share the win (10, one zero round, best round 5 each); Dee 3rd.
Night N2 2026-02-14 "Club" (notes "Valentine")
  G3 double-6 wikipedia, rounds 6-6 5-5 4-4     Ann 50d 4 2 = 56 | Cy 9 0 3 = 12 | Eve 3 6 0 = 9
     Eve wins; Cy 2nd; Ann 3rd with no zero round (the 50 is not one).
  G4 double-12, tiebreak_exhausted next_lowest_nonzero, rounds 12-12 .. 9-9
                                                Bob 0 4 3 6 = 13 | Eve 3 0 5 5 = 13
     Tied on total, zero rounds (1) and best round (3); Bob wins on the next-lowest non-zero
     round (4 < 5).
  G5 double-9 standard, still in play           Ann 0 | Bob 20   (never counted)
Night N3 2026-03-07 "Ann's kitchen"
  G6 double-9 standard, rounds 9-9, 8-8 burned, 7-7, 6-6
                                                Annie 0 3 5 = 8 | Cy 7 0 6 = 13 | Dee 9 4 0 = 13
     Annie wins; Dee 2nd over Cy (13 each, one zero round, best round 4 < 6).
  G7 double-9, finished but deleted              Ann 0 | Bob 100   (never counted)
Night N4 2026-04-01, deleted                     G8 finished: Cy 0 | Dee 1   (never counted)
Zed never played.

After ``merge`` (Annie into Ann), Ann's record over G1 G2 G3 G6:
  games 4, wins 1 (G6), shared 1 (G2), win rate 1/4, points 20+10+56+8 = 94 over 12 rounds,
  zero rounds 1+1+0+1 = 3, best 8 (G6), worst 56 (G3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from flask import current_app
from sqlalchemy import select

from companion.engine import RuleSet, preset
from companion.extensions import db
from companion.models import AuditEntry, Game, GameNight, HandScore, Player, Round, Ruling, Seat

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Annie", "Zed"]
OUT = "0*"
OUT_ON_DOUBLE = "50d"


@dataclass
class History:
    """Ids of what :func:`build` created: ``players[name]``, ``nights["N1"]``, ``games["G1"]``."""

    players: dict[str, int] = field(default_factory=dict)
    nights: dict[str, int] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)


def _hand(seat: Seat, value: int | str) -> HandScore:
    if value == OUT:
        return HandScore(seat=seat, points=0, went_out=True)
    if value == OUT_ON_DOUBLE:
        return HandScore(seat=seat, points=50, went_out=True, out_on_double=True)
    return HandScore(seat=seat, points=int(value))


def _game(
    night: GameNight,
    players: dict[str, Player],
    set_size: int,
    scores: dict[str, list[int | str | None]],
    *,
    rules: RuleSet | None = None,
    preset_name: str = "standard",
    finished: bool = True,
    burned: tuple[int, ...] = (),
    deleted: bool = False,
) -> Game:
    """A game whose rounds start at the set's highest double; ``burned`` lists round numbers
    (1-based) that were burned (no hands)."""
    game = Game(
        night=night,
        set_size=set_size,
        preset=preset_name,
        rules=(rules or RuleSet()).to_dict(),
        status="finished" if finished else "active",
        finished_at=datetime(2026, 1, 1) if finished else None,
        deleted_at=datetime(2026, 1, 2) if deleted else None,
    )
    seats = [Seat(player=players[name], position=i) for i, name in enumerate(scores)]
    game.seats = seats
    rounds = max(len(v) for v in scores.values()) + len(burned)
    index = 0
    for number in range(1, rounds + 1):
        double = set_size - number + 1
        if number in burned:
            game.rounds.append(Round(number=number, start_double=double, status="burned"))
            continue
        hands = [_hand(seat, scores[seat.player.name][index]) for seat in seats]
        # nobody out (G4's last round): the round was blocked, as the round form says it
        outcome = "out" if any(h.went_out for h in hands) else "blocked"
        rnd = Round(number=number, start_double=double, status="scored", outcome=outcome)
        rnd.hands = hands
        game.rounds.append(rnd)
        index += 1
    db.session.add(game)
    return game


def build(*, merged: bool = True) -> History:
    """Create the history above (and merge Annie into Ann when ``merged``); returns the ids."""
    from companion.history.players import merge

    # One live player per name, as the database requires: a name already there is reused.
    live = {
        p.name_key: p
        for p in db.session.scalars(select(Player).where(Player.merged_into_id.is_(None)))
    }
    players = {
        name: live.get(name.casefold()) or Player(name=name, name_key=name.casefold())
        for name in NAMES
    }
    db.session.add_all(players.values())
    n1 = GameNight(played_on=date(2026, 1, 10), place="Ann's kitchen", notes="first night")
    n2 = GameNight(played_on=date(2026, 2, 14), place="Club", notes="Valentine")
    n3 = GameNight(played_on=date(2026, 3, 7), place="Ann's kitchen")
    n4 = GameNight(played_on=date(2026, 4, 1), place="Gone", deleted_at=datetime(2026, 4, 2))
    db.session.add_all([n1, n2, n3, n4])
    g1 = _game(n1, players, 9, {"Ann": [OUT, 12, 8], "Bob": [10, OUT, 10], "Cy": [5, 7, OUT]})
    g2 = _game(n1, players, 9, {"Ann": [5, OUT, 5], "Bob": [OUT, 5, 5], "Dee": [6, 6, OUT]})
    g3 = _game(
        n2,
        players,
        6,
        {"Ann": [OUT_ON_DOUBLE, 4, 2], "Cy": [9, OUT, 3], "Eve": [3, 6, OUT]},
        rules=preset("wikipedia"),
        preset_name="wikipedia",
    )
    g4 = _game(
        n2,
        players,
        12,
        {"Bob": [OUT, 4, 3, 6], "Eve": [3, OUT, 5, 5]},
        rules=RuleSet(tiebreak_exhausted="next_lowest_nonzero"),
    )
    g5 = _game(n2, players, 9, {"Ann": [OUT], "Bob": [20]}, finished=False)
    g6 = _game(
        n3,
        players,
        9,
        {"Annie": [OUT, 3, 5], "Cy": [7, OUT, 6], "Dee": [9, 4, OUT]},
        burned=(2,),
    )
    g7 = _game(n3, players, 9, {"Ann": [OUT], "Bob": [100]}, deleted=True)
    g8 = _game(n4, players, 9, {"Cy": [OUT], "Dee": [1]})
    db.session.add(
        Ruling(
            game=g1,
            category="placement",
            question={
                "category": "placement",
                "ruleset": {"preset": "standard"},
                "input": {"layout": {"center": "9-9"}, "move": {"tile": "9-3", "on": "C"}},
            },
            answer={},
            rules=RuleSet().to_dict(),
            summary="9-3 may be laid on a spoke of the 9-9.",
        )
    )
    db.session.add_all(
        [
            AuditEntry(
                game=g1, action="game_created", summary="Game started.", before={}, after={}
            ),
            AuditEntry(
                game=g1, action="round_saved", summary="Round 1 (9-9) saved.", before={}, after={}
            ),
        ]
    )
    db.session.commit()
    history = History(
        players={name: p.id for name, p in players.items()},
        nights={"N1": n1.id, "N2": n2.id, "N3": n3.id, "N4": n4.id},
        games={f"G{i}": g.id for i, g in enumerate([g1, g2, g3, g4, g5, g6, g7, g8], start=1)},
    )
    if merged:
        with current_app.test_request_context():  # the audit summary is translated
            merge(players["Annie"], players["Ann"])
    return history
