"""Scoring a round through the form: typed totals, tapped tiles, house rules, every check."""

from __future__ import annotations

import html
import re

import pytest
from flask_babel import refresh

from companion.extensions import db
from companion.models import AuditEntry, Game, HandScore, Round
from tests.web.playkit import make_game, round_post, seat_ids, text


def post_round(client, game, double=6, **kwargs):
    return client.post(f"/g/{game.edit_token}/round", data=round_post(game, double, **kwargs))


def saved_points(game: Game) -> dict[str, int]:
    """Player name -> points of the last saved round."""
    db.session.expire_all()
    rnd = db.session.scalars(db.select(Round).where(Round.game_id == game.id)).all()[-1]
    names = {v: k for k, v in seat_ids(game).items()}
    return {names[h.seat_id]: h.points for h in rnd.hands}


def rounds_stored(game: Game) -> int:
    return db.session.scalar(db.select(db.func.count(Round.id)).where(Round.game_id == game.id))


def test_typed_totals_are_saved_with_the_player_who_went_out(client):
    game = make_game()
    r = post_round(client, game, totals={"Bob": 12, "Cy": "5"}, out="Ann")
    assert r.status_code == 303
    assert r.headers["Location"].endswith(f"/g/{game.edit_token}")
    assert saved_points(game) == {"Ann": 0, "Bob": 12, "Cy": 5}
    rnd = db.session.scalars(db.select(Round)).one()
    assert (rnd.number, rnd.start_double, rnd.status, rnd.outcome) == (1, 6, "scored", "out")
    assert [h.went_out for h in sorted(rnd.hands, key=lambda h: h.seat_id)] == [True, False, False]
    assert db.session.scalars(db.select(AuditEntry)).one().action == "round_saved"
    db.session.refresh(game)
    assert game.version == 2  # created, then bumped once by the round


def test_tapped_tiles_are_scored_by_the_engine_and_kept(client):
    game = make_game()
    r = post_round(client, game, tiles={"Bob": ["5-4", "3-0"], "Cy": ["0-0"]}, out="Ann")
    assert r.status_code == 303
    # 0-0 counts 50 by default; 3-0 counts 3 (blank halves are worth nothing by default)
    assert saved_points(game) == {"Ann": 0, "Bob": 12, "Cy": 50}
    hands = db.session.scalars(db.select(HandScore).order_by(HandScore.seat_id)).all()
    assert hands[1].tiles == ["5-4", "3-0"]
    assert hands[0].tiles == [] and hands[2].tiles == ["0-0"]


def test_blank_halves_and_double_blank_follow_the_house_rules(client):
    game = make_game(blank_half_value=25, double_blank_value=25)
    assert post_round(client, game, tiles={"Bob": ["5-0"], "Cy": ["0-0", "2-1"]}, out="Ann")
    assert saved_points(game) == {"Ann": 0, "Bob": 30, "Cy": 28}


def test_tiles_written_in_either_order_are_the_same_tile(client):
    game = make_game()
    assert (
        post_round(client, game, tiles={"Bob": ["4-5"], "Cy": ["1-2"]}, out="Ann").status_code
        == 303
    )
    assert saved_points(game) == {"Ann": 0, "Bob": 9, "Cy": 3}


def test_typed_total_matching_the_tiles_is_accepted_and_a_different_one_refused(client):
    game = make_game()
    r = post_round(client, game, tiles={"Bob": ["5-4"]}, totals={"Bob": 10, "Cy": 3}, out="Ann")
    assert r.status_code == 422
    assert "Bob: the tapped tiles add up to 9 points, but 10 was typed." in text(r)
    assert rounds_stored(game) == 0
    r = post_round(client, game, tiles={"Bob": ["5-4"]}, totals={"Bob": 9, "Cy": 3}, out="Ann")
    assert r.status_code == 303


def test_going_out_on_a_double_scores_50_under_that_house_rule(client):
    game = make_game(going_out_on_double="penalty_50")
    page = client.get(f"/g/{game.edit_token}")
    assert "went out on a double" in text(page)
    r = post_round(client, game, totals={"Bob": 7, "Cy": 4}, out="Ann", out_on_double="y")
    assert r.status_code == 303
    assert saved_points(game) == {"Ann": 50, "Bob": 7, "Cy": 4}
    hand = db.session.scalars(db.select(HandScore).where(HandScore.went_out)).one()
    assert hand.out_on_double


def test_going_out_on_a_double_is_zero_when_allowed(client):
    game = make_game()
    assert "went out on a double" not in text(client.get(f"/g/{game.edit_token}"))
    post_round(client, game, totals={"Bob": 7, "Cy": 4}, out="Ann", out_on_double="y")
    assert saved_points(game)["Ann"] == 0


