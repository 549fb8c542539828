"""The rules checker pages: building a position, refusing impossible ones, the five questions,
saved rulings, the house-rules page, game context, htmx fragments and CSRF."""

from __future__ import annotations

import json
import re
from datetime import date
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import render_template
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.checker.notation import format_layout
from companion.engine import DominoSet, Layout, legal_moves, preset
from companion.extensions import db
from companion.models import Game, GameNight, HandScore, Round, Ruling, Seat
from companion.services.rulings import rulings_for
from tests.web.playkit import player_named

SPOKES = "9-5 on C, 9-4 on C, 9-3 on C, 9-2 on C"
OPEN_FOOT = f"{SPOKES}, 5-5 on S1"


def page(client, **params) -> str:
    resp = client.get("/checker/", query_string=params)
    assert resp.status_code == 200, resp.status_code
    return resp.get_data(as_text=True)


def ask(client, **form):
    return client.post("/checker/ask", data=form)


def follow(client, resp) -> str:
    assert resp.status_code == 303, resp.get_data(as_text=True)[-2000:]
    return client.get(resp.headers["Location"]).get_data(as_text=True)


def query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def hrefs(html: str, cls: str) -> list[str]:
    return [
        h.replace("&amp;", "&") for h in re.findall(rf'<a class="{cls}"[^>]*href="([^"]+)"', html)
    ]


def make_game(preset_name: str = "standard", names=("Ann", "Bob", "Cy")) -> Game:
    night = GameNight(played_on=date(2026, 11, 28))
    rules = preset(preset_name).to_dict()
    game = Game(night=night, set_size=rules["set_size"], preset=preset_name, rules=rules)
    for i, name in enumerate(names):
        player = player_named(name)
        game.seats.append(Seat(player=player, position=i))
    db.session.add(game)
    db.session.commit()
    return game


# --- the table -----------------------------------------------------------------------------
def test_standalone_page_uses_the_standard_rules(client):
    html = page(client)
    assert "Centre 9-9" in html and "4 spokes first" in html
    assert '<svg class="layout"' in html
    assert html.count('class="end playable"') == 4  # four free spoke places on the centre


def test_preset_set_and_players_come_from_the_url(client):
    html = page(client, preset="double_chickenfoot", set="12", players="5")
    assert "Centre 12-12" in html and "6 spokes first" in html
    assert html.count('class="end playable"') == 6


def test_bad_table_parameters_fall_back_with_a_message(client):
    html = page(client, preset="nonsense", set="7", players="40")
    assert "&#39;nonsense&#39; is not a preset" in html
    assert "no double-7 set" in html and "40 players" in html
    assert "Centre 9-9" in html


# --- building the position -----------------------------------------------------------------
def test_tapping_an_end_offers_only_unplayed_tiles_with_its_number(client):
    html = page(client, pos="9-5 on C", sel="C")
    offered = [query(h)["pos"].rsplit("; ", 1)[1] for h in hrefs(html, "chip")]
    assert "9-5 on C" not in offered  # already on the table
    assert "9-9 on C" not in offered  # the centre itself
    assert offered == [f"9-{n} on C" for n in range(8, -1, -1) if n != 5]


def test_choosing_a_tile_lays_it(client):
    html = page(client, pos="9-5 on C", sel="C")
    link = hrefs(html, "chip")[0]
    html = client.get(link).get_data(as_text=True)
    assert "9-9 centre; 9-5 on C; 9-8 on C" in html
    assert html.count('class="tile tile "') == 2


def test_only_ends_open_to_play_can_be_tapped(client):
    html = page(client, pos="9-5 on C", sel="S1")  # spoke phase: S1 is not open yet
    assert 'id="tile-picker"' not in html
    html = page(client, pos=OPEN_FOOT)
    chips = hrefs(html, "end-chip")
    assert [query(h).get("sel") for h in chips[:1]] == ["D1"]  # only the open foot


def test_undo_takes_back_the_last_tile(client):
    html = page(client, pos=OPEN_FOOT)
    undo = [h for h in hrefs(html, "end-chip undo") if "sel" not in h][0]
    assert query(undo)["pos"] == "9-9 centre; 9-5 on C; 9-4 on C; 9-3 on C; 9-2 on C"


def test_a_chicken_foot_is_drawn_crosswise_with_three_toe_places(client):
    html = page(client, pos=OPEN_FOOT)
    assert 'class="tile foot "' in html
    assert len(re.findall(r'<a href="[^"]*sel=D1[^"]*"[^>]*class="end-link"', html)) == 3


def test_typed_text_is_read_and_rewritten_with_ids(client):
    html = page(client, pos="5-9 on c; 4-9 on C, 9-3 on C\n9-2 on C; 2-2 on that")
    assert "could not have been played" not in html
    # "that" became the id it means, the tiles were turned touching end first
    assert "9-9 centre; 9-5 on C; 9-4 on C; 9-3 on C; 9-2 on C; 2-2 on S4" in html


def test_pasted_json_layout(client):
    layout = '{"center": "9-9", "tiles": [{"id": "S1", "on": "C", "tile": "9-5"}]}'
    html = page(client, pos=layout)
    assert "9-9 centre; 9-5 on C" in html


def big_layout_json(tiles: int = 64) -> str:
    """A played double-12 layout of ``tiles`` tiles as pasted JSON (about 2.8 KB)."""
    dominoes = DominoSet(12)
    layout = Layout.start(dominoes.parse("12-12"))
    while len(layout) < tiles:
        tile, on = legal_moves(layout, [t for t in dominoes.tiles if t not in layout.used])[0]
        layout = layout.attach(tile, on)
    return json.dumps(layout.to_json())


