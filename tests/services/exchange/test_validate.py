"""The import's second step on plain data (companion.services.exchange.validate): no app, no
database, no request. Every problem is found, once, at its JSON path, in the file's order."""

from __future__ import annotations

import copy
from typing import Any

from companion.services.exchange.validate import validate

from .plain_doc import document, game, player

GAME = "$.nights[0].games[0]"
ROUND = f"{GAME}.rounds[0]"
#: the first game and its first round in words, as problems there start (no app: ISO dates)
NIGHT = "Game night of 2026-11-20, game 1"
PLACE = f"{NIGHT}, round 1 (the 6-6)"


def _problems(doc: Any) -> dict[str, str]:
    return {p.path: p.message for p in validate(doc)}


def _game(doc: dict[str, Any]) -> dict[str, Any]:
    game_doc: dict[str, Any] = doc["nights"][0]["games"][0]
    return game_doc


def test_a_valid_document_has_no_problems():
    assert validate(document()) == []


def test_another_format_is_one_problem_and_nothing_else():
    doc = document()
    doc["format"] = "chickenfoot-companion/v2"
    doc["players"] = "not a list"
    assert _problems(doc) == {
        "$.format": "must be 'chickenfoot-companion/v1', not 'chickenfoot-companion/v2'."
    }


def test_a_document_that_is_not_an_object():
    assert _problems([document()]) == {"$": "must be an object."}


def test_a_shape_problem_is_told_once_at_its_path():
    doc = document()
    _game(doc)["seats"][0]["player"] = 7  # not text: the schema's problem, and an unknown player
    problems = validate(doc)
    assert [p.path for p in problems] == [f"{GAME}.seats[0].player"]
    assert problems[0].message == f"{NIGHT}: refers to an unknown player 7."  # the schema's words


def test_references_to_players_and_seats():
    doc = document()
    _game(doc)["seats"][2]["player"] = "p9"
    _game(doc)["rounds"][0]["starter"] = 5
    doc["players"][1]["merged_into"] = "p8"
    assert _problems(doc) == {
        "$.players[1].merged_into": "refers to an unknown player 'p8'.",
        f"{GAME}.seats[2].player": f"{NIGHT}: refers to an unknown player 'p9'.",
        f"{ROUND}.starter": f"{PLACE}: there is no seat 5.",
    }


def test_merges_that_lead_back_to_the_player():
    doc = document()
    doc["players"][0]["merged_into"] = "p2"
    doc["players"][1]["merged_into"] = "p1"
    problems = _problems(doc)
    assert problems["$.players[0].merged_into"] == "merges lead back to this player."


def test_uniqueness_of_keys_seats_and_players():
    doc = document()
    doc["nights"][0]["games"].append(game())  # the same key again
    _game(doc)["seats"][1]["position"] = 0
    _game(doc)["seats"][2]["player"] = "p1"
    problems = _problems(doc)
    assert problems["$.nights[0].games[1].key"] == (
        "Game night of 2026-11-20, game 2: 'share-a' is the key of another game in this file."
    )
    assert problems[f"{GAME}.seats[1].position"] == f"{NIGHT}: seat 0 is taken by two players."
    assert problems[f"{GAME}.seats[2].player"] == f"{NIGHT}: 'p1' sits at this game twice."


def test_rounds_are_held_to_the_games_set():
    doc = document()
    rnd = _game(doc)["rounds"][0]
    rnd["start_double"] = 9  # a double-6 set has no 9-9
    rnd["hands"][1]["tiles"] = ["5-4", "7-1"]
    problems = _problems(doc)
    # no "(the 9-9)": the set has no such double
    assert problems[f"{ROUND}.start_double"] == f"{NIGHT}, round 1: must be between 0 and 6, not 9."
    assert f"{ROUND}.hands[1].tiles[1]" in problems


def test_a_tile_in_two_hands():
    doc = document()
    _game(doc)["rounds"][0]["hands"][2]["tiles"] = ["2-1"]
    problems = _problems(doc)
    # both players by name, after the round (not by a JSON path): the round form's words
    assert problems == {
        f"{ROUND}.hands[2].tiles[0]": f"{PLACE}: 2-1 can't be in both Bob's and Chloé's hands."
    }


def test_the_engine_refuses_the_centre_double_in_a_hand():
    doc = document()
    _game(doc)["rounds"][0]["hands"][1]["tiles"] = ["6-6"]
    assert list(_problems(doc)) == [f"{ROUND}.hands[1].tiles"]


