"""The rules API bounds every request by what the game allows (issue 8, item 3): a question
over a bound gets 413 TOO_LARGE naming where, before any engine work; a batch is bounded in
cases and values; the OpenAPI document states each limit from the engine's own constants."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import config, create_app
from companion.api.openapi import MAX_BATCH_VALUES, MAX_CASES, MAX_QUESTION_BYTES
from companion.engine import questions
from companion.engine.limits import (
    MAX_PLAYER_COUNTS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_TEXT,
    MAX_TILES,
    HugeNumber,
)
from companion.engine.tiles import MAX_TILE_TEXT
from tests.engine.mutations import mutated

ROOT = Path(__file__).resolve().parents[3]
ANSWER = "/api/v1/rules/answer"
BATCH = "/api/v1/rules/answer-batch"
CASE_FILES = sorted((ROOT / "tests" / "data").glob("cases*.json"))


def error_of(resp, status: int, code: str, where: str | None = None) -> dict:
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    body = resp.get_json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    if where is not None:
        assert body["error"]["where"] == where
    return body["error"]


@pytest.fixture
def no_engine_work(monkeypatch):
    """Fail the test if any category handler runs (a refused question costs no engine work)."""

    def forbidden(q):  # noqa: ANN001, ANN202
        raise AssertionError("the engine answered a question that is over a bound")

    for category in questions.HANDLERS:
        monkeypatch.setitem(questions.HANDLERS, category, forbidden)


def post_raw(client, url: str, text: str):
    return client.post(url, data=text, content_type="application/json")


# --- the attack run's requests ------------------------------------------------------------------
def test_12000_players_x_18_rounds_is_413_before_any_work(client, no_engine_work) -> None:
    scores = {f"P{i}": [5] * 18 for i in range(12_000)}
    q = {"category": "scoring", "input": {"set": 18, "round_scores": scores}}
    body = json.dumps(q)
    assert 700_000 < len(body) < 1024 * 1024
    error_of(post_raw(client, ANSWER, body), 413, "TOO_LARGE", "")  # the body is too large
    # within the body bound, the engine's own bound: 200 players are refused before any work
    q["input"]["round_scores"] = {f"P{i}": [5] * 18 for i in range(200)}
    error_of(client.post(ANSWER, json=q), 413, "TOO_LARGE", "input.round_scores")


def test_a_single_question_body_over_its_bound_is_413_unread(client, monkeypatch) -> None:
    from companion.api import views

    monkeypatch.setattr(views, "read_json", lambda *a, **k: pytest.fail("the body was parsed"))
    body = '{"category": "scoring", "input": {"hand": []}, "x": "' + "y" * MAX_QUESTION_BYTES + '"}'
    error_of(post_raw(client, ANSWER, body), 413, "TOO_LARGE", "")


def test_a_260000_item_setup_list_is_413_before_any_work(client, no_engine_work) -> None:
    q = {"category": "setup", "input": {"set": 9, "players_list": [2] * 260_000}}
    error_of(client.post(ANSWER, json=q), 413, "TOO_LARGE", "")  # the body is too large
    q["input"]["players_list"] = [2] * 60_000  # within the body bound: the engine's bound
    error_of(client.post(ANSWER, json=q), 413, "TOO_LARGE", "input.players_list")


@pytest.mark.parametrize(
    ("inp", "where"),
    [
        ({"set": 9, "round_scores": {"A": [1] * 11, "B": [2]}}, "input.round_scores.A"),
        ({"round_scores": {f"P{i}": [1] for i in range(MAX_PLAYERS + 1)}}, "input.round_scores"),
        ({"hand": ["1-2"] * (MAX_TILES + 1)}, "input.hand"),
        ({"hand": ["N" * (MAX_TEXT + 1)]}, "input.hand[0]"),
    ],
)
def test_questions_over_a_bound_are_413_naming_where(client, inp, where) -> None:
    error_of(
        client.post(ANSWER, json={"category": "scoring", "input": inp}), 413, "TOO_LARGE", where
    )


def test_a_5000_digit_number_is_refused_for_its_question_only(client) -> None:
    huge = "9" * 5000
    err = error_of(
        post_raw(client, ANSWER, f'{{"category": "draw", "input": {{"yard_count": {huge}}}}}'),
        413,
        "TOO_LARGE",
        "input.yard_count",
    )
    assert "5000-digit" in err["message"]
    batch = (
        '{"cases": [{"id": "ok", "category": "scoring", "input": {"hand": ["1-2"]}}, '
        f'{{"id": "huge", "category": "scoring", "input": {{"hand": [], "x": {huge}}}}}]}}'
    )
    resp = post_raw(client, BATCH, batch)
    assert resp.status_code == 200
    answers = resp.get_json()["answers"]
    assert answers["ok"]["score"] == 3 and answers["huge"]["error"]["code"] == "TOO_LARGE"


def test_a_lone_surrogate_is_422_and_the_answer_is_json(client) -> None:
    body = '{"category": "tiebreak", "input": {"round_scores": {"A\\udc80": [0], "B": [1]}}}'
    error_of(post_raw(client, ANSWER, body), 422, "BAD_TEXT", "input.round_scores")


def test_a_score_beyond_the_set_is_422(client) -> None:
    q = {"category": "tiebreak", "input": {"set": 6, "round_scores": {"A": [999], "B": [1]}}}
    error_of(client.post(ANSWER, json=q), 422, "BAD_SCORE", "input.round_scores.A[0]")


# --- batches ------------------------------------------------------------------------------------
def test_a_batch_over_its_value_budget_is_413_before_any_work(client, no_engine_work) -> None:
    hand = [f"{a}-{b}" for a in range(19) for b in range(a + 1)][:150]
    case = {"category": "scoring", "input": {"set": 18, "hand": hand}}
    cases = [case] * (MAX_BATCH_VALUES // 150 + 1)
    assert len(cases) <= MAX_CASES
    error_of(client.post(BATCH, json={"cases": cases}), 413, "BATCH_TOO_LARGE", "cases")


def test_both_case_files_fit_in_one_batch(client) -> None:
    cases = [c for f in CASE_FILES for c in json.loads(f.read_text())["cases"]]
    resp = client.post(BATCH, json={"cases": cases})
    assert resp.status_code == 200 and len(resp.get_json()["answers"]) == len(cases)


# --- the document states the limits -------------------------------------------------------------
def test_the_document_states_every_limit(client) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    props = schemas["Question"]["properties"]["input"]["properties"]
    assert props["players"]["maximum"] == MAX_PLAYERS
    assert props["hand"]["maxItems"] == MAX_TILES
    assert props["turn"]["maxItems"] == MAX_TILES
    assert props["hands"]["maxProperties"] == MAX_PLAYERS
    assert props["round_scores"]["maxProperties"] == MAX_PLAYERS
    assert props["round_scores"]["additionalProperties"]["maxItems"] == MAX_ROUNDS
    assert props["rounds_played"]["maxItems"] == MAX_ROUNDS
    assert props["players_list"]["maxItems"] == MAX_PLAYER_COUNTS
    assert props["seats_clockwise"]["maxItems"] == MAX_PLAYERS
    assert props["round"]["maximum"] == MAX_ROUNDS
    assert props["to_move"]["maxLength"] == MAX_TEXT
    assert schemas["Layout"]["properties"]["tiles"]["maxItems"] == MAX_TILES - 1
    assert schemas["Tile"]["maxLength"] == MAX_TILE_TEXT
    assert schemas["Question"]["properties"]["id"]["maxLength"] == MAX_TEXT
    assert schemas["Batch"]["properties"]["cases"]["maxItems"] == MAX_CASES
    assert f"{MAX_BATCH_VALUES:,}" in schemas["Batch"]["description"]
    assert "413" in doc["paths"][ANSWER]["post"]["responses"]


# --- hostile questions through the API ----------------------------------------------------------
def hostile_body(question: Any) -> str:
    """JSON text of a mutated question: NaN stays NaN (refused where it stands: 422), a
    HugeNumber becomes its 5,000 digits, a lone surrogate its JSON escape."""

    def default(value: Any) -> str:
        if isinstance(value, HugeNumber):
            return "__HUGE__"
        raise TypeError(type(value).__name__)

    return json.dumps(question, default=default).replace('"__HUGE__"', "9" * 5000)


API = create_app(config.TestConfig).test_client()


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(mutated(), min_size=1, max_size=3))
def test_hostile_questions_get_an_answer_or_a_clear_error(questions: list) -> None:
    for q in questions:
        resp = post_raw(API, ANSWER, hostile_body(q))
        assert resp.status_code in (200, 400, 413, 422), resp.status_code
        body = resp.get_json()
        if resp.status_code == 200:
            assert "error" not in body and body["message"] and body["rule"]
        else:
            assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "where"}
            assert (resp.status_code == 413) == (body["error"]["code"] == "TOO_LARGE")
    batch = post_raw(API, BATCH, hostile_body({"cases": questions}))
    assert batch.status_code in (200, 400, 413), batch.status_code
    if batch.status_code == 200:
        assert len(batch.get_json()["answers"]) == len(questions)
