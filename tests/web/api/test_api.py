"""The rules API: same answers as the command line, documented schemas, clear errors, no 5xx."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from companion import config, create_app
from companion.api.openapi import MAX_CASES
from companion.extensions import db
from companion.models import Ruling

ROOT = Path(__file__).resolve().parents[3]
CASE_FILES = sorted((ROOT / "tests" / "data").glob("cases*.json"))
CASES = [c for f in CASE_FILES for c in json.loads(f.read_text())["cases"]]
ANSWER = "/api/v1/rules/answer"
BATCH = "/api/v1/rules/answer-batch"
QUESTION_KEYS = ("id", "category", "ruleset", "input")
# A sample of the answer vocabulary of QUESTIONS.md, one or more per category.
CONTRACT_FIELDS = (
    "legal",
    "reason",
    "new_open_end",
    "creates_foot_needing_toes",
    "foot_complete_after",
    "has_legal_play",
    "legal_plays",
    "drawable_tiles",
    "turn_result",
    "round_over",
    "scores",
    "counts_as_zero_round",
    "score",
    "totals_after_each_round",
    "leader_after_each_round",
    "double_blank_penalty_possible",
    "winners",
    "decided_at",
    "best_nonzero_round",
    "round_start_doubles",
    "next_start_double_after",
    "burned",
    "procedure",
    "hand_size",
    "yard_after_deal",
    "drawable_before_reserve",
    "feasible",
    "max_possible",
    "starter",
    "first_spoke_by",
    "starter_action",
    "penalty",
    "spokes_required",
    "spoke_tiles_in_set",
)


def question(case: dict) -> dict:
    """A case of cases.json without its expected part (QUESTIONS.md)."""
    return {k: case[k] for k in QUESTION_KEYS if k in case}


def placement(tiles: list[dict], move: dict, preset: str = "standard", **extra) -> dict:
    return {
        "category": "placement",
        "ruleset": {"preset": preset},
        "input": {"layout": {"center": "9-9", "tiles": tiles}, "move": move, **extra},
    }


@pytest.fixture(scope="module")
def document() -> dict:
    app = create_app(config.TestConfig)
    return app.test_client().get("/api/v1/openapi.json").get_json()


@pytest.fixture(scope="module")
def validator(document):
    """validate(instance, "Answer") against a component schema of the OpenAPI document."""
    resource = Resource.from_contents(document, default_specification=DRAFT202012)
    registry = Registry().with_resource("urn:api", resource)

    def validate(instance: object, name: str) -> None:
        schema = {"$ref": f"urn:api#/components/schemas/{name}"}
        jsonschema.Draft202012Validator(schema, registry=registry).validate(instance)

    return validate


@pytest.fixture(scope="module")
def cli_answers() -> dict:
    """Every case file answered by ``python -m companion.engine answer`` in a subprocess."""
    answers: dict = {}
    for path in CASE_FILES:
        out = subprocess.run(
            [sys.executable, "-m", "companion.engine", "answer", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        answers.update(json.loads(out.stdout)["answers"])
    return answers


# --- the document ------------------------------------------------------------------------------
def test_document_is_openapi_31_with_both_endpoints(document):
    assert document["openapi"].startswith("3.1")
    assert {"/api/v1/rules/answer", "/api/v1/rules/answer-batch"} <= set(document["paths"])


def test_document_lists_every_route_of_the_api(document):
    """Every address the API blueprint answers is in its document (the health probe and the
    document itself were missing)."""
    app = create_app(config.TestConfig)
    routes = {rule.rule for rule in app.url_map.iter_rules() if rule.endpoint.startswith("api.")}
    assert routes <= set(document["paths"]), routes - set(document["paths"])


def test_document_lists_the_ratings_route(document):
    answer = document["paths"]["/api/v1/ratings"]["get"]["responses"]["200"]
    schema = answer["content"]["application/json"]["schema"]
    assert schema["required"] == ["model", "players"]
    assert schema["properties"]["model"] == {"const": "openskill PlackettLuce"}
    assert schema["properties"]["players"]["items"]["required"] == [
        "name",
        "mu",
        "sigma",
        "ordinal",
        "games",
    ]
    answer_fields = set(document["components"]["schemas"]["Answer"]["properties"])
    # every answer field named in QUESTIONS.md is described
    contract = (ROOT / "docs" / "QUESTIONS.md").read_text()
    for field in CONTRACT_FIELDS:
        assert f"`{field}`" in contract
        assert field in answer_fields


def test_document_schemas_are_valid_json_schema(document):
    for schema in document["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(schema)


# --- engine through the API --------------------------------------------------------------------
def test_batch_answers_every_case_like_the_cli(client, cli_answers, validator):
    for path in CASE_FILES:
        resp = client.post(BATCH, json=json.loads(path.read_text()))
        assert resp.status_code == 200
        validator(resp.get_json(), "BatchAnswers")
        got = resp.get_json()["answers"]
        assert got == {k: cli_answers[k] for k in got}
    assert len(cli_answers) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_single_answer_matches_the_cli(client, cli_answers, validator, case):
    resp = client.post(ANSWER, json=question(case))
    body = resp.get_json()
    assert body == cli_answers[case["id"]]
    if "error" in body:
        assert resp.status_code == 422
        validator(body, "Error")
    else:
        assert resp.status_code == 200
        validator(body, "Answer")


def test_the_api_stores_nothing(client, app):
    client.post(ANSWER, json=question(CASES[0]))
    client.post(BATCH, json={"cases": [question(c) for c in CASES]})
    with app.app_context():
        assert db.session.query(Ruling).count() == 0


def test_api_needs_no_csrf_token_when_csrf_is_on(csrf_client):
    client = csrf_client
    resp = client.post(ANSWER, json=placement([], {"tile": "9-5", "on": "C"}))
    assert resp.status_code == 200
    assert resp.get_json()["legal"] is True


# --- errors ------------------------------------------------------------------------------------
def assert_error(resp, status: int, code: str, where: str | None = None, validator=None) -> dict:
    assert resp.status_code == status, resp.get_data(as_text=True)
    body = resp.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "where"}
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    if where is not None:
        assert body["error"]["where"] == where
    if validator:
        validator(body, "Error")
    return body["error"]


def test_malformed_json_is_400(client, validator):
    resp = client.post(ANSWER, data='{"category": ', content_type="application/json")
    err = assert_error(resp, 400, "BAD_JSON", validator=validator)
    assert "line 1" in err["message"]


def test_nan_is_refused_where_it_stands(client, validator):
    """NaN and Infinity are not JSON numbers: the question holding one is refused naming the
    place (as the command line does), not the whole body."""
    resp = client.post(ANSWER, data='{"category": NaN}', content_type="application/json")
    err = assert_error(resp, 422, "BAD_VALUE", "category", validator=validator)
    assert "NaN" in err["message"]


def test_nan_costs_a_batch_only_its_own_case_as_on_the_command_line(client, tmp_path):
    text = (
        '{"cases": [{"id": "nan", "category": "draw", "input": {"yard_count": -Infinity}},'
        ' {"id": "ok", "category": "scoring", "input": {"hand": ["1-2"]}}]}'
    )
    resp = client.post(BATCH, data=text, content_type="application/json")
    assert resp.status_code == 200
    over_http = resp.get_json()["answers"]
    assert over_http["nan"]["error"]["code"] == "BAD_VALUE"
    assert over_http["ok"]["score"] == 3
    path = tmp_path / "cases.json"
    path.write_text(text, "utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "companion.engine", "answer", str(path)],
        capture_output=True,
        check=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    assert json.loads(run.stdout)["answers"] == over_http


def test_not_an_object_is_400(client):
    assert_error(client.post(ANSWER, json=[1, 2]), 400, "BAD_QUESTION")
    assert_error(client.post(BATCH, json="cases"), 400, "BAD_QUESTION")


def test_wrong_content_type_is_400(client):
    resp = client.post(ANSWER, data=json.dumps(question(CASES[0])), content_type="text/plain")
    assert_error(resp, 400, "BAD_CONTENT_TYPE", "Content-Type")


def test_unknown_category_is_422(client):
    resp = client.post(ANSWER, json={"category": "poker", "input": {}})
    assert_error(resp, 422, "UNKNOWN_CATEGORY", "category")


def test_unknown_preset_and_switch_are_422(client):
    q = placement([], {"tile": "9-5", "on": "C"}, preset="nope")
    assert_error(client.post(ANSWER, json=q), 422, "UNKNOWN_PRESET", "ruleset.preset")
    q = placement([], {"tile": "9-5", "on": "C"})
    q["ruleset"]["overrides"] = {"chicken_wings": True}
    assert_error(
        client.post(ANSWER, json=q), 422, "UNKNOWN_SWITCH", "ruleset.overrides.chicken_wings"
    )


def test_tile_outside_the_set_is_422(client):
    q = placement([], {"tile": "9-12", "on": "C"})
    err = assert_error(client.post(ANSWER, json=q), 422, "TILE_OUTSIDE_SET", "input.move.tile")
    assert "double-9" in err["message"]


def test_duplicate_tile_is_422(client):
    tiles = [{"id": "S1", "on": "C", "tile": "9-5"}, {"id": "S2", "on": "C", "tile": "9-5"}]
    q = placement(tiles, {"tile": "9-4", "on": "C"})
    err = assert_error(client.post(ANSWER, json=q), 422, "DUPLICATE_TILE")
    assert "S2" in err["where"]


def test_unknown_id_is_422(client):
    q = placement([{"id": "S1", "on": "C", "tile": "9-5"}], {"tile": "5-4", "on": "S7"})
    assert_error(client.post(ANSWER, json=q), 422, "UNKNOWN_ID", "input.move.on")


def test_batch_needs_a_list_of_cases(client):
    assert_error(client.post(BATCH, json={"cases": {}}), 400, "BAD_DOCUMENT", "cases")


def test_batch_keeps_going_past_a_bad_case(client, validator):
    good = question(CASES[0])
    resp = client.post(BATCH, json={"cases": [good, {"id": "bad", "category": "x"}, 7]})
    assert resp.status_code == 200
    body = resp.get_json()
    validator(body, "BatchAnswers")
    assert body["answers"]["bad"]["error"]["code"] == "UNKNOWN_CATEGORY"
    assert body["answers"]["#2"]["error"]["code"] == "BAD_QUESTION"
    assert "error" not in body["answers"][good["id"]]


def test_oversized_batch_is_413(client):
    resp = client.post(BATCH, json={"cases": [{}] * (MAX_CASES + 1)})
    assert_error(resp, 413, "TOO_MANY_CASES", "cases")


def test_oversized_body_is_413(client):
    # over the app-wide 1 MiB (a single question has its own, lower bound: test_api_limits.py)
    resp = client.post(BATCH, data=" " * (1024 * 1024 + 1), content_type="application/json")
    assert_error(resp, 413, "REQUEST_ENTITY_TOO_LARGE")


def test_wrong_method_is_json_405(client):
    assert_error(client.get(ANSWER), 405, "METHOD_NOT_ALLOWED")


# --- fuzzing from the OpenAPI document ---------------------------------------------------------
def _fuzz_schema():
    """The document loaded from a running app; the app answers the generated requests."""
    app = create_app(config.TestConfig)
    with app.app_context():  # GET /api/v1/ratings reads the (empty) stored ratings
        db.create_all()
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)


schema = _fuzz_schema()


@schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_fuzz_no_server_error(case):
    # The WSGI transport does not decode gzip; the app compresses when asked (Flask-Compress).
    case.call_and_validate(
        headers={"Accept-Encoding": "identity"},
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )


def test_a_body_that_is_not_an_object_is_named_in_json_words(client):
    """``null`` or ``[]`` sent as a question is refused in JSON's words, not Python's."""
    kinds = (("null", "null"), ("[]", "an array"), ('"x"', "a string"), ("7", "a number"))
    for body, kind in kinds:
        answer = client.post(
            "/api/v1/rules/answer", data=body, content_type="application/json"
        ).get_json()["error"]
        assert answer["message"] == f"The body must be a JSON object, not {kind}."
