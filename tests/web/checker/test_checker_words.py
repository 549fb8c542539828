"""Plain verdicts (issue 12): no page under /checker/ shows a reason code, a RULES.md section,
"RULES.md" or a house-rule switch id outside the collapsed details; ends are named as players
see them; the round-end and special-case questions need only what the table knows."""

from __future__ import annotations

import re
from datetime import date
from html.parser import HTMLParser

import pytest
from flask_babel import refresh

from companion.engine import SWITCHES, DecidedAt, Reason, TurnResult, preset
from companion.extensions import db
from companion.models import Game, GameNight, Player, Ruling, Seat

SPOKES = "9-5 on C, 9-4 on C, 9-3 on C, 9-2 on C"
OPEN_FOOT = f"{SPOKES}, 5-5 on S1"
FULL_FOOT = f"{OPEN_FOOT}, 5-1 on D1, 5-2 on D1, 5-3 on D1"

CODES = [str(c) for c in (*Reason, *TurnResult, *DecidedAt)]
SWITCH_IDS = [s.name for s in SWITCHES]


class _Visible(HTMLParser):
    """The text a player sees without opening a collapsed part: everything outside
    ``<details>`` plus the ``<summary>`` of each (the label that opens it); SVG ``<title>``
    text counts (it is read out and shown on hover)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # inside how many <details>
        self.in_summary = 0
        self.skip = 0  # <script>, <style>
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "details":
            self.depth += 1
        elif tag == "summary":
            self.in_summary += 1
        elif tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag == "details":
            self.depth -= 1
        elif tag == "summary":
            self.in_summary -= 1
        elif tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if self.skip:
            return
        if self.depth == 0 or (self.depth == 1 and self.in_summary):
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return " ".join(parser.parts)


def developer_terms(text: str) -> list[str]:
    """Reason codes, section signs, "RULES.md" and switch ids found in ``text``."""
    found = [c for c in CODES if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text)]
    found += [s for s in SWITCH_IDS if re.search(rf"(?<!\w){s}(?!\w)", text)]
    found += [t for t in ("§", "RULES.md") if t in text]
    return found


def make_game() -> Game:
    night = GameNight(played_on=date(2026, 11, 28))
    rules = preset("standard").to_dict()
    game = Game(night=night, set_size=9, preset="standard", rules=rules)
    for i, name in enumerate(("Ann", "Bob", "Cy")):
        game.seats.append(Seat(player=Player(name=name, name_key=name.casefold()), position=i))
    db.session.add(game)
    db.session.commit()
    return game


def ask(client, **form) -> str:
    resp = client.post("/checker/ask", data=form)
    assert resp.status_code in (303, 422), resp.status_code
    if resp.status_code == 422:
        return resp.get_data(as_text=True)
    return client.get(resp.headers["Location"]).get_data(as_text=True)


ASKED = [
    {"q": "move", "pos": OPEN_FOOT, "tile": "6-4", "on": "S2"},
    {"q": "move", "pos": SPOKES, "tile": "5-4", "on": "S2"},
    {"q": "move", "pos": "9-5 on C", "tile": "5-4", "on": "S1"},
    {"q": "move", "pos": FULL_FOOT, "tile": "5-4", "on": "D1"},
    {"q": "move", "pos": FULL_FOOT, "tile": "9-1", "on": "C"},
    {"q": "move", "pos": FULL_FOOT, "tile": "1-4", "on": "S1"},
    {"q": "move", "pos": SPOKES, "tile": "6-6", "on": "S1"},
    {"q": "move", "pos": SPOKES, "tile": "5-5", "on": "S1"},
    {"q": "move", "pos": OPEN_FOOT, "tile": "5-1", "on": "D1"},
    {"q": "draw", "pos": OPEN_FOOT, "hand_text": "6-1 4-0", "yard_count": "5"},
    {"q": "draw", "pos": OPEN_FOOT, "hand_text": "5-1 4-0", "yard_count": "5"},
    {"q": "draw", "pos": OPEN_FOOT, "hand_text": "6-1", "yard_count": "0"},
    {"q": "draw", "pos": OPEN_FOOT, "hand_text": "6-1", "yard_count": "5", "tile_drawn": "5-2"},
    {"q": "end", "pos": OPEN_FOOT, "situation": "blocked"},
    {"q": "end", "pos": OPEN_FOOT, "situation": "passed", "yard_left": "3"},
    {"q": "end", "pos": OPEN_FOOT, "who": "B"},
    {
        "q": "end",
        "pos": OPEN_FOOT,
        "situation": "hands",
        "hand_0_text": "5-1",
        "hand_1_text": "6-1",
    },
    {"q": "end", "pos": OPEN_FOOT, "situation": "hands", "hand_0_text": "8-1"},
    {"q": "score", "hand_text": "0-0 7-1"},
    {"q": "tie", "scores_0": "10, 0", "scores_1": "5, 5", "scores_2": "20", "scores_3": "1"},
    {"q": "tie", "scores_0": "10, 0", "scores_1": "5, 5", "scores_2": "0, 20", "scores_3": "9, 9"},
    {"q": "edge", "edge": "announce", "next_played": "1", "yard_count": "5"},
    {"q": "edge", "edge": "capacity", "spokes": "12"},
    {"q": "edge", "edge": "blank"},
    {"q": "move", "pos": OPEN_FOOT, "tile": "", "on": "S2"},
    {"q": "end", "pos": OPEN_FOOT, "hand_0_text": "5-1 zz"},
]


@pytest.mark.parametrize("form", ASKED, ids=[str(i) for i in range(len(ASKED))])
def test_no_verdict_shows_developer_terms_outside_the_details(client, form):
    base = {"preset": "standard", "set": "9", "players": "4"}
    html = ask(client, **base, **form)
    assert developer_terms(visible_text(html)) == []
    assert '<h2 id="verdict-h">' in html or 'class="problem"' in html


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"q": "move", "pos": OPEN_FOOT},
        {"q": "move", "pos": FULL_FOOT, "on": "D1"},
        {"q": "draw", "pos": OPEN_FOOT},
        {"q": "end", "pos": OPEN_FOOT},
        {"q": "score"},
        {"q": "tie"},
        {"q": "edge", "pos": OPEN_FOOT},
        {"pos": OPEN_FOOT, "sel": "D1"},
        {"pos": f"{SPOKES}, 3-3 on S1"},  # refused: not on a 3
        {"pos": "9-5 on C, 5-5 on S1"},  # refused: spokes first
        {"preset": "gamerules_seed001", "players": "3", "q": "end", "pos": OPEN_FOOT},
        {"preset": "nobody", "set": "7", "players": "40"},
    ],
)
@pytest.mark.parametrize("path", ["/checker/", "/checker/house-rules", "/checker/rules"])
def test_no_checker_page_shows_developer_terms_outside_the_details(client, path, params):
    resp = client.get(path, query_string=params)
    assert resp.status_code == 200
    assert developer_terms(visible_text(resp.get_data(as_text=True))) == []


def test_the_rulings_and_delete_pages_show_no_developer_terms(client):
    game = make_game()
    for form in ASKED[:3] + ASKED[13:16]:
        ask(client, game=game.edit_token, **form)
    html = client.get("/checker/rulings", query_string={"game": game.edit_token}).get_data(
        as_text=True
    )
    assert developer_terms(visible_text(html)) == []
    ruling = db.session.scalars(db.select(Ruling)).first()
    html = client.get(
        f"/checker/rulings/{ruling.id}/delete", query_string={"game": game.edit_token}
    ).get_data(as_text=True)
    assert developer_terms(visible_text(html)) == []


def test_the_filter_itself_catches_each_kind_of_term():
    html = (
        "<p>FOOT_INCOMPLETE, RULES.md §5.4, foot_toes_required</p>"
        "<details><summary>Details</summary><p>SPOKES_INCOMPLETE</p></details>"
    )
    found = developer_terms(visible_text(html))
    assert found == ["FOOT_INCOMPLETE", "foot_toes_required", "§", "RULES.md"]


# --- the words -------------------------------------------------------------------------------
def test_spokes_before_anything_else_in_players_words(client):
    html = ask(client, q="move", pos="9-5 on C", tile="5-4", on="S1")
    assert (
        "The centre 9-9 needs all 4 spokes before anyone plays elsewhere: 1 of 4 is down." in html
    )
    assert "5-4 on the open 5 on the first spoke" in html


def test_ends_are_named_as_players_see_them(client):
    html = client.get(
        "/checker/", query_string={"q": "move", "pos": f"{OPEN_FOOT}, 5-1 on D1, 3-8 on S3"}
    ).get_data(as_text=True)
    assert "the chicken foot on 5-5" in html
    assert "the open 1 on the first toe of the chicken foot on 5-5" in html
    assert "the open 8 on the third spoke" in html
    assert "the open 4 on the second spoke" in html


def test_a_tile_name_in_an_end_chip_is_kept_whole_and_its_text_unchanged(client):
    """The chip's tile name is in a span kept on one line (tests/browser/
    test_checker_tile_names_browser.py); the words around it, and the picture's label, are
    the same text as before."""
    from companion.web.languages import tiles_unbroken

    html = client.get("/checker/").get_data(as_text=True)
    assert 'Lay a tile on the centre <span class="tile-name">9-9</span></a>' in html
    assert 'aria-label="Open end: the centre 9-9"' in html
    assert str(tiles_unbroken("<b> on 12-12, 2026-12-07")) == (
        '&lt;b&gt; on <span class="tile-name">12-12</span>, 2026-12-07'
    )


def test_round_over_without_hands_when_nobody_can_play_and_the_yard_is_empty(client):
    html = ask(client, q="end", pos=OPEN_FOOT, situation="blocked")
    assert "The round is over." in html
    assert "Nobody can play and the chicken yard is empty" in html
    ruling = db.session.scalars(db.select(Ruling)).one()
    assert ruling.question["input"]["hands"] == {} and ruling.answer["reason"] == "BLOCKED"


def test_round_goes_on_when_everyone_passed_but_the_yard_has_tiles(client):
    html = ask(client, q="end", pos=OPEN_FOOT, situation="passed", yard_left="3")
    assert "The round goes on." in html and "3 tiles can still be drawn" in html


def test_someone_went_out_needs_one_tap(client):
    html = ask(client, q="end", pos=OPEN_FOOT, who="C")
    assert "The round is over." in html and "C laid their last tile" in html


def test_unsure_tables_are_judged_from_the_hands(client):
    hands = {"hand_0_text": "5-1", "hand_1_text": "6-1", "hand_2_text": "7-1", "hand_3_text": "8-0"}
    html = ask(client, q="end", pos=OPEN_FOOT, situation="hands", yard_count="0", **hands)
    assert "The round goes on." in html and "A can still play" in html


def test_a_player_who_went_out_must_be_one_of_the_table(client):
    html = ask(client, q="end", pos=OPEN_FOOT, situation="out", who="Zed")
    assert "Tap the player who went out." in html


def test_special_cases_are_asked_from_the_checker(client):
    html = ask(client, q="edge", edge="capacity", spokes="12")
    assert "Not possible with this set." in html and "at most 9 spokes" in html
    html = ask(client, q="edge", edge="blank")
    assert "50 points: not a zero round." in html
    html = ask(client, preset="wikipedia", q="edge", edge="announce", next_played="1", yard_count=5)
    assert "Penalty: they draw 1 tile." in html
    html = ask(client, q="edge", edge="announce", next_played="1", yard_count=5)
    assert "No penalty." in html and "do not require announcing" in html


def test_a_game_offers_its_recent_positions(client):
    game = make_game()
    ask(client, game=game.edit_token, q="move", pos=SPOKES, tile="5-6", on="S1")
    html = client.get("/checker/", query_string={"game": game.edit_token}).get_data(as_text=True)
    assert "Start from a recent position of this game" in html
    assert "Centre 9-9 and 4 tiles, asked: 5-6 on the open 5 on the first spoke" in html


@pytest.mark.parametrize(
    ("pos", "words"),
    [
        (
            "9-5 on C; 5-5 on S1",
            "5-5 on the open 5 on the first spoke: The centre 9-9 needs all 4 spokes before "
            "anyone plays elsewhere: 1 of 4 is down.",
        ),
        (f"{SPOKES}, 3-3 on S1", "3-3 has no 5, so it cannot go on the open 5 on the first spoke."),
    ],
)
def test_a_typed_position_that_could_not_have_been_played_is_refused_in_words(client, pos, words):
    html = client.get("/checker/", query_string={"pos": pos}).get_data(as_text=True)
    refusal = re.search(r'<div class="refusal".*?</div>', html, re.S).group(0)
    assert words in refusal
    assert developer_terms(visible_text(refusal)) == []


@pytest.mark.parametrize(
    ("pos", "words", "not_shown"),
    [
        # a tile typed twice: was "S2 9-5 is already on the table as S1."
        ("9-5 on C; 9-5 on C", "9-5 is already on the table", ["S1", "S2"]),
        # pasted JSON of the wrong shape: was "... or a question with input.layout."
        ('{"layout": 5}', "This JSON is not a position", ["input.layout"]),
        ("[]", "This JSON is not a position", ["input.layout"]),
    ],
)
def test_a_typed_or_pasted_mistake_is_told_without_ids(client, pos, words, not_shown):
    html = client.get("/checker/", query_string={"pos": pos}).get_data(as_text=True)
    refusal = re.search(r'<div class="refusal".*?</div>', html, re.S).group(0)
    seen = visible_text(refusal)
    assert words in seen
    for term in not_shown:
        assert not re.search(rf"(?<![\w.]){re.escape(term)}(?![\w])", seen), (term, seen)


def test_broken_pasted_json_is_told_in_words(client):
    """Was Python's parser message: "Expecting ',' delimiter: line 1 column 16 (char 15)"."""
    html = client.get("/checker/", query_string={"pos": '{"layout": [1,2'}).get_data(as_text=True)
    refusal = re.search(r'<div class="refusal".*?</div>', html, re.S).group(0)
    seen = visible_text(refusal)
    assert "The pasted text is not valid JSON" in seen
    assert "near character 16" in seen
    for term in ("Expecting", "delimiter", "column", "char "):
        assert term not in seen, seen


@pytest.mark.usefixtures("fresh_translations")
def test_a_recent_position_is_offered_in_the_readers_language(client):
    """The ruling that names a recent position was asked on an English phone; a German phone
    at the same table reads it in German (it showed the stored English line)."""
    game = make_game()
    ask(client, game=game.edit_token, q="move", pos=SPOKES, tile="5-6", on="S1")
    refresh()  # the test's requests share an app context: Babel keeps the first locale in g
    html = client.get(
        "/checker/", query_string={"game": game.edit_token}, headers={"Accept-Language": "de"}
    ).get_data(as_text=True)
    offered = re.search(r'<details class="recent-positions".*?</details>', html, re.S).group(0)
    assert "on the open 5" not in offered and "it can go there" not in offered
    assert "Mitte 9-9 und 4 Steine, Frage: 5-6" in offered


def test_a_tile_name_in_the_question_forms_end_choices_is_kept_whole(client):
    """The question form's end choices name the same ends as the chips: each tile name in
    the span kept on one line, its text unchanged (a radio label at 360 px broke "9-" / "9"
    as the chips did)."""
    html = client.get("/checker/?q=move").get_data(as_text=True)
    assert '> the centre <span class="tile-name">9-9</span>' in html
