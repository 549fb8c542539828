"""A small, hand-checkable history for the export/import tests (shared with the PostgreSQL run).

Night 1 (2026-11-20, "Kitchen"): game A on a double-6 set, seats Anna (0), Bob (1), Chloé (2);
round 1 (6-6): Anna out, Bob holds 5-4 2-1 (12), Chloé 7; round 2 (5-5) burned; round 3 (4-4):
Anna 3, Bob out, Chloé 10. Two audit entries (one from before codes, one with a code and its
parameters), one ruling.
Night 2 (2026-11-27, "=Club" - a formula-looking place): game B on a double-9 set, seats Anna,
Bobby (merged into Bob): one round (9-9): Anna 20 with 8-8 3-1, Bobby out on a double (50 points
under the penalty house rule). A ruling without a game.
"""

from __future__ import annotations

from datetime import date, datetime

from companion.engine import RuleSet
from companion.models import AuditEntry, Game, GameNight, HandScore, Player, Round, Ruling, Seat

T0 = datetime(2026, 11, 20, 19, 0, 0, 123456)


def _at(minutes: int) -> datetime:
    return T0.replace(minute=minutes % 60, hour=19 + minutes // 60)


def build(session) -> dict[str, object]:
    """Add the fixture and commit; returns the rows the tests refer to."""
    with session.no_autoflush:  # hands join the session through their round, not their seat
        rows = _build(session)
    session.commit()
    return rows


def _build(session) -> dict[str, object]:
    anna = Player(name="Anna", name_key="anna", created_at=_at(0))
    bob = Player(name="Bob", name_key="bob", created_at=_at(1))
    chloe = Player(name="Chloé", name_key="chloé", created_at=_at(2))
    bobby = Player(name="Bobby", name_key="bobby", created_at=_at(3))
    session.add_all([anna, bob, chloe, bobby])
    session.flush()
    bobby.merged_into_id = bob.id

    night1 = GameNight(played_on=date(2026, 11, 20), place="Kitchen", notes="Pizza", created_at=T0)
    six = RuleSet(set_size=6).to_dict()
    game_a = Game(
        night=night1,
        set_size=6,
        preset="standard",
        rules=six,
        status="finished",
        created_at=_at(5),
        updated_at=_at(50),
        finished_at=_at(50),
        share_token="share-game-a",
        edit_token="edit-game-a",
    )
    seats_a = [Seat(position=i, player=p) for i, p in enumerate([anna, bob, chloe])]
    game_a.seats = seats_a
    session.add(game_a)
    session.flush()
    game_a.rounds = [
        Round(
            number=1,
            start_double=6,
            outcome="out",
            starter_seat_id=seats_a[1].id,
            created_at=_at(10),
            updated_at=_at(11),
            hands=[
                HandScore(seat=seats_a[0], points=0, went_out=True, tiles=[]),
                HandScore(seat=seats_a[1], points=12, tiles=["5-4", "2-1"]),
                HandScore(seat=seats_a[2], points=7),
            ],
        ),
        Round(number=2, start_double=5, status="burned", created_at=_at(20), updated_at=_at(20)),
        Round(
            number=3,
            start_double=4,
            outcome="out",
            created_at=_at(30),
            updated_at=_at(31),
            hands=[
                HandScore(seat=seats_a[0], points=3),
                HandScore(seat=seats_a[1], points=0, went_out=True),
                HandScore(seat=seats_a[2], points=10),
            ],
        ),
    ]
    game_a.audit = [
        AuditEntry(
            at=_at(11),
            action="round_scored",
            summary="Round 1",
            before=None,
            # like companion.services.round_store.round_snapshot: seats by database id
            after={
                "number": 1,
                "start_double": 6,
                "status": "scored",
                "outcome": "out",
                "starter_seat_id": seats_a[1].id,
                "hands": [
                    {
                        "seat_id": seats_a[2].id,
                        "points": 7,
                        "went_out": False,
                        "out_on_double": False,
                        "tiles": None,
                    }
                ],
            },
        ),
        AuditEntry(
            at=_at(12),
            action="round_corrected",
            summary="Chloé 8 → 7",
            # written since audit lines are codes (issue 13): the reader's language words it
            code="round_corrected",
            params={
                "double": 6,
                "hands": [{"name": "Chloé", "points": 7, "went_out": False, "by": "scorekeeper"}],
            },
            before={"points": 8},
            after={"points": 7},
            undone=True,
        ),
    ]
    session.add(
        Ruling(
            game=game_a,
            created_at=_at(15),
            category="placement",
            question={
                "category": "placement",
                "ruleset": {"preset": "standard", "overrides": {"set_size": 6}},
                "input": {"layout": {"center": "6-6"}, "move": {"tile": "6-3", "on": "C"}},
            },
            answer={"legal": True, "rule": "5.2"},
            rules=six,
            summary="6-3 may be played on the 6-6.",
        )
    )

    night2 = GameNight(played_on=date(2026, 11, 27), place="=Club", notes="", created_at=_at(100))
    nine = RuleSet(going_out_on_double="penalty_50").to_dict()
    game_b = Game(
        night=night2,
        set_size=9,
        preset="custom",
        rules=nine,
        hand_size=7,
        status="active",
        created_at=_at(101),
        updated_at=_at(110),
        share_token="share-game-b",
        edit_token="edit-game-b",
    )
    seats_b = [Seat(position=0, player=anna), Seat(position=1, player=bobby)]
    game_b.seats = seats_b
    session.add(game_b)
    session.flush()
    game_b.rounds = [
        Round(
            number=1,
            start_double=9,
            outcome="out",
            created_at=_at(105),
            updated_at=_at(106),
            hands=[
                HandScore(seat=seats_b[0], points=20, tiles=["8-8", "3-1"]),
                HandScore(seat=seats_b[1], points=50, went_out=True, out_on_double=True, tiles=[]),
            ],
        )
    ]
    session.add(
        Ruling(
            created_at=_at(120),
            category="scoring",
            question={
                "category": "scoring",
                "ruleset": {"preset": "standard"},
                "input": {"hand": ["0-0"]},
            },
            answer={"points": 50},
            rules=RuleSet().to_dict(),
            summary="The double-blank counts 50.",
        )
    )
    return {"night1": night1, "night2": night2, "game_a": game_a, "game_b": game_b}