def test_a_big_pasted_layout_is_posted_and_redirected_to_a_short_shareable_address(client):
    pasted = big_layout_json()
    assert len(pasted) > 2500
    resp = client.post("/checker/position", data={"set": "12", "q": "draw", "pos": pasted})
    assert resp.status_code == 303
    where = resp.headers["Location"]
    assert len(where) < len(pasted) and query(where)["q"] == "draw"
    assert query(where)["pos"] == format_layout(json.loads(pasted))
    html = client.get(where).get_data(as_text=True)
    assert "could not have been played" not in html
    assert html.count('class="tile ') >= 64


def test_the_position_form_posts_with_csrf(client):
    html = page(client)
    form = re.search(r'<form method="post" action="/checker/position">.*?</form>', html, re.S)
    assert form and 'name="csrf_token"' in form.group(0) and 'name="pos"' in form.group(0)


def test_a_posted_position_that_cannot_be_played_is_shown_with_the_text_kept(client):
    resp = client.post("/checker/position", data={"pos": "9-5 on C; 5-5 on S1"})
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert "SPOKES_INCOMPLETE" in html and ">9-5 on C; 5-5 on S1</textarea>" in html


def test_a_posted_question_keeps_its_move(client):
    question = (
        '{"category": "placement", "input": {"layout": {"center": "9-9", "tiles": '
        '[{"id": "A", "on": "C", "tile": "9-5"}]}, "move": {"tile": "5-4", "on": "A"}}}'
    )
    resp = client.post("/checker/position", data={"pos": question})
    html = follow(client, resp)
    assert query(resp.headers["Location"])["q"] == "move"
    assert 'name="tile" value="5-4" checked' in html and 'name="on" value="A" checked' in html


def test_a_pasted_question_preselects_its_move(client):
    question = (
        '{"category": "placement", "input": {"layout": {"center": "9-9", "tiles": '
        '[{"id": "A", "on": "C", "tile": "9-5"}]}, "move": {"tile": "5-4", "on": "A"}}}'
    )
    html = page(client, pos=question)
    assert "9-9 centre; A: 9-5 on C" in html
    assert 'name="tile" value="5-4" checked' in html
    assert 'name="on" value="A" checked' in html


def test_an_impossible_position_is_refused_with_the_placement_marked(client):
    html = page(client, pos="9-5 on C; 5-5 on S1")
    assert "This position could not have been played." in html
    assert "SPOKES_INCOMPLETE" in html and "item 2" in html
    assert 'class="tile foot refused ghost"' in html
    take_out = re.search(r'class="button secondary" href="([^"]+)"', html).group(1)
    assert query(take_out.replace("&amp;", "&"))["pos"] == "9-5 on C"


@pytest.mark.parametrize(
    ("pos", "code", "words"),
    [
        ("9-5 on C; blah", "BAD_NOTATION", "Could not read"),
        ("9-5 on C; 9-12 on C", "TILE_OUTSIDE_SET", "not in a double-9 set"),
        ("9-5 on C; 5-9 on C", "DUPLICATE_TILE", "already on the table"),
        ("9-5 on C; 5-4 on S8", "UNKNOWN_ID", "no tile S8"),
    ],
)
def test_unreadable_positions_get_their_message(client, pos, code, words):
    html = page(client, pos=pos)
    assert code in html and words in html
    assert "could not have been played" in html


@pytest.mark.parametrize(
    ("pos", "words"),
    [
        ('{"center": ', "The pasted text is not valid JSON: it breaks near character 11."),
        ('{"tiles": []}', "This JSON is not a position"),
    ],
)
def test_pasted_text_that_is_not_a_position_is_a_reading_problem(client, pos, words):
    # not JSON (or not a layout) is a typing problem: the headline says the text was unreadable
    html = page(client, pos=pos)
    refusal = re.search(r'<div class="refusal".*?</div>', html, re.S).group(0)
    assert "BAD_JSON" in refusal and words in refusal
    assert "The pasted text could not be read." in refusal
    assert "could not have been played" not in refusal


def test_a_pasted_tile_without_an_id_is_named_not_none(client):
    html = page(client, pos='{"center":"9-9","tiles":[{"tile":"9-5","on":"C"}]}')
    refusal = re.search(r'<div class="refusal".*?</div>', html, re.S).group(0)
    assert "MISSING_ID" in refusal
    assert "The tile 9-5 placed on &#34;C&#34; has no id: give each tile one, like S1." in refusal
    assert "None" not in refusal


def test_a_pasted_tile_without_an_id_is_worded_in_german(client):
    html = client.get(
        "/checker/",
        query_string={"pos": '{"center":"9-9","tiles":[{"tile":"9-5","on":"C"}]}'},
        headers={"Accept-Language": "de"},
    ).get_data(as_text=True)
    refusal = re.search(r'<div class="refusal".*?</div>', html, re.S).group(0)
    assert "9-5" in refusal and "S1" in refusal
    assert "None" not in refusal and "has no id" not in refusal


@pytest.mark.parametrize(
    ("pos", "where"),
    [
        ('{"center":"9-9","tiles":[{"id":"S1","on":"C"}]}', "input.layout.tiles[0]"),
        ('{"center":null,"tiles":[]}', "input.layout.center"),
    ],
)
def test_a_pasted_tile_left_out_is_said_to_be_missing_not_none(client, pos, where):
    html = page(client, pos=pos)
    refusal = re.search(r'<div class="refusal".*?</div>', html, re.S).group(0)
    assert "A tile is missing here: write it like &#34;9-5&#34;." in refusal and where in refusal
    assert "None" not in refusal