def test_a_blocked_round_scores_every_hand(client):
    game = make_game()
    r = post_round(client, game, totals={"Ann": 3, "Bob": 7, "Cy": 4}, blocked=True)
    assert r.status_code == 303
    assert saved_points(game) == {"Ann": 3, "Bob": 7, "Cy": 4}
    assert db.session.scalars(db.select(Round)).one().outcome == "blocked"


def test_the_starter_who_actually_started_is_recorded(client):
    game = make_game()
    ids = seat_ids(game)
    r = post_round(client, game, totals={"Bob": 7, "Cy": 4}, out="Ann", starter=str(ids["Cy"]))
    assert r.status_code == 303
    assert db.session.scalars(db.select(Round)).one().starter_seat_id == ids["Cy"]


# --- every validation message, and nothing lost ------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"tiles": {"Bob": ["5-4"], "Cy": ["5-4"]}, "out": "Ann"},
            "5-4 can't be in both Bob's and Cy's hands.",
        ),
        (
            {"tiles": {"Bob": ["6-6"]}, "totals": {"Cy": 3}, "out": "Ann"},
            "Bob: 6-6 is this round's centre double, so it can't be in a hand.",
        ),
        ({"totals": {"Bob": "-5", "Cy": 3}, "out": "Ann"}, "Bob: a score can't be negative."),
        (
            {"totals": {"Bob": "12a", "Cy": 3}, "out": "Ann"},
            "Bob: type the points as a whole number (digits only).",
        ),
        (
            {"totals": {"Bob": "999", "Cy": 3}, "out": "Ann"},
            "Bob: 999 is more than any hand could hold in this game (at most",
        ),
        (
            {"totals": {"Bob": "1" * 40, "Cy": 3}, "out": "Ann"},
            "more than any hand could hold in this game",
        ),
        (
            {"totals": {"Ann": 1, "Bob": 2, "Cy": 3}, "out": "Ann", "out_2": "y"},
            "Only one player can go out in a round",
        ),
        (
            {"totals": {"Bob": 2, "Cy": 3}, "out": "Ann", "blocked": True},
            "A blocked round has nobody going out",
        ),
        (
            {"totals": {"Ann": 1, "Bob": 2, "Cy": 3}},
            "Mark who went out, or that the round was blocked.",
        ),
        (
            {"totals": {"Ann": 5, "Bob": 2, "Cy": 3}, "out": "Ann"},
            "Ann went out, so Ann scores 0 points, not 5.",
        ),
        (
            {"tiles": {"Ann": ["2-1"]}, "totals": {"Bob": 2, "Cy": 3}, "out": "Ann"},
            "Ann went out, so Ann has no tiles left",
        ),
        (
            {"totals": {"Bob": 2}, "out": "Ann"},
            "Cy: type the points left in hand, or tap the tiles.",
        ),
        (
            {"totals": {"Bob": 0, "Cy": 3}, "out": "Ann"},
            "Bob: 0 points means no tiles left; tick “Went out” for Bob",
        ),
        (
            {"tiles": {"Bob": ["7-1"]}, "totals": {"Cy": 3}, "out": "Ann"},
            "Bob: 7-1 is not in a double-6 set",
        ),
        (
            {"tiles": {"Bob": ["<script>alert(1)</script>"]}, "totals": {"Cy": 3}, "out": "Ann"},
            "is not a tile; write tiles like",
        ),
    ],
)
def test_each_mistake_gets_a_clear_message_and_nothing_is_saved(client, kwargs, message):
    game = make_game()
    ids = seat_ids(game)
    if "out_2" in kwargs:
        kwargs.pop("out_2")
        kwargs[f"out_{ids['Bob']}"] = "y"
    r = post_round(client, game, **kwargs)
    assert r.status_code == 422
    assert message in text(r)
    assert rounds_stored(game) == 0
    assert "<script>alert(1)</script>" not in r.get_data(as_text=True)


def test_what_was_typed_and_tapped_is_shown_again(client):
    game = make_game()
    ids = seat_ids(game)
    r = post_round(client, game, tiles={"Bob": ["5-4", "3-1"]}, totals={"Cy": "x7"}, out="Ann")
    body = r.get_data(as_text=True)
    assert r.status_code == 422
    assert f'name="total_{ids["Cy"]}"' in body and 'value="x7"' in body
    assert f'name="tiles_{ids["Bob"]}" value="5-4" data-points="9" checked' in body
    assert f'name="tiles_{ids["Bob"]}" value="3-1" data-points="4" checked' in body
    # "went out" still ticked
    assert (
        f'<input aria-label="Went out" autocomplete="off" checked name="out_{ids["Ann"]}"' in body
    )
    assert (
        f'<input aria-label="Went out" autocomplete="off" checked name="out_{ids["Bob"]}"'
        not in body
    )


