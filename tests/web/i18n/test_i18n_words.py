"""Every engine reason code, deal problem, round-end reason, tie-break step and engine error has
a worded, translatable message: no raw code on any page in any language (issue 13).

The wording is checked in English and in a machine-filled catalog (scripts/
i18n_machine_catalogs.py: every msgstr a ROT13 copy), which proves each sentence goes through
the catalog whatever the shipped translations hold.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from dataclasses import replace
from pathlib import Path

import pytest

from companion import config
from companion.config import ROOT
from companion.engine import DecidedAt, EngineError, Reason, TurnResult, check_table, preset
from companion.engine.deal import DEAL_SHORT, TOO_MANY_TOES
from companion.engine.reasons import ROUND_END_REASONS
from companion.engine.round_end import RoundEnd
from companion.extensions import db
from companion.extract import error_templates
from companion.words import REASON_WORDS, error_words, round_end_reason, tiebreak_reason
from tests.conftest import contextless_app

ENGINE = ROOT / "companion" / "engine"
CODES = [*Reason, *TurnResult, *DecidedAt]
#: engine errors whose message is not a literal template: each passes on a sentence that is
#: worded elsewhere (a move's verdict, words.move_reason) or is an API size limit
PASSED_ON = {
    ("layout.py", "full_message"),
    ("moves.py", "verdict.message"),
    ("limits.py", "message"),
    ("rules.py", "'tiebreak steps are '"),
}


pytestmark = pytest.mark.usefixtures("fresh_translations")


def _load_script():
    spec = importlib.util.spec_from_file_location(
        "i18n_machine_catalogs", ROOT / "scripts" / "i18n_machine_catalogs.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def machine_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("machine-translations")
    _load_script().write(["ru"], out)
    return out


@pytest.fixture()
def machine_app(machine_dir):
    class Machine(config.TestConfig):
        BABEL_TRANSLATION_DIRECTORIES = str(machine_dir)

    yield from contextless_app(Machine)


def _no_code(text: str, code: str) -> bool:
    return bool(text.strip()) and code not in text


def test_every_reason_code_has_a_sentence(app):
    with app.test_request_context("/"):
        for code in CODES:
            assert code in REASON_WORDS, code
            assert _no_code(str(REASON_WORDS[code]), str(code)), code


def _status(reason: Reason) -> RoundEnd:
    over = reason in (Reason.OUT, Reason.BLOCKED, Reason.NO_DRAW)
    went_out = "Ann" if reason is Reason.OUT else None
    return RoundEnd(over, str(reason), went_out, {}, ("Bob",), "", "6")


def test_every_round_end_reason_is_worded(app):
    with app.test_request_context("/"):
        for reason in ROUND_END_REASONS:
            for yard in (0, 1, 5):
                words = round_end_reason(_status(reason), yard)
                assert _no_code(words, str(reason)), (reason, words)


def test_every_tie_break_step_is_worded(app):
    answer = {"winners": ["Ann"], "totals": {"Ann": 12}, "zero_rounds": {"Ann": 2}}
    with app.test_request_context("/"):
        for step in DecidedAt:
            words = tiebreak_reason({**answer, "decided_at": str(step)})
            assert _no_code(words, str(step)) and "Ann" in words, step


def test_deal_problems_are_codes_worded_with_plural_forms(app):
    short = check_table(preset("standard"), 6, 8)  # 8 players of a double-6 set
    codes = [p.code for p in short.problems]
    assert DEAL_SHORT in codes
    deal = next(p for p in short.problems if p.code == DEAL_SHORT)
    assert set(deal.params) == {"players", "hand_size", "needed", "set_size", "available"}
    # house rules never allow more toes than a suit has (the switch is validated); the check
    # still words it for a rule set built around that validation
    toes = check_table(replace(preset("standard"), foot_toes_required=7), 6, 4)
    assert [p.code for p in toes.problems] == [TOO_MANY_TOES]
    with app.test_request_context("/"):
        said = error_words(deal)
        p = deal.params
        assert said == (
            f"{p['players']} players x {p['hand_size']} tiles = {p['needed']} tiles, but the "
            f"double-6 set has only {p['available']} to deal."
        )
        assert error_words(toes.problems[0]) == (
            "A chicken foot cannot need 7 toes: only 6 tiles carry its number."
        )


def test_every_engine_error_has_a_literal_template_with_its_params():
    """A template the extractor cannot read would stay English in every language."""
    wrong = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id.endswith("Error")
                and node.func.id in {"EngineError", "TileError", "RuleError", "LayoutError"}
            ):
                continue
            if len(node.args) < 2:
                continue
            message = node.args[1]
            if not (isinstance(message, ast.Constant) and isinstance(message.value, str)):
                shown = ast.unparse(message)[:30]
                if not any(path.name == f and shown.startswith(s) for f, s in PASSED_ON):
                    wrong.append(f"{path.name}:{node.lineno}: {shown}")
                continue
            named = set(re.findall(r"%\((\w+)\)s", message.value))
            given = {
                k.value
                for kw in node.keywords
                if kw.arg == "params" and isinstance(kw.value, ast.Dict)
                for k in kw.value.keys
                if isinstance(k, ast.Constant)
            }
            if named != given:
                wrong.append(f"{path.name}:{node.lineno}: {named} != {given}")
    assert wrong == []


def test_every_engine_template_is_extracted_and_translated(machine_app):
    templates = {
        t for path in ENGINE.rglob("*.py") for _, t in error_templates(path.read_text("utf-8"))
    }
    assert len(templates) > 80
    with machine_app.test_request_context("/", headers={"Accept-Language": "ru"}):
        for template in sorted(templates):
            names = re.findall(r"%\((\w+)\)s", template)
            error = EngineError("SOME_CODE", template, params=dict.fromkeys(names, "7"))
            said = error_words(error)
            assert said != error.message and "SOME_CODE" not in said, template


def test_worded_messages_come_from_the_catalog_in_another_language(machine_app):
    """In a language with a catalog nothing of the above is English any more."""
    deal = next(p for p in check_table(preset("standard"), 6, 8).problems)
    with machine_app.test_request_context("/", headers={"Accept-Language": "ru"}):
        for code in CODES:
            assert str(REASON_WORDS[code]) != REASON_WORDS[code]._args[0], code
        for reason in ROUND_END_REASONS:
            english = None
            words = round_end_reason(_status(reason), 3)
            assert "the round" not in words and "chicken yard" not in words, (reason, english)
        said = error_words(deal)
        assert "players" not in said and "tiles" not in said and "set has only" not in said


def test_pages_in_another_language_show_no_raw_code(machine_app):
    """The checker's round-end and placement answers, rendered in a machine-filled language:
    no engine code is visible."""
    from tests.web.checker.test_checker_words import visible_text

    client = machine_app.test_client()
    ru = {"Accept-Language": "ru"}
    pages = [
        client.post(
            "/checker/ask",
            data={"category": "round_end", "situation": situation, "yard_count": "0"},
            headers=ru,
        ).text
        for situation in ("blocked", "passed")
    ]
    pages.append(client.get("/checker/?pos=9-9+centre%3B+9-5+on+C&tile=5-5&on=S1", headers=ru).text)
    for page in pages:
        seen = visible_text(page)
        for code in CODES:
            assert not re.search(rf"\b{re.escape(str(code))}\b", seen), code


def test_places_and_phrases_inside_engine_errors_are_worded_too(machine_app):
    """An engine error naming a place on the table ("does not match the open 5 of 9-5 (S1)
    (write the touching end first)") carries the place as data, so a page words it in the
    player's language instead of mixing in the engine's English."""
    from companion.engine import DominoSet
    from companion.engine.errors import EngineError
    from companion.engine.layout import replay

    spec = {"center": "9-9", "tiles": [{"id": "S1", "on": "C", "tile": "9-5"}]}
    spec["tiles"].append({"id": "T1", "on": "S1", "tile": "3-5"})
    with pytest.raises(EngineError) as caught:
        replay(spec, DominoSet(9), 1, 3)
    assert "the open 5 of 9-5 (S1) (write the touching end first)" in caught.value.message
    with machine_app.test_request_context("/", headers={"Accept-Language": "ru"}):
        said = error_words(caught.value)
    assert "the open" not in said and "touching end" not in said, said
    assert "9-5" in said and "S1" in said


#: scoring questions that are not about a hand: running totals and a round's double-blank
NOT_A_HAND = [
    ({}, {"round_scores": {"Ann": [10, 0], "Bob": [5, 3]}}),
    ({}, {"round_scores": {"Ann": [5, 5], "Bob": [10, 0], "Cy": [0, 30]}}),  # two leaders
    ({}, {"round_start_double": "0-0"}),
    ({}, {"round_start_double": "6-6"}),
    ({"double_blank_value": 0}, {"round_start_double": "6-6"}),
]


def _not_a_hand(overrides, data):
    from companion.engine import RuleSet
    from companion.engine.questions import answer

    rules = RuleSet.from_dict({**preset("standard").to_dict(), **overrides})
    question = {
        "category": "scoring",
        "ruleset": {"preset": "standard", "overrides": overrides},
        "input": data,
    }
    return rules, question, answer(question)


@pytest.mark.parametrize(("overrides", "data"), NOT_A_HAND)
def test_running_totals_and_the_double_blank_round_are_worded_as_the_engine_says_them(
    app, machine_app, overrides, data
):
    """These showed the engine's English sentence (and the headline "0 points.") in every
    language: the checker words them itself, in English exactly as the engine does, and in
    another language from its catalog."""
    from companion.checker.explaining import explain

    rules, question, ans = _not_a_hand(overrides, data)
    assert "score" not in ans and ans["message"]
    with app.test_request_context("/"):
        english = explain("scoring", ans, rules, question)
    assert english.message == ans["message"]
    assert english.headline not in ("", "0 points.")
    with machine_app.test_request_context("/", headers={"Accept-Language": "ru"}):
        other = explain("scoring", ans, rules, question)
    assert other.message != ans["message"] and other.headline != english.headline
    for name in ("Ann", "Bob"):
        assert (name in other.message) == (name in ans["message"])


#: parameters of each audit code, as its writer stores them (companion.services.audit)
_HANDS = [
    {"name": "Ann", "points": 0, "went_out": True, "by": "phone"},
    {"name": "Bob", "points": 12, "went_out": False, "by": "overruled"},
    {"name": "Cy", "points": 5, "went_out": False, "by": "scorekeeper"},
]
AUDIT_PARAMS: dict[str, dict] = {
    "game_started": {"players": ["Ann", "Bob"], "set": 9},
    "rematch": {"players": ["Ann", "Bob"], "set": 9},
    "round_saved": {"number": 3, "double": 7, "hands": _HANDS},
    "round_corrected": {"double": 7, "hands": _HANDS},
    "double_burned": {"double": 7},
    "undone": {"what": {"code": "double_burned", "params": {"double": 7}}},
    "game_deleted": {},
    "game_restored": {},
    "auto_save_on": {},
    "auto_save_off": {},
    "scorekeeper_moved": {},
    "scorekeeper_added": {},
    "player_merged": {"gone": "Annie", "kept": "Ann"},
}


def test_every_audit_code_has_a_worded_message_from_the_catalog(app, machine_app):
    from companion.services.audit import line_words
    from companion.vocab import AuditCode

    assert set(AUDIT_PARAMS) == {str(c) for c in AuditCode}, "a new audit code needs a sample"
    for code in AuditCode:
        with app.test_request_context("/"):
            english = line_words(code, AUDIT_PARAMS[code])
        with machine_app.test_request_context("/", headers={"Accept-Language": "ru"}):
            other = line_words(code, AUDIT_PARAMS[code])
        assert _no_code(english, str(code)) and _no_code(other, str(code)), code
        assert other != english, code


def test_audit_pages_in_another_language_show_no_raw_code(machine_app):
    """The audit trail of a game with an entry of every code, read in a machine-filled
    language: every line is worded, none shows a code or its English."""
    from companion.models import AuditEntry
    from companion.services.audit import line_words
    from tests.web.checker.test_checker_words import visible_text
    from tests.web.playkit import make_game

    with machine_app.app_context():
        game = make_game()
        written = []
        for code, params in AUDIT_PARAMS.items():
            with machine_app.test_request_context("/"):
                summary = line_words(code, params)  # the English a writer would have stored
            written.append(summary)
            db.session.add(
                AuditEntry(game=game, action=code, code=code, params=params, summary=summary)
            )
        db.session.commit()
        token = game.edit_token
    page = machine_app.test_client().get(f"/g/{token}/audit", headers={"Accept-Language": "ru"})
    seen = visible_text(page.text)
    for code in AUDIT_PARAMS:
        assert not re.search(rf"\b{code}\b", seen), code
    assert not [line for line in written if line in seen]
    assert "Ann" in seen and "Annie" in seen


def test_names_are_listed_as_the_language_lists_them(app):
    """A shared win of four read «A и B и C и D» in Russian (" and " between every two)."""
    from flask_babel import refresh

    answer = {"winners": ["A", "B", "C", "D"], "decided_at": "unresolved_shared"}
    for language, listed in (
        ("ru", "A, B, C и D"),
        ("de", "A, B, C und D"),
        ("en", "A, B, C, and D"),
    ):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            refresh()
            assert listed in tiebreak_reason(answer), language