@pytest.mark.parametrize("key", ["center", "centre"])
def test_a_pasted_layout_may_spell_the_centre_either_way(client, key):
    html = page(
        client, pos=json.dumps({key: "9-9", "tiles": [{"id": "S1", "on": "C", "tile": "9-5"}]})
    )
    assert 'class="refusal"' not in html
    assert "9-9 centre; 9-5 on C" in html


def test_a_pasted_question_may_spell_the_centre_either_way(client):
    question = {
        "category": "placement",
        "input": {"layout": {"centre": "9-9", "tiles": []}, "move": {"tile": "9-5", "on": "C"}},
    }
    html = page(client, pos=json.dumps(question))
    assert 'class="refusal"' not in html


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"set": "6", "pos": "6-6 centre; 9-9 on C"}, "9-9 is not in a double-6 set"),
        ({"pos": "12-3 on C"}, "12-3 is not in a double-9 set"),
    ],
)
def test_a_tile_outside_the_set_is_refused_for_that_not_for_its_numbers(client, params, words):
    html = page(client, **params)
    refusal = re.search(r'<div class="refusal".*?</div>', html, re.S).group(0)
    assert "TILE_OUTSIDE_SET" in refusal and words in refusal
    assert "has no" not in refusal  # not the move check's "9-9 has no 6"


# --- asking --------------------------------------------------------------------------------
def test_an_illegal_move_is_refused_in_red_and_saved(client, app):
    resp = ask(client, q="move", pos=OPEN_FOOT, tile="6-4", on="S2")
    html = follow(client, resp)
    assert "No, it cannot go there." in html
    assert (
        "The chicken foot on 5-5 needs all 3 toes before anyone plays elsewhere: 0 of 3 are "
        "down, so the next play must be a tile with a 5 on that foot." in html
    )
    assert "6-4 on the open 4 on the second spoke" in html
    details = re.search(r'<details class="tech-details">.*?</details>', html, re.S).group(0)
    assert "FOOT_INCOMPLETE" in details and "RULES.md §5.4" in details
    assert "foot_toes_required" in details
    assert 'href="/checker/rules?preset=standard&amp;set=9&amp;players=4#chicken-feet"' in html
    assert 'class="tile tile illegal ghost"' in html  # lets taps through to the end under it
    mark = re.search(r'<text class="mark illegal ghost"[^>]*>(.*?)</text>', html).group(1)
    assert mark == (
        "<title>A chicken foot needs all its toes before anyone plays elsewhere.</title>"
        "✗ foot not finished"
    )
    assert "This tile cannot go anywhere right now." in html
    ruling = db.session.scalars(db.select(Ruling)).one()
    assert ruling.category == "placement" and ruling.game_id is None
    assert ruling.question["input"]["move"] == {"tile": "6-4", "on": "S2"}
    assert ruling.answer["reason"] == "FOOT_INCOMPLETE"
    assert ruling.rules["foot_toes_required"] == 3
    assert ruling.summary.startswith("6-4 on the open 4 on the second spoke: No")


def test_the_same_question_posted_twice_is_one_ruling(client):
    # a double tap (or tap-to-ask followed by the button) posts the same form twice
    form = {"q": "move", "pos": "9-9 centre; 9-5 on C", "tile": "9-3", "on": "C"}
    first, second = ask(client, **form), ask(client, **form)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert db.session.query(Ruling).count() == 1


def test_the_same_question_is_a_new_ruling_once_the_moment_has_passed(client, monkeypatch):
    from companion.services import rulings

    form = {"q": "move", "pos": "9-9 centre; 9-5 on C", "tile": "9-3", "on": "C"}
    follow(client, ask(client, **form))
    monkeypatch.setattr(rulings, "REPEAT_WINDOW", rulings.timedelta(0))
    follow(client, ask(client, **form))
    follow(client, ask(client, **{**form, "tile": "9-4"}))
    assert db.session.query(Ruling).count() == 3


def test_a_repeated_question_of_a_game_is_not_another_games_ruling(client):
    one, two = make_game(), make_game()
    form = {"q": "move", "pos": "9-9 centre; 9-5 on C", "tile": "9-3", "on": "C"}
    ask(client, game=one.edit_token, **form)
    ask(client, game=two.edit_token, **form)
    assert len(rulings_for(one)) == len(rulings_for(two)) == 1


def test_a_legal_move_is_green_and_the_other_places_are_highlighted(client):
    html = follow(client, ask(client, q="move", pos=SPOKES, tile="5-4", on="S2"))
    assert "Yes, it can go there." in html and "RULES.md §5.3" in html
    assert 'class="tile tile legal ghost"' in html
    assert html.count('class="end playable highlight"') == 2  # S1 (a 5) and S2 (a 4)
    assert "Where it can go instead:" in html and "<li>the open 5 on the first spoke</li>" in html


FULL_FOOT = f"{OPEN_FOOT}, 5-1 on D1, 5-2 on D1, 5-3 on D1"