def test_the_centre_double_is_not_offered_in_the_picker(client):
    game = make_game()
    ids = seat_ids(game)
    body = client.get(f"/g/{game.edit_token}/tiles?double=6&seat={ids['Bob']}").get_data(
        as_text=True
    )
    assert 'value="6-6"' not in body
    assert 'value="6-5" data-points="11"' in body
    assert body.count('value="0-0" data-points="50"') == 1
    page = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert 'inputmode="numeric"' in page


def test_in_the_double_blank_round_nobody_can_hold_the_double_blank(client):
    game = make_game()
    for d in range(6, 0, -1):
        assert post_round(client, game, d, totals={"Bob": 1, "Cy": 1}, out="Ann").status_code == 303
    r = post_round(client, game, 0, tiles={"Bob": ["0-0"]}, totals={"Cy": 1}, out="Ann")
    assert "Bob: 0-0 is this round's centre double" in text(r)


@pytest.mark.parametrize(
    "data",
    [
        {"double": "abc"},
        {"double": "99"},
        {"double": "-1"},
        {"double": "6", "version": "x" * 5000},
        {"double": "6", "total_1": "٣"},
        {"double": "6", "total_1": "1e5", "out_2": "y"},
        {"double": "6", "tiles_1": ["6-5"] * 500, "out_2": "y"},
        {"double": "6", "tiles_1": "99-99", "out_2": "y"},
        {"double": "6", "starter": "99999", "out_2": "y"},
        {},
    ],
)
def test_garbage_never_gives_a_500(client, data):
    game = make_game()
    r = client.post(f"/g/{game.edit_token}/round", data=data)
    assert r.status_code in (303, 409, 422)
    assert rounds_stored(game) == 0 or r.status_code == 303


def test_the_unknown_double_in_a_form_says_to_reload(client):
    game = make_game()
    r = client.post(f"/g/{game.edit_token}/round", data={"double": "abc", "version": "1"})
    assert r.status_code == 422
    assert "This form does not say which round it is for; reload the page." in text(r)


def test_a_double_that_is_not_the_coming_round_is_refused(client):
    game = make_game()
    r = post_round(client, game, 3, totals={"Bob": 1, "Cy": 1}, out="Ann")
    assert r.status_code == 409
    assert rounds_stored(game) == 0


def test_a_huge_but_valid_hand_score_on_a_big_set_is_accepted(client):
    game = make_game(set_size=18)
    assert post_round(client, game, 18, totals={"Bob": 300, "Cy": 1}, out="Ann").status_code == 303


def test_with_csrf_on_a_post_without_the_token_is_refused_and_with_it_saved(csrf_client):
    client = csrf_client
    game = make_game()
    data = round_post(game, 6, totals={"Bob": 1, "Cy": 2}, out="Ann")
    r = client.post(f"/g/{game.edit_token}/round", data=data)
    assert r.status_code in (400, 422)  # the form shown again (companion.web.stale_forms)
    assert "This page was open too long" in r.get_data(as_text=True)
    assert rounds_stored(game) == 0
    page = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    token = page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    r = client.post(f"/g/{game.edit_token}/round", data={**data, "csrf_token": token})
    assert r.status_code == 303
    assert rounds_stored(game) == 1


@pytest.mark.parametrize("lang", ["en", "de", "ru", "cs", "lt", "es"])
def test_a_0_without_the_tick_quotes_the_scorekeepers_box_label_in_every_language(client, lang):
    """Bob's 0 without his "Went out" ticked is refused in words that name the box to tick:
    they said “went out” (in some languages other words than the box's) while the box is
    named "Went out". They quote its label exactly as the form gives it, in each language."""
    game = make_game()
    assert client.post("/language", data={"lang": lang, "next": "/"}).status_code == 303
    refresh()  # (the test's app context keeps the first request's language)
    r = post_round(client, game, totals={"Bob": 0, "Cy": 3}, out="Ann")
    assert r.status_code == 422
    box = re.search(r'<label class="went-out"><input[^>]*aria-label="([^"]+)"', r.text)
    assert box
    label = html.unescape(box.group(1))
    words = html.unescape(r.text)
    assert re.search(f"Bob: [^<]*[“„«]{re.escape(label)}[”“»]", words), (label, lang)
