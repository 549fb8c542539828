"""The new-game page: players, seats, set, house rules, the deal preview and its messages."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from companion.engine import RuleSet, preset
from companion.extensions import db
from companion.models import AuditEntry, Game, Player, Seat
from tests.web.setup_helpers import game_data, start_game, start_night


@pytest.fixture()
def night_id(client) -> int:
    return start_night(client)


def _post(client, night_id: int, data: dict[str, str], **kwargs):
    return client.post(f"/nights/{night_id}/games/new", data=data, **kwargs)


def _games() -> int:
    return db.session.scalar(select(func.count(Game.id)))


def _players() -> int:
    return db.session.scalar(select(func.count(Player.id)))


def _seat_names(game: Game) -> list[str]:
    return [seat.player.name for seat in game.seats]


def _selected(page: str, name: str) -> str:
    """The selected option value of the select called ``name``."""
    select_html = re.search(rf'<select[^>]*name="{name}".*?</select>', page, re.S).group(0)
    return re.search(r'<option selected value="([^"]*)"', select_html).group(1)


# --- the page ------------------------------------------------------------------------------


def test_page_shows_players_sets_presets_and_every_switch(client, night_id):
    start_game(client, start_night(client), names=("Ann", "Bob"))  # seen on another night
    page = client.get(f"/nights/{night_id}/games/new")
    assert page.status_code == 200
    text = page.text
    assert "People seen before" in text and ">Ann</span>" in text and ">Bob</span>" in text
    assert _selected(text, "set_size") == "9"
    assert _selected(text, "preset") == "standard"
    presets = re.findall(
        r'<option (?:selected )?value="([a-z0-9_]+)"', text.split('name="preset"')[1]
    )
    assert presets[0] == "standard"
    # every switch with its one-line summary and its choices' meanings
    assert "Spokes the centre double needs before play spreads." in text
    assert "Six spokes (the double chicken foot)." in text
    assert "When nobody holds the round's double." in text  # trusted engine text
    assert _selected(text, "rules-center_spokes_required") == "4"
    assert 'name="rules-set_size"' not in text  # the set has its own field
    # the deal preview for no players yet: a neutral hint, not a red problem before the
    # scorekeeper did anything
    assert '<p class="hint">Choose at least 2 players (0 chosen).</p>' in text
    assert 'class="problems"' not in text
    assert 'hx-post="/nights/' in text and 'hx-target="#deal-preview"' in text


def test_create_game_with_new_names(client, night_id):
    response = _post(client, night_id, game_data(["Ann", "  Bob  ", "Cleo", "Dev"]))
    assert response.status_code == 303
    game = db.session.scalars(select(Game)).one()
    assert response.headers["Location"] == f"/g/{game.edit_token}"
    assert _seat_names(game) == ["Ann", "Bob", "Cleo", "Dev"]
    assert [s.position for s in game.seats] == [0, 1, 2, 3]
    assert game.night_id == night_id
    assert (game.set_size, game.preset, game.hand_size, game.status) == (9, "standard", 7, "active")
    assert game.rules == RuleSet().to_dict()
    assert game.chosen_spokes is None
    audit = db.session.scalars(select(AuditEntry)).one()
    assert audit.action == "create_game" and audit.game_id == game.id
    assert audit.after["players"] == ["Ann", "Bob", "Cleo", "Dev"]
    from tests.web.table_helpers import kept_tokens

    assert kept_tokens(client) == [game.edit_token]
    with client.session_transaction() as session:
        assert "edit_tokens" not in session  # the cookie carries a random id, not edit links


def test_seat_numbers_set_the_clockwise_order(client, night_id):
    _post(client, night_id, game_data(["Ann", "Bob", "Cleo", "Dev"], seats=[3, None, 1, 2]))
    game = db.session.scalars(select(Game)).one()
    # numbered players by number, then the unnumbered one
    assert _seat_names(game) == ["Cleo", "Dev", "Ann", "Bob"]


def test_known_players_are_reused_and_mixed_with_new_names(client, night_id):
    start_game(client, night_id, names=("Ann", "Bob"))
    ann = db.session.scalars(select(Player).where(Player.name == "Ann")).one()
    bob = db.session.scalars(select(Player).where(Player.name == "Bob")).one()
    data = game_data(["Eve"], seats=[1], known=[(ann.id, True, 2), (bob.id, False, None)])
    assert _post(client, night_id, data).status_code == 303
    game = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
    assert _seat_names(game) == ["Eve", "Ann"]
    assert game.seats[1].player_id == ann.id
    assert _players() == 3


def test_a_typed_name_matching_someone_seen_before_reuses_them(client, night_id):
    start_game(client, night_id, names=("Ann", "Bob"))
    before = _players()
    start_game(client, night_id, names=("  ANN ", "bob", "Chloé"))
    game = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
    assert _seat_names(game) == ["Ann", "Bob", "Chloé"]
    assert _players() == before + 1
    assert db.session.scalars(select(Player).where(Player.name == "Chloé")).one().name_key == (
        "chloé"
    )


def test_names_in_any_language(client, night_id):
    names = ["Zoë", "李小龍", "Ægir Ørsted", "محمد"]
    start_game(client, night_id, names=names)
    assert _seat_names(db.session.scalars(select(Game)).one()) == names


# --- refusals ------------------------------------------------------------------------------


def test_too_few_players(client, night_id):
    page = _post(client, night_id, game_data(["Ann"]))
    assert page.status_code == 200
    # after "Start the game" it is a problem, said once, in red at the top
    problems = page.text.split('<div class="problems" role="alert">')[1].split("</div>")[0]
    assert "Choose at least 2 players (1 chosen)." in problems
    assert page.text.count("Choose at least 2 players") == 1
    assert (_games(), _players()) == (0, 0)


def test_too_many_players(client, night_id):
    start_game(client, night_id, names=("Ann", "Bob"))
    known = [(p.id, True, None) for p in db.session.scalars(select(Player))]
    names = [f"Player {i}" for i in range(1, 12)]  # 11 new + 2 known = 13
    page = _post(client, night_id, game_data(names, known=known))
    assert "Chicken Foot is for at most 12 players (13 chosen)." in page.text
    assert _games() == 1 and _players() == 2


def test_more_than_twelve_name_rows_are_cut(client, night_id):
    data = game_data([f"P{i}" for i in range(20)], set_size=18)
    assert _post(client, night_id, data).status_code == 303
    assert len(db.session.scalars(select(Game)).one().seats) == 12


def test_duplicate_names_are_refused(client, night_id):
    page = _post(client, night_id, game_data(["Ann", "Bob", "ann"]))
    assert page.status_code == 200
    assert "“Ann” is in this game twice; each player sits once." in page.text
    assert (_games(), _players()) == (0, 0)


def test_a_known_player_and_the_same_typed_name_are_refused(client, night_id):
    start_game(client, night_id, names=("Ann", "Bob"))
    ann = db.session.scalars(select(Player).where(Player.name == "Ann")).one()
    page = _post(client, night_id, game_data(["Bob", "ANN"], known=[(ann.id, True, None)]))
    assert "“Ann” is in this game twice; each player sits once." in page.text
    assert _games() == 1


def test_the_same_seat_twice_is_refused(client, night_id):
    page = _post(client, night_id, game_data(["Ann", "Bob", "Cleo"], seats=[1, 2, 2]))
    assert "Two players cannot both sit at seat 2." in page.text
    assert _games() == 0


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        ("13", "A seat number is from 1 to 12."),
        ("x", "Type a whole number with the digits 0-9 (digits only)."),
    ],
)
def test_bad_seat_numbers(client, night_id, seat, message):
    data = game_data(["Ann", "Bob"])
    data["new-0-seat"] = seat
    page = _post(client, night_id, data)
    assert page.status_code == 200
    assert message in page.text
    assert _games() == 0


@pytest.mark.parametrize("typed", ["\u0662", "\uff13", "1\u0663"])
@pytest.mark.parametrize("field", ["new-0-seat", "rules-target_total"])
def test_digits_of_other_scripts_are_refused_like_in_the_points_boxes(
    client, night_id, typed, field
):
    """ "٢" and "３" are digits to int(): the points boxes refuse them, so does this form."""
    data = game_data(["Ann", "Bob"])
    data[field] = typed
    page = _post(client, night_id, data)
    assert page.status_code == 200
    assert "Type a whole number with the digits 0-9 (digits only)." in page.text
    assert _games() == 0


def test_hostile_names_are_stored_as_text_and_escaped(client, night_id):
    hostile = '<img src=x onerror="alert(1)">'
    start_game(client, night_id, names=(hostile, "Bob"))
    assert db.session.scalars(select(Player).where(Player.name == hostile)).one()
    for url in (f"/nights/{night_id}", "/", f"/nights/{night_id}/games/new"):
        text = client.get(url).text
        assert hostile not in text
        assert "&lt;img src=x onerror=" in text
    # and on a refused form, redisplayed
    page = _post(client, night_id, game_data(["<b>x</b>", "<b>X</b>"]))
    assert "<b>x</b>" not in page.text and "&lt;b&gt;x&lt;/b&gt;" in page.text


def test_oversized_names_are_refused(client, night_id):
    page = _post(client, night_id, game_data(["A" * 61, "Bob"]))
    assert "A name has at most 60 characters." in page.text
    assert _games() == 0
    assert _post(client, night_id, game_data(["A" * 60, "Bob"])).status_code == 303


def test_control_characters_in_names_are_refused(client, night_id):
    page = _post(client, night_id, game_data(["An\x00n", "Bob"]))
    assert "A player&#39;s name cannot contain invisible characters" in page.text
    assert _games() == 0


def test_an_invisible_format_character_makes_no_new_name(client, night_id):
    # "Ирина" + a zero-width space looks like "Ирина": one person, so twice at this table
    page = _post(client, night_id, game_data(["Ирина", "Ирина\u200b", "Bob"]))
    assert "“Ирина” is in this game twice; each player sits once." in page.text
    assert _games() == 0
    assert _post(client, night_id, game_data(["\ufeffИрина\u200b", "Bob"])).status_code == 303
    assert db.session.scalars(select(Player.name).order_by(Player.id)).all() == ["Ирина", "Bob"]
    page = _post(client, night_id, game_data(["\u200b", "Bob"]))
    assert "A player&#39;s name cannot be empty." in page.text


def test_infeasible_deal_is_refused_with_the_engines_problem(client, night_id):
    names = [f"P{i}" for i in range(12)]
    page = _post(client, night_id, game_data(names, set_size=6))
    assert page.status_code == 200
    assert "12 players x 7 tiles = 84 tiles, but the double-6 set has only 28 to deal." in page.text
    assert (_games(), _players()) == (0, 0)


def test_custom_hand_size(client, night_id):
    data = game_data(hand_size_rule="custom", hand_size_custom=12)
    assert _post(client, night_id, data).status_code == 303
    assert db.session.scalars(select(Game)).one().hand_size == 12
    page = _post(client, night_id, game_data(hand_size_rule="custom", hand_size_custom=15))
    assert "4 players x 15 tiles = 60 tiles, but the double-9 set has only 55 to deal." in (
        page.text
    )
    page = _post(client, night_id, game_data(hand_size_rule="custom", hand_size_custom=0))
    assert "The hand-size rule is &#39;custom&#39;: choose how many tiles each." in page.text
    assert _games() == 1


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("preset", "no_such_preset"),
        ("rules-center_spokes_required", "5"),
        ("rules-must_play_if_able", "1"),
        ("rules-draw_when_stuck", "<script>"),
        ("set_size", "7"),
        ("set_size", "nine"),
    ],
)
def test_values_posted_by_hand_are_refused(client, night_id, field, value):
    data = game_data()
    data[field] = value
    data["rules-applied_preset"] = data["preset"]
    page = _post(client, night_id, data)
    assert page.status_code == 200
    assert "Choose one of the listed options." in page.text
    assert _games() == 0


def test_out_of_range_numbers_posted_by_hand_are_refused(client, night_id):
    page = _post(client, night_id, game_data(double_blank_value=50, target_total=10**9))
    assert "Use a whole number from 0 to 100000." in page.text
    assert _games() == 0


def test_unknown_fields_posted_by_hand_are_ignored(client, night_id):
    data = game_data()
    data["rules-no_such_switch"] = "1"
    assert _post(client, night_id, data).status_code == 303
    assert "no_such_switch" not in db.session.scalars(select(Game)).one().rules


def test_unknown_or_huge_player_ids_are_refused(client, night_id):
    page = _post(client, night_id, game_data(["Ann"], known=[(999, True, None)]))
    assert "A chosen player was not found; please choose again." in page.text
    page = _post(client, night_id, game_data(["Ann"], known=[(10**30, True, None)]))
    assert page.status_code == 200
    assert _games() == 0


def test_unknown_deleted_and_non_numeric_nights(client):
    assert client.get("/nights/9/games/new").status_code == 404
    assert client.post("/nights/9/games/new", data=game_data()).status_code == 404
    assert client.get("/nights/x/games/new").status_code == 404
    assert client.post("/nights/9/games/preview", data=game_data()).status_code == 404


def test_oversized_request_is_refused_cleanly(client, night_id):
    data = game_data()
    data["new-0-name"] = "A" * (2 * 1024 * 1024)
    page = _post(client, night_id, data)
    assert page.status_code == 413
    assert _games() == 0


# --- house rules and presets ---------------------------------------------------------------


def test_switches_change_the_frozen_rules(client, night_id):
    data = game_data(blank_half_value=25, going_out_on_double="penalty_50")
    assert _post(client, night_id, data).status_code == 303
    rules = db.session.scalars(select(Game)).one().rules
    assert (rules["blank_half_value"], rules["going_out_on_double"]) == (25, "penalty_50")
    assert rules["set_size"] == 9


def test_a_preset_is_frozen_with_its_switches(client, night_id):
    start_game(client, night_id, preset_name="fundex_chicken_coop", set_size=9)
    game = db.session.scalars(select(Game)).one()
    assert game.preset == "fundex_chicken_coop"
    assert game.rules == preset("fundex_chicken_coop").to_dict()
    assert game.hand_size == 9  # the Fundex table for 4 players


def test_apply_preset_without_javascript(client, night_id):
    data = game_data(button="apply_preset")
    data["preset"] = "double_chickenfoot"
    page = _post(client, night_id, data)
    assert page.status_code == 200
    assert _selected(page.text, "rules-center_spokes_required") == "6"
    assert 'name="rules-applied_preset" type="hidden" value="double_chickenfoot"' in page.text
    assert _games() == 0


def test_a_changed_preset_is_applied_before_starting(client, night_id):
    data = game_data()
    data["preset"] = "double_chickenfoot"  # switches still show the standard values
    page = _post(client, night_id, data)
    assert page.status_code == 200
    assert "The house rules now show the chosen preset: check them, then start." in page.text
    assert _selected(page.text, "rules-center_spokes_required") == "6"
    assert _games() == 0


def test_more_name_rows(client, night_id):
    page = _post(client, night_id, game_data(["Ann"], button="more_names"))
    assert 'name="new-7-name"' in page.text and 'name="new-8-name"' not in page.text
    assert 'value="Ann"' in page.text


def test_players_to_8_asks_for_the_chosen_spokes(client, night_id):
    data = game_data(["Ann", "Bob", "Cleo", "Dev"], preset_name="gamerules_seed001")
    page = client.post(
        f"/nights/{night_id}/games/preview", data=data, headers={"HX-Request": "true"}
    )
    assert 'name="chosen_spokes"' in page.text
    data["chosen_spokes"] = "9"
    page = _post(client, night_id, data)
    assert "With one train per player up to eight, 4 players need 4 to 8 spokes, not 9." in (
        page.text
    )
    data["chosen_spokes"] = "6"
    assert _post(client, night_id, data).status_code == 303
    game = db.session.scalars(select(Game)).one()
    assert (game.chosen_spokes, game.hand_size) == (6, 11)


def test_players_to_8_without_a_choice_takes_one_spoke_per_player(client, night_id):
    start_game(client, night_id, names=("A", "B", "C", "D", "E"), preset_name="gamerules_seed001")
    assert db.session.scalars(select(Game)).one().chosen_spokes == 5


def test_fixed_spokes_ignore_a_posted_choice(client, night_id):
    data = game_data()
    data["chosen_spokes"] = "7"
    assert _post(client, night_id, data).status_code == 303
    assert db.session.scalars(select(Game)).one().chosen_spokes is None


# --- the htmx deal preview -----------------------------------------------------------------


def test_preview_fragment_for_htmx(client, night_id):
    page = client.post(
        f"/nights/{night_id}/games/preview",
        data=game_data(["Ann", "Bob", "Cleo"], button="check"),
        headers={"HX-Request": "true"},
    )
    assert page.status_code == 200
    assert "<html" not in page.text and "<form" not in page.text
    assert "Tiles each" in page.text and "Left in the chicken yard" in page.text
    figures = re.findall(r'class="big-number">(\d+)<', page.text)
    assert figures == ["7", "34", "4"]  # 7 each, 55 - 21 in the yard, 4 spokes
    assert "This deal works." in page.text
    assert "hx-swap-oob" not in page.text


def test_preview_fragment_reports_problems(client, night_id):
    page = client.post(
        f"/nights/{night_id}/games/preview",
        data=game_data([f"P{i}" for i in range(9)], set_size=6),
        headers={"HX-Request": "true"},
    )
    assert "9 players x 7 tiles = 63 tiles, but the double-6 set has only 28 to deal." in page.text
    assert "This deal works." not in page.text


def test_preview_fragment_brings_the_presets_switches_out_of_band(client, night_id):
    data = game_data()
    data["preset"] = "double_chickenfoot"
    page = client.post(
        f"/nights/{night_id}/games/preview", data=data, headers={"HX-Request": "true"}
    )
    assert '<div id="rule-switches" hx-swap-oob="innerHTML">' in page.text
    assert _selected(page.text, "rules-center_spokes_required") == "6"
    assert re.findall(r'class="big-number">(\d+)<', page.text)[-1] == "6"


def test_preview_without_htmx_redisplays_the_page(client, night_id):
    page = client.post(f"/nights/{night_id}/games/preview", data=game_data())
    assert page.status_code == 200
    assert "<html" in page.text and "Tiles each" in page.text
    assert _games() == 0


def test_update_the_deal_button_without_javascript(client, night_id):
    page = _post(client, night_id, game_data([f"P{i}" for i in range(5)], button="check"))
    assert page.status_code == 200
    assert re.findall(r'class="big-number">(\d+)<', page.text)[:2] == ["7", "20"]
    assert _games() == 0


def test_seats_are_unique_per_game_in_the_database(client, night_id):
    start_game(client, night_id)
    positions = db.session.scalars(select(Seat.position).order_by(Seat.position)).all()
    assert positions == [0, 1, 2, 3]


def test_enter_in_a_text_box_only_updates_the_deal(client, night_id):
    # implicit submission uses the form's first submit button: it must be the harmless one
    page = client.get(f"/nights/{night_id}/games/new").text
    form = page[page.index('<form method="post" action="/nights/') :]
    first = re.search(r"<(?:button|input)[^>]*type=\"submit\"[^>]*>", form).group(0)
    assert 'name="check"' in first


def _known_rows(page: str) -> list[tuple[str, bool, str]]:
    """(name, ticked, seat) of each "people seen before" row of a new-game page."""
    rows = re.findall(r'<li class="player-row">(.*?)</li>', page, re.S)
    found = []
    for r in rows:
        name = re.search(r"<span>(.*?)</span>", r)
        if name is None or "plays" not in r:
            continue
        seat = re.search(r'name="known-\d+-seat"[^>]*value="([^"]*)"', r)
        found.append((name.group(1), "checked" in r, seat.group(1) if seat else ""))
    return found


def test_nobody_is_ticked_and_the_last_games_players_are_listed_first(client, night_id):
    start_game(client, night_id, names=("Xavi", "Yara"))
    start_game(client, night_id, names=("Ann", "Bob", "Cleo"), seats=[3, 1, 2])
    page = client.get(f"/nights/{night_id}/games/new").text
    assert [(n, t) for n, t, _s in _known_rows(page)] == [
        ("Bob", False),
        ("Cleo", False),
        ("Ann", False),
        ("Yara", False),
        ("Xavi", False),
    ]
    assert "Same players as last game" in page and "Bob, Cleo, Ann" in page
    # a new night has no last game to repeat
    other = start_night(client)
    fresh = client.get(f"/nights/{other}/games/new").text
    assert "checked" not in fresh and "Same players as last game" not in fresh


def test_same_players_as_last_game_ticks_them_at_their_seats_in_one_tap(client, night_id):
    start_game(client, night_id, names=("Xavi", "Yara"))
    start_game(client, night_id, names=("Ann", "Bob", "Cleo"), seats=[3, 1, 2])
    page = client.get(f"/nights/{night_id}/games/new").text
    ids = re.findall(r'name="known-(\d+)-player_id" type="hidden" value="(\d+)"', page)
    known = [(int(pid), False, None) for _i, pid in ids]
    data = game_data(names=("Zoe",), known=known, button="same_players")
    again = _post(client, night_id, data)
    assert again.status_code == 200 and _games() == 2
    assert _known_rows(again.text) == [
        ("Bob", True, "1"),
        ("Cleo", True, "2"),
        ("Ann", True, "3"),
        ("Yara", False, ""),
        ("Xavi", False, ""),
    ]
    assert 'value="Zoe"' in again.text  # a typed name is kept


def test_an_error_about_the_players_names_every_ticked_one(client, night_id):
    start_game(client, night_id, names=("Ann", "Bob", "Cleo", "Dev"))
    page = client.get(f"/nights/{night_id}/games/new").text
    ids = re.findall(r'name="known-(\d+)-player_id" type="hidden" value="(\d+)"', page)
    known = [(int(pid), True, None) for _i, pid in ids]
    data = game_data(names=("Eve", "Finn", "Gus", "Hal"), known=known, set_size=6)
    refused = _post(client, night_id, data)
    assert refused.status_code == 200 and _games() == 1
    problems = re.search(r'<div class="problems" role="alert">(.*?)</div>', refused.text, re.S)
    words = " ".join(re.sub(r"<[^>]+>", " ", problems.group(1)).split())
    assert "Chosen for this game (8): Ann, Bob, Cleo, Dev, Eve, Finn, Gus, Hal." in words


def test_a_merged_player_is_replaced_by_the_player_they_were_merged_into(client, night_id):
    start_game(client, night_id, names=("Robert", "Ann"))
    robert = db.session.scalars(select(Player).where(Player.name == "Robert")).one()
    bob = Player(name="Bob", name_key="bob", merged_into_id=robert.id)
    db.session.add(bob)
    db.session.commit()
    # typed by name, or ticked by id (a page opened before the merge): both seat Robert
    start_game(client, night_id, names=("bob", "Cleo"))
    game = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
    assert _seat_names(game) == ["Robert", "Cleo"]
    data = game_data(["Dee"], known=[(bob.id, True, None)])
    assert _post(client, night_id, data).status_code == 303
    game = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
    assert _seat_names(game) == ["Robert", "Dee"]
    # merged players are not offered again
    assert ">Bob</span>" not in client.get(f"/nights/{night_id}/games/new").text


def test_the_yard_reserve_is_shown_in_good_grammar(client, night_id):
    preview = f"/nights/{night_id}/games/preview"
    hx = {"HX-Request": "true"}
    data = game_data(["A", "B", "C"], preset_name="gamerules_seed001")
    assert "1 tile of the yard is never drawn." in client.post(preview, data=data, headers=hx).text
    data = game_data(["A", "B"], preset_name="gamerules_seed001")
    assert (
        "2 tiles of the yard are never drawn." in client.post(preview, data=data, headers=hx).text
    )


# --- the house rules box and duplicate names --------------------------------------------------


def new_game_page(client, data):
    night = start_night(client)
    return client.post(f"/nights/{night}/games/new", data=data).get_data(as_text=True)


def details_tag(body: str) -> str:
    return re.search(r'<details class="house-rules"[^>]*>', body).group(0)


def test_house_rules_open_when_a_switch_is_refused(client):
    data = game_data()
    data["rules-draw_when_stuck"] = "<script>"
    body = new_game_page(client, data)
    assert "Choose one of the listed options." in body
    assert " open" in details_tag(body)


def test_house_rules_stay_closed_without_a_problem_there(client):
    night = start_night(client)
    body = client.get(f"/nights/{night}/games/new").get_data(as_text=True)
    assert " open" not in details_tag(body)
    assert " open" not in details_tag(new_game_page(client, game_data(("Ann", "Ann", "Bob"))))


def test_duplicate_names_do_not_get_a_green_deal(client):
    body = new_game_page(client, game_data(("Ann", "Bob", "Ann")))
    assert "is in this game twice" in body
    assert "This deal works." not in body
    assert "The deal fits once the problems above are fixed." in body


def test_a_pasted_screenful_name_is_quoted_shortened_after_the_reason(client, night_id):
    """A 10,000-character name (maxlength bypassed) was echoed whole in the error box
    ("Chosen for this game (3): NNNN…" for screens) and the reason was far below."""
    refused = _post(client, night_id, game_data(["N" * 10_000, "Bob", "Cy"]))
    assert refused.status_code == 200 and _games() == 0
    problems = re.search(r'<div class="problems" role="alert">(.*?)</div>', refused.text, re.S)
    items = [
        " ".join(re.sub(r"<[^>]+>", " ", li).split())
        for li in re.findall(r"<li>(.*?)</li>", problems.group(1), re.S)
    ]
    assert items == [
        "Please correct the marked fields.",
        "A name has at most 60 characters.",
        f"Chosen for this game (3): {'N' * 60}…, Bob, Cy.",
    ]


@pytest.mark.parametrize(
    ("names", "known", "said"),
    [
        (["cy", "CY"], False, "“cy” is in this game twice; each player sits once."),
        (["dee"], True, "“Dee” is in this game twice; each player sits once."),
    ],
)
def test_preview_catches_a_player_chosen_twice_as_start_does(client, night_id, names, known, said):
    """Two spellings of one name, or a ticked player typed again: the preview says what
    "Start the game" would refuse with, never "This deal works."."""
    rows: list[tuple[int, bool, int | None]] = []
    if known:
        dee = Player(name="Dee", name_key="dee")
        db.session.add(dee)
        db.session.commit()
        rows = [(dee.id, True, None)]
    data = game_data(names, known=rows, button="check")
    page = client.post(
        f"/nights/{night_id}/games/preview", data=data, headers={"HX-Request": "true"}
    ).text
    assert said in page.replace("&#34;", '"')
    assert "This deal works." not in page
    started = _post(client, night_id, game_data(names, known=rows)).text
    assert said in started and started.count(said) == 1  # said once on the refused page