@pytest.mark.parametrize(
    ("on", "state", "tile", "reason"),
    [("D1", "full", "5-4", "FOOT_FULL"), ("C", "full", "9-1", "CENTER_FULL")],
)
def test_full_and_covered_places_can_be_asked_about(client, on, state, tile, reason):
    html = page(client, q="move", pos=FULL_FOOT)
    offered = re.search(r'<details class="closed-ends">.*?</details>', html, re.S).group(0)
    # an end's words, its tile name kept whole (a span: tiles_unbroken), then its state
    words = r'(?:[^<]|<span class="tile-name">[^<]+</span>)+'
    assert re.search(rf'value="{on}"> {words} <span class="muted small">\({state}\)', offered)
    assert re.search(rf'value="S1"> {words} <span class="muted small">\(covered\)', offered)
    html = follow(client, ask(client, q="move", pos=FULL_FOOT, tile=tile, on=on))
    assert reason in html and "No, it cannot go there." in html


@pytest.mark.parametrize(
    ("form", "shown", "not_shown"),
    [
        ({"q": "move", "pos": OPEN_FOOT, "tile": "6-4", "on": "D1"}, [], ["tiles_per_turn"]),
        (
            {"q": "move", "pos": OPEN_FOOT, "tile": "6-4", "on": "S2"},
            ["foot_toes_required"],
            ["tiles_per_turn", "must_play_if_able", "center_spokes_required"],
        ),
        (
            {"q": "draw", "pos": OPEN_FOOT, "hand_text": "6-1", "yard_count": "5"},
            ["draw_when_stuck", "yard_reserve", "must_play_if_able"],
            ["foot_toes_required", "double_blank_value"],
        ),
        (
            {"q": "score", "hand_text": "0-0"},
            ["double_blank_value", "blank_half_value"],
            ["draw_when_stuck", "tiles_per_turn"],
        ),
    ],
)
def test_a_verdict_lists_only_the_house_rules_its_reason_depends_on(client, form, shown, not_shown):
    html = follow(client, ask(client, **form))
    verdict = re.search(r'<section class="card verdict.*?</section>', html, re.S).group(0)
    listed = re.findall(r"<code>(\w+) = ", verdict)
    assert set(shown) <= set(listed) and not set(not_shown) & set(listed), listed
    if not shown:
        assert listed == [] and "House rule" not in verdict


def test_a_wrong_number_is_no_match(client):
    html = follow(client, ask(client, q="move", pos=SPOKES, tile="6-6", on="S1"))
    assert "NO_MATCH" in html and "does not show the number" in html
    assert "Where it can go instead" not in html


def test_a_move_needs_a_tile_and_an_end(client, app):
    resp = ask(client, q="move", pos=SPOKES, tile="5-6")
    assert resp.status_code == 422
    assert "Tap the end to play it on." in resp.get_data(as_text=True)
    assert db.session.query(Ruling).count() == 0


def test_the_move_of_an_unknown_end_is_an_error_not_a_ruling(client):
    resp = ask(client, q="move", pos=SPOKES, tile="5-6", on="S9")
    assert resp.status_code == 422
    assert "no tile" in resp.get_data(as_text=True)
    assert db.session.query(Ruling).count() == 0


def test_draw_question(client):
    html = follow(
        client, ask(client, q="draw", pos=OPEN_FOOT, hand=["6-1", "4-0"], yard_count="10")
    )
    assert "Draw 1." in html
    ruling = db.session.scalars(db.select(Ruling)).one()
    assert ruling.category == "draw" and ruling.answer["must_draw"] is True
    assert ruling.question["input"]["hand"] == ["6-1", "4-0"]


@pytest.mark.parametrize("count", ["\uff11\uff10", "\u0661\u0660", "\u00b2"])
def test_a_count_in_other_digits_is_refused_like_in_the_points_boxes(client, count):
    """ "１０" and "١٠" are digits to int(): the yard count takes the digits 0-9 only."""
    resp = ask(client, q="draw", pos=OPEN_FOOT, hand=["6-1", "4-0"], yard_count=count)
    assert resp.status_code == 422
    assert "is not a whole number" in resp.get_data(as_text=True)
    assert db.session.query(Ruling).count() == 0


def test_draw_question_with_typed_hand_and_a_drawn_tile(client):
    resp = ask(
        client, q="draw", pos=OPEN_FOOT, hand_text="6-1, 4 - 0", yard_count="9", tile_drawn="5-1"
    )
    html = follow(client, resp)
    assert '<h2 id="verdict-h">Play the drawn tile.</h2>' in html
    assert db.session.scalars(db.select(Ruling)).one().answer["must_play_drawn"] is True


@pytest.mark.parametrize(
    ("preset_name", "drawn", "headline", "answer"),
    [
        (
            "spruce_seed002_003",
            "5-0",
            "You may play the drawn tile, or keep it and pass.",
            {"may_play_drawn": True, "must_play_drawn": False, "turn_result": "PLAY"},
        ),
        (
            "standard",
            "6-0",
            "The drawn tile cannot be played: pass.",
            {"drawn_tile_playable": False, "turn_result": "PASS"},
        ),
    ],
)
def test_the_headline_says_what_to_do_with_the_drawn_tile(
    client, preset_name, drawn, headline, answer
):
    form = {"preset": preset_name, "q": "draw", "pos": OPEN_FOOT, "hand_text": "4-3 6-2"}
    html = follow(client, ask(client, yard_count="9", tile_drawn=drawn, **form))
    assert f'<h2 id="verdict-h">{headline}</h2>' in html and "Draw 1." not in html
    saved = db.session.scalars(db.select(Ruling)).one().answer
    assert {k: saved[k] for k in answer} == answer


