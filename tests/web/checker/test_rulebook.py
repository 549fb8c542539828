"""The rule book (issue 12): every reason code, every house-rule switch and every rule section
the engine cites has its entry; sources are named as players know them; the table's choice is
highlighted; every verdict links to its rule."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from companion.engine import SWITCHES, DecidedAt, Reason, TurnResult, answer_document
from companion.engine.reasons import CITED_SECTIONS, SECTION
from companion.rulebook import SECTIONS, anchor_for_code, section_for, source_names
from companion.words import REASON_WORDS
from tests.web.checker.test_checker_words import ASKED, ask, make_game

DATA = Path(__file__).resolve().parents[2] / "data"
ALL_CODES = [*Reason, *TurnResult, *DecidedAt]


def rule_book(client, **params) -> str:
    resp = client.get("/checker/rules", query_string=params)
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def anchors(html: str) -> set[str]:
    return set(re.findall(r'id="([^"]+)"', html))


@pytest.mark.parametrize("code", ALL_CODES, ids=str)
def test_every_code_has_words_and_a_rule_in_the_book(app, client, code):
    assert code in SECTION, f"{code} has no rule section"
    with app.test_request_context():
        assert str(REASON_WORDS.get(code, "")), f"{code} has no words"
    anchor = anchor_for_code(code)
    assert anchor and anchor in anchors(rule_book(client))


def test_every_house_rule_switch_has_its_entry(client):
    html = rule_book(client)
    ids = anchors(html)
    for switch in SWITCHES:
        assert f"house-rule-{switch.name.replace('_', '-')}" in ids, switch.name
        assert switch.summary in unescape(html)


def test_every_section_the_engine_cites_has_its_part():
    cited = set(CITED_SECTIONS) | set(SECTION.values())
    for name in ("cases.json", "cases_extra.json"):
        answers = answer_document(json.loads((DATA / name).read_text()))
        cited |= {a["rule"] for a in answers.values() if "rule" in a}
    missing = sorted(r for r in cited if section_for(r) is None)
    assert missing == []
    assert {s.section for s in SWITCHES} <= {c for part in SECTIONS for c in part.cites}


def test_the_book_states_every_rule_of_the_model(client):
    html = rule_book(client)
    for title in (
        "Set-up",
        "The centre and its spokes",
        "Chicken feet",
        "Drawing and passing",
        "Ending a round",
        "Scoring",
        "The winner and tie-breaks",
    ):
        assert title in html


def test_sources_are_named_as_players_know_them(app, client):
    with app.test_request_context():
        assert source_names("S000, S002/S003") == [
            "the Wikipedia article",
            "The Spruce Crafts rules",
        ]
        assert source_names("S001-S003 (silent)") == [
            "the gamerules.com rules",
            "The Spruce Crafts rules",
        ]
        assert source_names("all sources but OURP2") == ["every source except ourpastimes.com"]
        for switch in SWITCHES:
            for choice in switch.choices:
                if choice.sources:
                    assert source_names(choice.sources), (switch.name, choice.sources)
    html = rule_book(client)
    assert "the gamerules.com rules" in html and "the Wikipedia article" in html
    tags = re.compile(r"\b(S00[0-3]|RUSSELLR|PUREMCO-COPY|FUNDEX|NATHANLONG|HCHERNDON)\b")
    visible = re.sub(r"<details.*?</details>", "", html, flags=re.S)
    assert tags.findall(visible) == []


def chosen(html: str, switch: str) -> list[str]:
    block = re.search(rf'id="house-rule-{switch}".*?</div>', html, re.S).group(0)
    return [
        re.sub(r"<[^>]+>|\s+", " ", li).strip()
        for li in re.findall(r'<li class="choice chosen">(.*?)</li>', block, re.S)
    ]


def test_the_games_choice_is_highlighted(client):
    game = make_game()
    game.rules = {**game.rules, "center_spokes_required": 6}
    from companion.extensions import db

    db.session.commit()
    html = rule_book(client, game=game.edit_token)
    assert "Your table: the game with Ann, Bob, Cy" in html
    [spokes] = chosen(html, "center-spokes-required")
    assert "Six spokes" in spokes and spokes.startswith("Your table")
    [drawn] = chosen(rule_book(client, preset="spruce_seed002_003"), "drawn-tile-play")
    assert "may be played" in drawn and "The Spruce Crafts rules" in drawn


def test_every_verdict_links_to_its_rule(client):
    ids = anchors(rule_book(client))
    for form in ASKED:
        html = ask(client, preset="standard", set="9", players="4", **form)
        if 'id="verdict-h"' not in html or "could not be answered" in html:
            continue
        link = re.search(r'<p class="rule-link"><a href="/checker/rules\?[^"#]*#([\w-]+)"', html)
        assert link is not None and link.group(1) in ids, form
