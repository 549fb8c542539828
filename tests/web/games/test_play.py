"""The game page: the coming round, missing doubles, who starts, a whole game to the finish,
rematch, htmx fragments, and 404s for tokens that are not this game's."""

from __future__ import annotations

import re

import pytest

from companion.extensions import db
from companion.models import Game, Round, Seat, utcnow
from tests.web.playkit import add_scored_rounds, make_game, page_html, round_post, seat_ids, text


def page(client, game, query=""):
    return client.get(f"/g/{game.edit_token}{query}")


def post_round(client, game, double, query="", **kwargs):
    return client.post(
        f"/g/{game.edit_token}/round{query}", data=round_post(game, double, **kwargs)
    )


def stored(game: Game) -> list[tuple[int, str]]:
    db.session.expire_all()
    rounds = db.session.scalars(
        db.select(Round).where(Round.game_id == game.id).order_by(Round.number)
    )
    return [(r.start_double, r.status) for r in rounds]


def test_saving_redirects_to_the_game_page_with_a_message(client):
    game = make_game()
    r = post_round(client, game, 6, totals={"Bob": 4, "Cy": 2}, out="Ann")
    assert r.status_code == 303
    words = text(client.get(r.headers["Location"]))
    assert "Round saved." in words and "Round 2 of 7" in words


def test_the_game_page_shows_the_coming_round(client):
    game = make_game(set_size=9, names=("Ann", "Bob", "Cy", "Di"))
    r = page(client, game)
    assert r.status_code == 200
    words = text(r)
    assert "Round 1 of 10" in words
    assert "Centre double: 9-9" in words
    assert "Who starts: whoever holds 9-9 (places 9-9 in the centre)." in words
    body = r.get_data(as_text=True)
    assert '<svg class="tile centre"' in body
    assert "js/wakelock.js" in body and "js/score.js" in body
    assert 'hx-post="/g/' in body and 'hx-target="#round-area"' in body


def test_wake_lock_is_only_on_game_pages(client):
    assert "wakelock.js" not in client.get("/").get_data(as_text=True)


def test_unknown_tokens_and_other_games_are_404(client):
    game = make_game()
    other = make_game(names=("Xu", "Yan"))
    assert post_round(client, other, 6, totals={"Yan": 3}, out="Xu").status_code == 303
    other_round = db.session.scalars(db.select(Round).where(Round.game_id == other.id)).one()
    assert client.get("/g/not-a-token").status_code == 404
    assert client.get("/g/" + "x" * 500).status_code == 404
    assert client.get(f"/g/{game.share_token}").status_code == 404  # read-only link can't edit
    assert client.post(f"/g/{game.share_token}/round", data={}).status_code == 404
    assert client.get(f"/g/{game.edit_token}/round/{other_round.number}").status_code == 404
    assert client.get(f"/g/{game.edit_token}/round/99999").status_code == 404
    assert client.get(f"/s/{game.edit_token}").status_code == 404


def test_skip_to_next_lower_burns_the_double_and_moves_on(client):
    game = make_game(missing_start_double="skip_to_next_lower")
    r = page(client, game)
    assert f'action="/g/{game.edit_token}/burn"' in r.get_data(as_text=True)
    r = client.post(
        f"/g/{game.edit_token}/burn", data={"version": str(game.version), "double": "6"}
    )
    assert r.status_code == 303
    assert stored(game) == [(6, "burned")]
    words = text(page(client, game))
    assert "6-6 burned" in words
    assert "Centre double: 5-5" in words and "Round 1 of 6" in words
    assert post_round(client, game, 5, totals={"Bob": 3, "Cy": 1}, out="Ann").status_code == 303
    assert stored(game) == [(6, "burned"), (5, "scored")]