@pytest.mark.parametrize(
    ("q", "text", "token"),
    [
        ("draw", "5-O 4-3", "5-O"),
        ("draw", "banana", "banana"),
        ("score", "6-6 banana 0-0", "banana"),
    ],
)
def test_an_unreadable_word_in_a_typed_hand_refuses_the_question(client, q, text, token):
    resp = ask(client, q=q, pos=OPEN_FOOT, hand_text=text, yard_count="9")
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert f"Could not read &#39;{token}&#39; as a tile; write tiles like 5-0." in html
    assert f'name="hand_text" value="{text}"' in html  # what was typed stays in the box
    assert db.session.query(Ruling).count() == 0


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"hand_text": "4-3 4-3"}, "4-3 is in the hand twice."),
        ({"hand_text": "4-3 3-4"}, "3-4 is in the hand twice."),
        ({"hand": ["4-3"], "hand_text": "4-3"}, "4-3 is in the hand twice."),
        ({"hand_text": "  "}, "Enter your hand"),
    ],
)
def test_a_hand_twice_or_empty_is_refused_for_what_must_i_do(client, form, words):
    resp = ask(client, q="draw", pos=OPEN_FOOT, yard_count="9", **form)
    assert resp.status_code == 422
    assert words in resp.get_data(as_text=True)
    assert db.session.query(Ruling).count() == 0


def test_the_verdict_repeats_the_hand_it_judged(client):
    html = follow(client, ask(client, q="draw", pos=OPEN_FOOT, hand_text="5-0 4|3", yard_count="9"))
    assert re.search(r"<dt>Hand</dt><dd>5-0, 4-3</dd>", html)
    html = follow(client, ask(client, q="score", hand_text="6-6 0-0"))
    assert re.search(r"<dt>Hand</dt><dd>6-6, 0-0</dd>", html)


def test_a_tile_outside_the_set_in_a_hand_is_refused(client):
    resp = ask(client, q="draw", pos=SPOKES, hand_text="9-12", yard_count="3")
    assert resp.status_code == 422
    assert "not in a double-9 set" in resp.get_data(as_text=True)


def test_round_end_question(client):
    resp = ask(
        client, q="end", pos=SPOKES, hand_0=["6-1"], hand_1_text="3-1", hand_2="2-0", yard_count="0"
    )
    html = follow(client, resp)
    assert "The round is over." in html and "OUT" in html
    assert db.session.scalars(db.select(Ruling)).one().answer["round_over"] is True


def test_score_question(client):
    html = follow(client, ask(client, q="score", hand=["0-0", "6-5"], round_end="BLOCKED"))
    assert "61 points." in html
    assert "double_blank_value" in html


def test_tie_question(client):
    resp = ask(client, q="tie", players="2", scores_0="10, 0, 5", scores_1="5, 5, 5")
    html = follow(client, resp)
    assert "A wins." in html and "most_zero_rounds" in html
    assert "tiebreak" in html


def test_a_bad_score_is_named(client):
    resp = ask(client, q="tie", players="2", scores_0="10, x", scores_1="5")
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert "&#34;x&#34; is not a score in points." in html or '"x" is not a score' in html
    assert 'aria-invalid="true"' in html


def test_a_tie_with_different_numbers_of_rounds_is_refused_with_the_scores_kept(client):
    resp = ask(client, q="tie", players="2", scores_0="10, 0, 5", scores_1="5, 5")
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert "the numbers of rounds differ (A: 3, B: 2)" in html
    assert 'value="10, 0, 5"' in html and 'value="5, 5"' in html
    assert db.session.query(Ruling).count() == 0


def test_unknown_question_tab(client):
    assert ask(client, q="poker", pos="").status_code == 422


# --- a game's checker -----------------------------------------------------------------------
def test_opened_from_a_game_it_uses_its_rules_and_players(client):
    game = make_game("double_chickenfoot")
    client.get(f"/g/{game.edit_token}")  # this phone keeps its score
    html = page(client, game=game.edit_token, q="end")
    assert "Game with Ann, Bob, Cy" in html and "6 spokes first" in html
    assert "Ann's hand" in html and "Cy's hand" in html
    assert 'name="preset"' not in html  # no preset choice for a game
    assert f'href="/g/{game.edit_token}"' in html  # back to the score sheet


def test_a_games_ruling_is_saved_with_it_and_listed(client):
    game = make_game()
    follow(client, ask(client, game=game.edit_token, q="move", pos=SPOKES, tile="5-6", on="S1"))
    ruling = db.session.scalars(db.select(Ruling)).one()
    assert ruling.game_id == game.id
    assert rulings_for(game) == [ruling] and rulings_for(None) == []
    html = client.get("/checker/rulings", query_string={"game": game.edit_token}).get_data(
        as_text=True
    )
    assert "5-6 on the open 5 on the first spoke: Yes, it can go there." in html
    link = re.search(r'<p class="ruling-summary"><a href="([^"]+)"', html).group(1)
    shown = client.get(link.replace("&amp;", "&")).get_data(as_text=True)
    assert "Yes, it can go there." in shown and 'class="tile tile legal ghost"' in shown


def test_a_ruling_without_a_game_links_back_to_its_own_table(client):
    follow(
        client,
        ask(client, q="tie", preset="wikipedia", set="12", players="2", scores_0="1", scores_1="2"),
    )
    html = client.get("/checker/rulings").get_data(as_text=True)
    link = re.search(r'<p class="ruling-summary"><a href="([^"]+)"', html).group(1)
    params = query(link.replace("&amp;", "&"))
    assert params["preset"] == "wikipedia" and params["set"] == "12" and params["players"] == "2"
    shown = client.get(link.replace("&amp;", "&")).get_data(as_text=True)
    assert "A wins." in shown and "Centre 12-12" in shown


