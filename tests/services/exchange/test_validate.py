"""The import's second step on plain data (companion.services.exchange.validate): no app, no
database, no request. Every problem is found, once, at its JSON path, in the file's order."""

from __future__ import annotations

from typing import Any

from companion.services.exchange.validate import validate

from .plain_doc import document, game, player

GAME = "$.nights[0].games[0]"
ROUND = f"{GAME}.rounds[0]"


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
    assert problems[0].message == "refers to an unknown player 7."  # the schema's words


def test_references_to_players_and_seats():
    doc = document()
    _game(doc)["seats"][2]["player"] = "p9"
    _game(doc)["rounds"][0]["starter"] = 5
    doc["players"][1]["merged_into"] = "p8"
    assert _problems(doc) == {
        "$.players[1].merged_into": "refers to an unknown player 'p8'.",
        f"{GAME}.seats[2].player": "refers to an unknown player 'p9'.",
        f"{ROUND}.starter": "there is no seat 5.",
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
    assert (
        problems["$.nights[0].games[1].key"] == "'share-a' is the key of another game in this file."
    )
    assert problems[f"{GAME}.seats[1].position"] == "seat 0 is taken by two players."
    assert problems[f"{GAME}.seats[2].player"] == "'p1' sits at this game twice."


def test_rounds_are_held_to_the_games_set():
    doc = document()
    rnd = _game(doc)["rounds"][0]
    rnd["start_double"] = 9  # a double-6 set has no 9-9
    rnd["hands"][1]["tiles"] = ["5-4", "7-1"]
    problems = _problems(doc)
    assert problems[f"{ROUND}.start_double"] == "must be between 0 and 6, not 9."
    assert f"{ROUND}.hands[1].tiles[1]" in problems


def test_a_tile_in_two_hands():
    doc = document()
    _game(doc)["rounds"][0]["hands"][2]["tiles"] = ["2-1"]
    problems = _problems(doc)
    # the other hand's player by name, with the round (not by a JSON path)
    assert problems == {f"{ROUND}.hands[2].tiles[0]": "2-1 is also in the hand of Bob in round 1."}


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
    # the player who went out first is named as the table knows them, with the round's number
    # (not by a JSON path: "the player at $.nights[0]...hands[0]")
    assert problems[f"{ROUND}.hands[2].went_out"] == "Anna went out already in round 1."
    assert problems[f"{GAME}.rounds[1].hands"] == "a burned round has no hands."


def test_a_second_player_out_beside_a_seat_the_game_does_not_have_names_that_seat():
    doc = document()
    hands = _game(doc)["rounds"][0]["hands"]
    hands[0]["seat"] = 7
    hands[2]["went_out"] = True
    hands[2]["points"] = 0
    problems = _problems(doc)
    assert problems[f"{ROUND}.hands[2].went_out"] == (
        "the player in seat 7 went out already in round 1."
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