def test_burning_twice_or_with_a_stale_version_changes_nothing(client):
    game = make_game(missing_start_double="skip_to_next_lower")
    data = {"version": str(game.version), "double": "6"}
    assert client.post(f"/g/{game.edit_token}/burn", data=data).status_code == 303
    r = client.post(f"/g/{game.edit_token}/burn", data=data, follow_redirects=True)
    assert "The game changed on another phone; nothing was burned." in text(r)
    assert stored(game) == [(6, "burned")]


def test_burning_is_refused_when_the_rule_does_not_burn(client):
    game = make_game()  # draw_until_found
    r = client.post(
        f"/g/{game.edit_token}/burn",
        data={"version": str(game.version), "double": "6"},
        follow_redirects=True,
    )
    assert "nothing was burned" in text(r)
    assert stored(game) == []


def test_except_blank_draws_for_the_double_blank(client):
    game = make_game(missing_start_double="skip_to_next_lower_except_blank")
    for d in range(6, 0, -1):
        post_round(client, game, d, totals={"Bob": 1, "Cy": 1}, out="Ann")
    body = page(client, game).get_data(as_text=True)
    assert "/burn" not in body  # the double-blank is never burned
    words = text(page(client, game, "?missing=0"))
    assert "the double-blank is always drawn for" in words


def test_draw_until_found_just_says_so(client):
    game = make_game()
    r = page(client, game)
    assert f"/g/{game.edit_token}?missing=6" in r.get_data(as_text=True)
    words = text(page(client, game, "?missing=6"))
    assert "players take turns drawing from the chicken yard" in words
    assert "Centre double: 6-6" in words
    assert stored(game) == []


def test_reshuffle_redeal_says_to_redeal(client):
    game = make_game(missing_start_double="reshuffle_redeal")
    words = text(page(client, game, "?missing=6"))
    assert "all tiles are reshuffled and the hands dealt again" in words
    assert "Centre double: 6-6" in words


def test_retry_next_round_passes_the_double_over_for_one_round(client):
    game = make_game(missing_start_double="retry_next_round")
    r = page(client, game, "?missing=6")
    words = text(r)
    assert "passed over this round" in words
    assert "Centre double: 5-5" in words and "Round 1 of 7" in words
    assert f'action="/g/{game.edit_token}/round?missing=6"' in r.get_data(as_text=True)
    assert (
        post_round(client, game, 5, "?missing=6", totals={"Bob": 2, "Cy": 1}, out="Ann").status_code
        == 303
    )
    assert stored(game) == [(5, "scored")]
    assert "Centre double: 6-6" in text(page(client, game))  # tried again next round


def test_missing_junk_in_the_query_is_ignored(client):
    game = make_game()
    for q in ("?missing=abc", "?missing=99", "?missing=-1", "?missing=" + "9" * 50):
        r = page(client, game, q)
        assert r.status_code == 200 and "Centre double: 6-6" in text(r)


def test_pulled_before_deal_offers_no_missing_double_action(client):
    game = make_game(start_double_source="pulled_before_deal")
    body = page(client, game).get_data(as_text=True)
    assert "Nobody holds" not in body


def test_rotate_left_names_the_next_starter_from_the_recorded_first_one(client):
    game = make_game(later_round_starter="rotate_left")
    ids = seat_ids(game)
    post_round(client, game, 6, totals={"Bob": 1, "Cy": 1}, out="Ann", starter=str(ids["Bob"]))
    r = page(client, game)
    assert "Cy starts:" in text(r)
    assert f'<option selected value="{ids["Cy"]}">Cy</option>' in r.get_data(as_text=True)


def test_htmx_save_returns_the_game_fragment(client):
    game = make_game()
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 4, "Cy": 2}, out="Ann"),
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="round-area"')
    assert "<html" not in body
    assert "Centre double: 5-5" in text(r)
    assert "Round saved." in text(r)
    assert r.headers["HX-Push-Url"] == f"/g/{game.edit_token}"
    # validation errors come back as a fragment with their real status (htmx is configured to
    # swap 422 and 409: templates/base.html)
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 5, totals={"Bob": "-1"}, out="Ann"),
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 422 and "Bob: a score can't be negative." in text(r)
    assert "<html" not in r.get_data(as_text=True)