def test_the_rulings_list_tells_two_rulings_with_the_same_verdict_apart(client):
    ask(client, q="draw", pos=OPEN_FOOT, hand_text="6-1", yard_count="5")
    ask(client, q="draw", pos=OPEN_FOOT, hand_text="4-0 3-1", yard_count="7", preset="wikipedia")
    html = client.get("/checker/rulings").get_data(as_text=True)
    essentials = re.findall(r'<p class="ruling-essentials small">([^<]+)</p>', html)
    assert essentials[0].startswith("Hand: 4-0, 3-1 · Tiles in the chicken yard: 7 · ")
    assert essentials[1].startswith("Hand: 6-1 · Tiles in the chicken yard: 5 · ")
    assert essentials[0] != essentials[1]


def test_deleting_a_ruling_is_confirmed_first(client):
    game = make_game()
    ask(client, game=game.edit_token, q="score", hand_text="6-6")
    ruling = db.session.scalars(db.select(Ruling)).one()
    listing = client.get(f"/checker/rulings?game={game.edit_token}").get_data(as_text=True)
    confirm = re.search(r'class="delete-ruling" href="([^"]+)"', listing).group(1)
    html = client.get(confirm.replace("&amp;", "&")).get_data(as_text=True)
    assert "Delete this ruling?" in html and "Hand: 6-6" in html
    assert db.session.query(Ruling).count() == 1  # asking to delete deletes nothing
    assert client.post(f"/checker/rulings/{ruling.id}/delete").status_code == 404  # no game
    resp = client.post(f"/checker/rulings/{ruling.id}/delete", data={"game": game.edit_token})
    assert resp.status_code == 303 and "/checker/rulings" in resp.headers["Location"]
    assert db.session.query(Ruling).count() == 0


def test_another_games_ruling_is_not_shown(client):
    one, two = make_game(), make_game(names=("Dee", "Eve"))
    follow(client, ask(client, game=one.edit_token, q="move", pos=SPOKES, tile="5-6", on="S1"))
    ruling = db.session.scalars(db.select(Ruling)).one()
    html = page(client, game=two.edit_token, ruling=str(ruling.id))
    assert 'id="verdict"' not in html


def test_the_tie_question_is_prefilled_with_the_games_scores(client):
    game = make_game(names=("Ann", "Bob"))
    with db.session.no_autoflush:
        rnd = Round(number=1, start_double=9)
        game.rounds.append(rnd)
        for seat, points in zip(game.seats, (12, 0), strict=True):
            rnd.hands.append(HandScore(seat=seat, points=points))
    db.session.commit()
    html = page(client, game=game.edit_token, q="tie")
    assert 'value="12"' in html and 'value="0"' in html


def test_unknown_game_is_404(client):
    assert client.get("/checker/?game=nope").status_code == 404
    assert client.get("/checker/rulings?game=nope").status_code == 404
    assert client.get("/checker/house-rules?game=nope").status_code == 404


# --- house rules, fragments, CSRF ---------------------------------------------------------
def test_house_rules_page_explains_every_switch_and_the_alternatives(client):
    html = client.get("/checker/house-rules?preset=wikipedia").get_data(as_text=True)
    # the switch's own card says the preset's choice, in words and in its Details
    card = re.search(
        r'<li class="card rule-row changed" id="rule-going_out_on_double">(.*?)</li>\s*<li',
        html,
        re.S,
    )
    assert card, "no card for going_out_on_double among the changed rules"
    assert "Going out by playing a double as the last tile." in card[1]
    in_force = re.search(r'<p class="in-force"><strong>(.*?)</strong>', card[1])
    assert in_force and in_force[1] == "Ends the round but scores 50, and is not a zero round."
    assert re.search(r"<code>going_out_on_double = (&#34;|\")penalty_50(&#34;|\")</code>", card[1])
    assert "The other choices" in html
    assert html.count('class="card rule-row') >= 25
    assert html.count('class="card rule-row changed"') == len(preset("wikipedia").differences())
    assert "Different from the standard rules" in html
    standard = client.get("/checker/house-rules").get_data(as_text=True)
    assert "These are the standard rules." in standard and "rule-row changed" not in standard


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ("preset=bogus", "&#39;bogus&#39; is not a preset; the standard rules are used."),
        ("players=12&set=6", "12 players x"),
    ],
)
def test_house_rules_and_checker_pages_warn_about_a_bad_table(client, params, words):
    for url in ("/checker/house-rules", "/checker/"):
        html = client.get(f"{url}?{params}").get_data(as_text=True)
        assert words in html, url
        assert '<p class="problem" role="alert">' in html


def test_house_rules_of_a_game(client):
    game = make_game("fundex_chicken_coop")
    html = client.get(f"/checker/house-rules?game={game.edit_token}").get_data(as_text=True)
    assert "center_spokes_required = 6" in html and "blank_half_value = 25" in html


def test_htmx_gets_the_fragment_only(client):
    resp = client.get("/checker/?pos=9-5+on+C", headers={"HX-Request": "true"})
    html = resp.get_data(as_text=True)
    assert html.lstrip().startswith('<div id="checker"') and "<html" not in html
    assert resp.headers["HX-Push-Url"].startswith("/checker/?")


