"""One shape for a refusal from the engine to the page (companion.errors): a Problem (words,
the field it is about, the API's code) and Refused, the exception that carries them; the
services' SetupError and the API's errors are that shape, and a refusal no view catches is
answered in words with its status, never a 500."""

from __future__ import annotations

from flask_babel import force_locale
from flask_babel import lazy_gettext as _l

from companion.errors import Problem, Refused
from companion.services.game_setup import SetupError, clean_name


def test_a_problem_is_worded_when_shown_and_says_its_field(app):
    problem = Problem(_l("%(who)s: a score can't be negative.", who="Ann"), "total")
    with app.test_request_context():
        english = str(problem)
        with force_locale("de"):
            german = str(problem)
    assert english == "Ann: a score can't be negative."
    assert german != english and "Ann" in german
    assert problem.field == "total"
    assert Problem("Too big.", "cases", "TOO_MANY_CASES").to_json() == {
        "code": "TOO_MANY_CASES",
        "message": "Too big.",
        "where": "cases",
    }


def test_the_services_refusals_are_the_one_shape(app):
    assert SetupError is Refused
    with app.test_request_context():
        try:
            clean_name("   ")
        except Refused as exc:
            refused = exc
    assert isinstance(refused, ValueError) and refused.status == 422
    assert refused.messages and all(p.field is None for p in refused.problems)
    assert refused.messages == [str(p) for p in refused.problems]


def test_a_refusal_no_view_catches_is_a_page_or_json_in_words_with_its_status(app):
    def refuse():
        raise Refused(Problem(_l("Enter a number."), "yard_count"), "And one more.", status=409)

    app.add_url_rule("/refused-for-a-test", "refused_page", refuse)
    app.add_url_rule("/api/v1/refused-for-a-test", "refused_json", refuse)
    client = app.test_client()
    page = client.get("/refused-for-a-test")
    assert page.status_code == 409
    body = page.get_data(as_text=True)
    assert "Enter a number. And one more." in body and "<html" in body
    answer = client.get("/api/v1/refused-for-a-test")
    assert answer.status_code == 409
    assert answer.get_json() == {
        "error": {"code": "", "message": "Enter a number.", "where": "yard_count"}
    }


def test_the_api_still_answers_its_own_error_object(client):
    answer = client.post("/api/v1/rules/answer", data="{", content_type="application/json")
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == "BAD_JSON" and error["message"].startswith("The body is not valid JSON")


def test_the_import_reports_problems_are_the_one_shape_located_by_json_path(app):
    from companion.services.exchange import importing as exchange_import

    with app.test_request_context():
        problems = exchange_import.validate({"format": "chickenfoot-companion/v1"})
    assert problems
    for problem in problems:
        assert isinstance(problem, Problem)
        assert problem.field == problem.path and problem.path.startswith("$")
        assert str(problem) == f"{problem.path}: {problem.message}"


def test_a_refused_hand_post_is_the_one_shape():
    from companion.services.hand_posts import PostRefused

    refused = PostRefused("Type the points left in your hand, or tap your tiles.")
    assert isinstance(refused, Refused) and refused.status == 422
    assert refused.message == "Type the points left in your hand, or tap your tiles."
    assert [(str(p), p.field) for p in refused.problems] == [(refused.message, "hand")]