def play_whole_game(client, game):
    """A double-6 game for Ann, Bob and Cy: Ann and Bob tie on 50, Ann went out twice and Bob
    once, Cy went out four times but has 60."""
    rounds = [
        (6, {"Bob": 5, "Cy": 20}, "Ann", None),
        (5, {"Ann": 10, "Cy": 20}, "Bob", None),
        (4, {"Bob": 15}, "Ann", {"Cy": ["6-6", "5-3"]}),  # 12 + 8 = 20, by tapped tiles
        (3, {"Ann": 10, "Bob": 10}, "Cy", None),
        (2, {"Ann": 10, "Bob": 10}, "Cy", None),
        (1, {"Ann": 10}, "Cy", {"Bob": ["4-1"]}),
        (0, {"Ann": 10, "Bob": 5}, "Cy", None),
    ]
    for double, totals, out, tiles in rounds:
        r = post_round(client, game, double, totals=totals, out=out, tiles=tiles)
        assert r.status_code == 303, text(r)


def test_a_whole_double_6_game_to_the_finish_with_a_tie_decided_by_zero_rounds(client):
    game = make_game()
    play_whole_game(client, game)
    db.session.expire_all()
    game = db.session.get(Game, game.id)
    assert game.status == "finished" and game.finished_at is not None
    r = page(client, game)
    words = text(r)
    assert "Game over" in words
    assert "Ann wins!" in words
    assert "Decided by: most zero rounds." in words
    assert "Ann is ahead of Bob, both on 50 points, by most zero rounds." in words
    assert "Save round" not in words  # no round left to score
    # the summary: total, zero rounds, best round
    html = r.get_data(as_text=True)
    summary = html.split('class="summary"')[1].split("</table>")[0]
    rows = [text_of(group) for group in summary.split("<tbody>")[1:]]
    # rank and player, total, zero rounds, best non-zero round (the zero rounds never count)
    assert rows == ["1. Ann 50 2 10", "2. Bob 50 1 5", "3. Cy 60 4 20"]
    # one "Game over" heading, the result card's (as after the htmx swap of the last round)
    assert len(re.findall(r"<h[1-6][^>]*>\s*Game over", html)) == 1
    # nothing more can be saved
    r = post_round(client, game, 0, totals={"Ann": 1, "Bob": 1}, out="Cy")
    assert r.status_code == 409


def text_of(fragment: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())


def test_a_shared_win_is_announced_as_shared(client):
    game = make_game()
    # Ann goes out in the first three rounds, Bob in the next three, Cy in the last: Ann and
    # Bob both end on 40 with 3 zero rounds and a best non-zero round of 10.
    for d in range(6, -1, -1):
        out = "Ann" if d >= 4 else "Bob" if d >= 1 else "Cy"
        totals = {name: 10 for name in ("Ann", "Bob") if name != out}
        if out != "Cy":
            totals["Cy"] = 20
        assert post_round(client, game, d, totals=totals, out=out).status_code == 303
    words = text(page(client, game))
    assert "Shared win: Ann, Bob" in words
    # nothing decided a shared win: the page says so plainly, never "Decided by: ..."
    assert "No tie-break separates them." in words
    assert "Decided by" not in words
    assert (
        "Ann and Bob are tied on 40 points and share the place (no tie-break separates them)."
        in words
    )


def test_a_target_total_game_ends_when_someone_reaches_it(client):
    game = make_game(game_length="target_total", target_total=30)
    post_round(client, game, 6, totals={"Bob": 20, "Cy": 1}, out="Ann")
    assert "Save round" in text(page(client, game))
    post_round(client, game, 5, totals={"Bob": 10, "Cy": 1}, out="Ann")
    db.session.expire_all()
    assert db.session.get(Game, game.id).status == "finished"
    assert "Game over" in text(page(client, game))