def test_the_rulings_fragment_renders_for_other_pages(app):
    game = make_game()
    with app.test_request_context():
        assert "No rulings yet." in render_template("checker/_rulings_list.html", rulings=[])
        db.session.add(
            Ruling(
                game=game,
                category="draw",
                question={},
                answer={"rule": "5.5"},
                rules={},
                summary="Draw 1.",
            )
        )
        db.session.commit()
        html = render_template("checker/_rulings_list.html", rulings=rulings_for(game))
    assert "Draw 1." in html and "§5.5" not in html
    assert f'href="/checker/rules?game={game.id}#drawing">Drawing and passing</a>' in html


def test_asking_needs_the_csrf_token_when_csrf_is_on(csrf_client):
    client = csrf_client
    form = {"q": "move", "pos": SPOKES, "tile": "5-6", "on": "S1"}
    assert client.post("/checker/ask", data=form).status_code == 400
    html = client.get("/checker/?q=move").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    resp = client.post("/checker/ask", data={**form, "csrf_token": token})
    assert resp.status_code == 303
    assert db.session.query(Ruling).count() == 1
    ruling_id = db.session.scalars(db.select(Ruling.id)).one()
    assert client.post(f"/checker/rulings/{ruling_id}/delete").status_code == 400
    assert db.session.query(Ruling).count() == 1
    assert client.post("/checker/position", data={"pos": SPOKES}).status_code == 400
    resp = client.post("/checker/position", data={"pos": SPOKES, "csrf_token": token})
    assert resp.status_code == 303 and query(resp.headers["Location"])["pos"].endswith("9-2 on C")


def test_a_ruling_shows_its_form_filled_in_for_a_variation(client):
    html = follow(
        client, ask(client, q="tie", players="2", scores_0="10, 0, 5", scores_1="5, 5, 5")
    )
    assert 'value="10, 0, 5"' in html and 'value="5, 5, 5"' in html
    html = follow(client, ask(client, q="draw", pos=SPOKES, hand=["6-1"], yard_count="7"))
    assert 'name="hand" value="6-1" checked' in html and 'value="7"' in html


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    pos=st.text(max_size=60)
    | st.from_regex(
        r"\{\"center\": \"\d-\d\", \"tiles\": \[(\{\"id\": \"[A-Z]\d\", "
        r"\"on\": \"[A-Z]\d?\", \"tile\": \"\d{1,2}-\d\"\}, ?){0,3}\]\}",
        fullmatch=True,
    )
    | st.from_regex(r"(\d{1,2}-\d on ([CST]\d?|that)[;,] ?){0,6}", fullmatch=True),
    sel=st.sampled_from(["", "C", "S1", "D1", "zz"]),
    q=st.sampled_from(["", "move", "draw", "end", "score", "tie", "x"]),
)
def test_any_typed_position_gets_a_page_never_an_error(client, pos, sel, q):
    resp = client.get("/checker/", query_string={"pos": pos, "sel": sel, "q": q})
    assert resp.status_code == 200


def test_a_game_in_progress_uses_the_coming_double_and_a_finished_one_its_last(client):
    game = make_game(names=("Ann", "Bob"))
    game.rounds.append(Round(number=1, start_double=9))
    db.session.commit()
    assert "Centre 8-8" in page(client, game=game.edit_token)
    for number, double in enumerate(range(8, -1, -1), start=2):
        game.rounds.append(Round(number=number, start_double=double))
    db.session.commit()
    assert "Centre 0-0" in page(client, game=game.edit_token)


def test_the_rulings_list_words_each_ruling_in_the_readers_language(client):
    """A ruling's one line was stored in the language of the phone that asked and shown so to
    every phone at the table (a Spanish line on a Lithuanian phone): the list words it again
    from the stored question and answer; an unreadable ruling keeps its stored line."""
    follow(
        client,
        ask(client, q="tie", preset="wikipedia", set="12", players="2", scores_0="1", scores_1="2"),
    )
    ruling = db.session.scalars(db.select(Ruling)).one()
    english = ruling.summary
    ruling.summary = "Gana A."  # as a Spanish phone stored it
    db.session.commit()
    html = client.get("/checker/rulings").get_data(as_text=True)
    said = re.search(r'<p class="ruling-summary"><a href="[^"]+">([^<]+)</a>', html).group(1)
    assert said == english and "Gana A." not in html
    ruling.rules = {"set_size": "not a set"}
    db.session.commit()
    html = client.get("/checker/rulings").get_data(as_text=True)
    assert "Gana A." in html


def test_a_score_of_one_point_and_one_house_rule_change_are_singular(client):
    """The score question said "1 points." and a ruling with one changed house rule
    "+ 1 house rule changes": counts went through gettext without the plural forms."""
    html = follow(client, ask(client, q="score", hand=["1-0"], round_end="BLOCKED"))
    assert '<h2 id="verdict-h">1 point.</h2>' in html
    from types import SimpleNamespace

    from companion.checker.page import ruling_essentials

    ruleset = {"preset": "standard", "overrides": {"double_blank_value": 25}}
    ruling = SimpleNamespace(question={"category": "scoring", "ruleset": ruleset, "input": {}})
    with client.application.test_request_context():
        assert ruling_essentials(ruling).endswith("+ 1 house rule change")