def test_two_players_out_and_a_burned_round_with_hands():
    doc = document()
    rnd = _game(doc)["rounds"][0]
    rnd["hands"][2]["went_out"] = True
    rnd["hands"][2]["points"] = 0
    burned = {**rnd, "number": 2, "start_double": 5, "status": "burned", "outcome": None}
    _game(doc)["rounds"].append(burned)
    problems = _problems(doc)
    # the round's place in words, the second player out (the hand the problem is on) and the
    # first, as the table knows them (not by a JSON path: "the player at $.nights[0]...")
    assert problems[f"{ROUND}.hands[2].went_out"] == (
        f"{PLACE}: Chloé went out too, but Anna already went out."
    )
    assert (
        problems[f"{GAME}.rounds[1].hands"]
        == f"{NIGHT}, round 2 (the 5-5): a burned round has no hands."
    )


def test_a_second_player_out_beside_a_seat_the_game_does_not_have_names_that_seat():
    doc = document()
    hands = _game(doc)["rounds"][0]["hands"]
    hands[0]["seat"] = 7
    hands[2]["went_out"] = True
    hands[2]["points"] = 0
    problems = _problems(doc)
    assert problems[f"{ROUND}.hands[2].went_out"] == (
        f"{PLACE}: Chloé went out too, but the player in seat 7 already went out."
    )


def test_too_few_players_for_a_game():
    doc = document()
    _game(doc)["seats"] = [{"position": 0, "player": "p1"}]
    _game(doc)["rounds"] = []
    assert list(_problems(doc)) == [f"{GAME}.seats"]


def test_problems_come_in_the_files_order():
    """``players[10]`` after ``players[9]`` (not after ``players[1]``), and a field by its
    place in its object."""
    doc = document()
    doc["players"] += [player(f"x{i}", f"Extra {i}") for i in range(8)]  # players[3..10]
    doc["players"][10]["merged_into"] = "nobody"
    doc["players"][9]["merged_into"] = "nobody"
    doc["players"][1]["merged_into"] = "nobody"
    _game(doc)["rounds"][0]["starter"] = 8
    paths = [p.path for p in validate(doc)]
    assert paths == [
        "$.players[1].merged_into",
        "$.players[9].merged_into",
        "$.players[10].merged_into",
        f"{ROUND}.starter",
    ]


def test_a_ruling_the_checker_could_not_have_made():
    doc = document()
    doc["rulings"] = [
        {
            "created_at": "2026-11-20T19:15:00",
            "category": "placement",
            "question": {"category": "scoring", "input": {}},
            "answer": {"legal": True},
            "rules": {"set_size": 6},
            "summary": "6-3 may be played on the 6-6.",
        }
    ]
    problems = _problems(doc)
    assert problems == {
        "$.rulings[0].question": "must be a 'placement' question, like the ruling's category."
    }


def test_validation_never_changes_the_document():
    doc = document()
    _game(doc)["rounds"][0]["hands"][2]["tiles"] = ["2-1"]
    before = repr(doc)
    validate(doc)
    assert repr(doc) == before


def test_a_problem_inside_a_hand_names_the_night_game_round_and_player():
    """Not only the round form's checks: a schema refusal inside a hand starts with its place
    in words, the player's name included (the JSON path stays beside it for the file)."""
    doc = document()
    rnd = _game(doc)["rounds"][0]
    rnd["hands"][1]["points"] = -5
    rnd["outcome"] = "went_out"
    problems = _problems(doc)
    assert problems[f"{ROUND}.hands[1].points"] == (
        f"{PLACE}: Bob: must be between 0 and 1000000, not -5."
    )
    assert problems[f"{ROUND}.outcome"].startswith(f"{PLACE}: must be one of")


def test_nights_of_the_same_date_are_told_apart():
    """Three nights of one date: by their place when it tells them apart, else by their
    number that day."""
    doc = document()
    first = doc["nights"][0]
    doc["nights"] = [copy.deepcopy(first) for _i in range(3)]
    for n, (night, place) in enumerate(
        zip(doc["nights"], ["Kitchen", "Garden", "Garden"], strict=True)
    ):
        night["place"] = place
        night["games"][0]["key"] = f"key-{n}"
        night["games"][0]["rounds"][0]["starter"] = 9
    problems = [str(p.message) for p in validate(doc)]
    assert problems == [
        "Game night of 2026-11-20 at Kitchen, game 1, round 1 (the 6-6): there is no seat 9.",
        "Game night 2 of 3 on 2026-11-20, game 1, round 1 (the 6-6): there is no seat 9.",
        "Game night 3 of 3 on 2026-11-20, game 1, round 1 (the 6-6): there is no seat 9.",
    ]