def test_rematch_starts_a_new_game_with_the_same_table(client):
    game = make_game(set_size=9, going_out_on_double="penalty_50", names=("Ann", "Bob", "Cy"))
    r = client.post(f"/g/{game.edit_token}/rematch", data={"version": str(game.version)})
    assert r.status_code == 303
    new_token = r.headers["Location"].rsplit("/", 1)[1]
    new = db.session.scalar(db.select(Game).where(Game.edit_token == new_token))
    assert new is not None and new.id != game.id
    assert new.night_id == game.night_id and new.set_size == 9
    assert new.rules == game.rules
    assert [(s.player_id, s.position) for s in new.seats] == [
        (s.player_id, s.position) for s in game.seats
    ]
    assert "Round 1 of 10" in text(client.get(r.headers["Location"]))
    from tests.web.table_helpers import kept_tokens

    assert kept_tokens(client)[0] == new_token


def test_rematch_needs_a_post(client):
    game = make_game()
    assert client.get(f"/g/{game.edit_token}/rematch").status_code == 405


@pytest.mark.parametrize("path", ["", "/audit", "/delete", "/board", "/round/1"])
def test_pages_of_a_game_answer_without_error(client, path):
    game = make_game()
    post_round(client, game, 6, totals={"Bob": 4, "Cy": 2}, out="Ann")
    assert client.get(f"/g/{game.edit_token}{path}").status_code == 200


def test_a_missing_link_never_burns_a_double_by_itself(client):
    game = make_game(missing_start_double="skip_to_next_lower")
    r = page(client, game, "?missing=6")
    assert "Centre double: 6-6" in text(r)
    assert f'action="/g/{game.edit_token}/burn"' in r.get_data(as_text=True)
    assert stored(game) == []


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        (
            {"first_round_starter": "draw_highest_tile"},
            "Who starts: everyone draws a tile; the highest pip total starts.",
        ),
        (
            {
                "start_double_source": "pulled_before_deal",
                "first_round_starter": "pre_deal_search",
                "later_round_starter": "pre_deal_search",
            },
            "Who starts: whoever found 6-6 in the pre-deal search",
        ),
    ],
)
def test_who_starts_follows_the_house_rule(client, rules, words):
    game = make_game(**rules)
    assert words in text(page(client, game))


def test_rotate_left_without_a_recorded_first_starter_says_how_it_works(client):
    game = make_game(later_round_starter="rotate_left")
    post_round(client, game, 6, totals={"Bob": 1, "Cy": 1}, out="Ann")
    assert "the player to the left of the last round's starter" in text(page(client, game))


def test_a_missing_link_for_the_last_double_under_a_skip_rule_keeps_the_round(client):
    game = make_game(missing_start_double="skip_to_next_lower")
    for d in range(6, 0, -1):
        post_round(client, game, d, totals={"Bob": 1, "Cy": 1}, out="Ann")
    r = page(client, game, "?missing=0")
    assert "Centre double: 0-0" in text(r)
    assert f'action="/g/{game.edit_token}/burn"' in r.get_data(as_text=True)


# --- the round form's htmx states, rematch, the game heading ----------------------------------


def form_tag(body: str) -> str:
    match = re.search(r"<form[^>]*class=\"round-form\"[^>]*>", body)
    assert match, "no round form"
    return match.group(0)


def test_every_page_loads_the_error_reporting_script(client):
    body = client.get("/").get_data(as_text=True)
    assert re.search(r'<script src="/static/js/app\.js\?v=[0-9a-f]{12}" defer>', body)
    assert client.get("/static/js/app.js").status_code == 200