@pytest.mark.parametrize(
    ("hand", "overrides"),
    [
        (["6-5"], {}),
        (["6-5", "1-0"], {}),
        (["0-0", "6-5"], {}),
        (["3-0", "2-2"], {"blank_half_value": 25}),
        (["0-0", "4-0"], {"blank_half_value": 25}),
        ([], {}),
    ],
)
def test_a_hands_score_is_worded_as_the_engine_counts_it(app, hand, overrides):
    """The checker words a hand's score itself (the engine's sentence is English only): in
    English it says exactly what the engine says."""
    from companion.checker.explaining import explain
    from companion.engine import RuleSet
    from companion.engine.questions import answer

    rules = RuleSet.from_dict({**preset("standard").to_dict(), **overrides})
    question = {
        "category": "scoring",
        "ruleset": {"preset": "standard", "overrides": overrides},
        "input": {"hand": hand, "round_end": "OUT"},
    }
    ans = answer(question)
    with app.test_request_context():
        assert explain("scoring", ans, rules, question).message == ans["message"]


@pytest.mark.parametrize(
    ("announcement", "data"),
    [
        ("off", {"announced": False, "next_player_has_played": True, "yard_count": 3}),
        ("tap_or_draw_1", {"announced": True, "next_player_has_played": True, "yard_count": 3}),
        ("tap_or_draw_1", {"announced": False, "next_player_has_played": True, "yard_count": 0}),
        ("tap_or_draw_1", {"announced": False, "next_player_has_played": True, "yard_count": 3}),
    ],
)
def test_the_last_tile_announcement_is_worded_as_the_engine_says_it(app, announcement, data):
    """The announcement's answer showed the engine's English sentence in every language: the
    checker words it itself, in English exactly as the engine does."""
    from companion.checker.explaining import explain
    from companion.engine import RuleSet
    from companion.engine.questions import answer

    overrides = {"last_tile_announcement": announcement}
    rules = RuleSet.from_dict({**preset("standard").to_dict(), **overrides})
    question = {
        "category": "edge",
        "ruleset": {"preset": "standard", "overrides": overrides},
        "input": {"kind": "announcement", "player": "Ann", "tiles_left": 1, **data},
    }
    ans = answer(question)
    with app.test_request_context():
        explained = explain("edge", ans, rules, question)
    assert explained.message == ans["message"]


@pytest.mark.parametrize("spokes", [3, 9, 12])
def test_the_centre_doubles_capacity_is_worded_as_the_engine_says_it(app, spokes):
    """The capacity answer showed the engine's English sentence in every language."""
    from companion.checker.explaining import explain
    from companion.engine.questions import answer

    rules = preset("standard")
    question = {
        "category": "edge",
        "ruleset": {"preset": "standard"},
        "input": {"kind": "centre_capacity", "requested_center_spokes": spokes},
    }
    ans = answer(question)
    with app.test_request_context():
        assert explain("edge", ans, rules, question).message == ans["message"]


@pytest.mark.parametrize(
    ("preset_name", "drawn"),
    [
        ("standard", "5-1"),
        ("spruce_seed002_003", "5-0"),
        ("standard", "6-0"),
        ("wikipedia", "6-0"),
    ],
)
def test_the_drawn_tiles_answer_is_worded_as_the_engine_says_it(client, preset_name, drawn):
    """What to do with a drawn tile showed the engine's English sentence in every language:
    the checker words it itself, in English exactly as the engine does."""
    from companion.checker.explaining import explain
    from companion.engine import RuleSet

    form = {"preset": preset_name, "q": "draw", "pos": OPEN_FOOT, "hand_text": "4-3 6-2"}
    follow(client, ask(client, yard_count="9", tile_drawn=drawn, **form))
    ruling = db.session.scalars(db.select(Ruling)).one()
    assert ruling.answer.get("drawn_tile_playable") is not None
    with client.application.test_request_context():
        rules = RuleSet.from_dict(ruling.rules)
        explained = explain("draw", ruling.answer, rules, ruling.question)
    assert explained.message == ruling.answer["message"]


# --- issue 26: the tie and hand-score questions at the default table --------------------------


def test_a_tie_of_two_at_the_default_four_player_table_judges_the_two_entered(client):
    resp = ask(client, q="tie", scores_0="10, 0, 5", scores_1="5, 5, 5")  # C and D left blank
    html = follow(client, resp)
    assert "A wins." in html
    question = db.session.scalars(db.select(Ruling)).one().question
    assert sorted(question["input"]["round_scores"]) == ["A", "B"]


def test_a_tie_with_one_player_entered_names_the_players_still_blank(client):
    resp = ask(client, q="tie", scores_0="10, 0, 5")
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert "at least two players; enter them for: B, C, and D." in html
    assert (
        'name="scores_1" value="" inputmode="numeric" autocomplete="off" aria-invalid="true"'
        in html
    )
    assert db.session.query(Ruling).count() == 0


def score_chips(html: str) -> list[str]:
    """The tiles offered as chips for the hand on the score question."""
    return re.findall(r'<input type="checkbox" name="hand" value="([^"]+)"', html)


@pytest.mark.parametrize(("params", "centre"), [({}, "9-9"), ({"centre": "5"}, "5-5")])
def test_the_hand_score_question_never_offers_the_rounds_centre_double(client, params, centre):
    html = client.get("/checker/", query_string={"q": "score", **params}).get_data(as_text=True)
    chips = score_chips(html)
    assert centre not in chips
    assert len(chips) == 54  # the rest of the double-9 set, the other doubles too
    # every chip offered is accepted
    other = "8-8" if centre == "9-9" else "9-9"
    assert ask(client, q="score", hand=[other, "0-0"], **params).status_code == 303