def test_round_form_has_a_live_region_and_a_saving_state(client):
    game = make_game()
    body = page_html(client, game)
    tag = form_tag(body)
    assert "hx-disabled-elt=\"find .actions button[type='submit']\"" in tag
    assert 'hx-indicator="find .saving"' in tag
    assert re.search(r'class="save-status" aria-live="polite" data-failed="Not saved', body)
    assert "Saving…" in body


def test_round_form_never_restores_an_old_went_out_tick(client):
    game = make_game()
    body = page_html(client, game)
    assert 'autocomplete="off"' in form_tag(body)
    outs = re.findall(r'<input[^>]*name="out_\d+"[^>]*>', body)
    assert len(outs) == 3
    assert all('autocomplete="off"' in tag for tag in outs)
    assert 'autocomplete="off"' in re.search(r'<input[^>]*name="blocked"[^>]*>', body).group(0)


def test_saved_notice_is_scrolled_into_view(client):
    game = make_game()
    assert 'hx-swap="outerHTML show:#round-area:top"' in form_tag(page_html(client, game))


def games_in_night(night_id: int) -> list[Game]:
    db.session.expire_all()
    return list(db.session.scalars(db.select(Game).where(Game.night_id == night_id)))


def test_rematch_tapped_twice_makes_one_new_game(client):
    game = make_game()
    data = {"version": str(game.version)}
    first = client.post(f"/g/{game.edit_token}/rematch", data=data)
    second = client.post(f"/g/{game.edit_token}/rematch", data=data)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert len(games_in_night(game.night_id)) == 2
    assert "The rematch has already started" in text(client.get(second.headers["Location"]))


def test_rematch_after_the_rematch_was_deleted_makes_a_fresh_one(client):
    game = make_game()
    data = {"version": str(game.version)}
    first = client.post(f"/g/{game.edit_token}/rematch", data=data).headers["Location"]
    old = db.session.scalar(db.select(Game).where(Game.edit_token == first.rsplit("/", 1)[1]))
    old.deleted_at = utcnow()
    db.session.commit()
    again = client.post(f"/g/{game.edit_token}/rematch", data=data).headers["Location"]
    assert again != first
    assert len(games_in_night(game.night_id)) == 3


def test_rematch_of_the_rematch_is_a_new_game(client):
    game = make_game()
    first = client.post(f"/g/{game.edit_token}/rematch", data={"version": str(game.version)})
    token = first.headers["Location"].rsplit("/", 1)[1]
    new = db.session.scalar(db.select(Game).where(Game.edit_token == token))
    second = client.post(f"/g/{token}/rematch", data={"version": str(new.version)})
    assert second.headers["Location"] not in (first.headers["Location"], f"/g/{game.edit_token}")
    assert len(games_in_night(game.night_id)) == 3


def test_game_page_heading_names_the_game_and_links_to_its_night(client):
    first = make_game()
    first.night.place = "Ana's kitchen"
    second = Game(night_id=first.night_id, set_size=6, rules=dict(first.rules))
    for seat in first.seats:
        second.seats.append(Seat(player_id=seat.player_id, position=seat.position))
    db.session.add(second)
    db.session.commit()
    body = page_html(client, second)
    heading = re.search(r'<h1 class="game-title">(.*?)</h1>', body, re.S)
    assert heading, "no visible game heading"
    assert f'href="/nights/{first.night_id}"' in heading.group(1)
    words = " ".join(re.sub(r"<[^>]+>", " ", heading.group(1)).split())
    assert words == "Game 2 · Sunday, November 29 · Ana&#39;s kitchen"
    assert "Game 1 ·" in page_html(client, first)


def test_last_round_saved_with_htmx_shows_game_over_without_reload(client):
    game = make_game()
    points = [{"Ann": 0, "Bob": 5, "Cy": 7}] * 6
    add_scored_rounds(game, points)
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 0, totals={"Bob": 3, "Cy": 4}, out="Ann"),
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="round-area"')
    words = text(r)
    assert "Game over" in words and "Ann wins!" in words and "Rematch" in words
    assert 'class="round-form"' not in body
