"""The scoreboard: columns per round, running totals, ranks, tie-break words, the read-only
live page and its polling fragment."""

from __future__ import annotations

import re
from pathlib import Path

from flask_babel import refresh

from companion.extensions import db
from companion.models import Game
from companion.services.scoreboard import build_board, step_words
from tests.web.playkit import add_scored_rounds, make_game, round_post, seat_ids, text

#: the headers of an htmx request that swaps only the scoreboard (a boosted link inside it)
BOARD_SWAP = {"HX-Request": "true", "HX-Boosted": "true", "HX-Target": "scoreboard"}


def save(client, game, double, **kwargs):
    r = client.post(f"/g/{game.edit_token}/round", data=round_post(game, double, **kwargs))
    assert r.status_code == 303, text(r)


def fresh(game: Game) -> Game:
    db.session.expire_all()
    return db.session.get(Game, game.id)


def board_table(html: str) -> str:
    return html.split('<table class="board"')[1].split("</table>")[0]


def board_rows(html: str) -> list[str]:
    """Each player's row group as words: rank, name, total, then points and running total per
    round."""
    groups = board_table(html).split('<tbody class="player')[1:]
    return [" ".join(re.sub(r"<[^>]+>", " ", g.split(">", 1)[1]).split()) for g in groups]


def is_shared_board(body: str) -> bool:
    """Whether ``body`` is the read-only board fragment (not a whole page): the line under the
    page's heading and the game's result (or an empty place for it), swapped out of band, then
    the scoreboard."""
    return bool(
        re.match(
            r'\s*<p id="read-only"[^>]* hx-swap-oob="true">[^<]*</p>'
            r'\s*<(div|section) id="finish"[^>]* hx-swap-oob="true">',
            body,
        )
        and re.search(r'</(div|section)>\s*<section id="scoreboard"', body)
        and "<html" not in body
    )


def test_one_column_per_round_with_running_totals_in_standings_order(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    save(client, game, 5, totals={"Ann": 30, "Cy": 2}, out="Bob")
    html = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    head = board_table(html).split("</thead>")[0]
    assert re.findall(r'title="(\d+-\d+)"', head) == ["6-6", "5-5"]
    assert 'data-cols="2"' in html.split("<thead>")[0]  # the CSS sizes the numerals by it
    # rank, name, the total, then per round: points and the running total
    assert board_rows(html) == ["1 Cy 7 5 5 2 7", "2 Bob 12 12 12 0 12", "3 Ann 30 0 0 30 30"]


def test_burned_doubles_have_a_marked_column(client):
    game = make_game(missing_start_double="skip_to_next_lower")
    client.post(f"/g/{game.edit_token}/burn", data={"version": str(game.version), "double": "6"})
    save(client, game, 5, totals={"Bob": 3, "Cy": 1}, out="Ann")
    html = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert 'class="rd burned" title="6-6 burned: nobody held it"' in html
    assert board_rows(html)[0] == "1 Ann 0 – 0 0"


def test_ties_are_explained_in_plain_words(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 10, "Cy": 10}, out="Ann")
    save(client, game, 5, totals={"Ann": 10, "Cy": 10}, out="Bob")
    words = text(client.get(f"/g/{game.edit_token}"))
    assert (
        "Ann and Bob are tied on 10 points and share the place (no tie-break separates them)."
        in words
    )
    save(client, game, 4, totals={"Ann": 4, "Bob": 2}, out="Cy")
    save(client, game, 3, totals={"Ann": 2, "Cy": 4}, out="Bob")
    # Ann 16 with 1 zero round; Bob 12, 2 zeros; Cy 24
    save(client, game, 2, totals={"Bob": 4, "Cy": 1}, out="Ann")
    # Ann 16 (2 zeros), Bob 16 (2 zeros); best non-zero: Ann 2, Bob 2 -> shared
    words = text(client.get(f"/g/{game.edit_token}"))
    assert "share the place" in words
    save(client, game, 1, totals={"Bob": 3, "Cy": 1}, out="Ann")
    # Ann 16 (3 zeros) ahead of Bob 19
    save(client, game, 0, totals={"Ann": 3, "Cy": 1}, out="Bob")
    # Ann 19, 3 zeros; Bob 19, 3 zeros; best non-zero Ann 2 vs Bob 2 -> still shared
    board = build_board(fresh(game))
    assert [r.total for r in board.rows[:2]] == [19, 19]
    assert board.decided_by == "unresolved_shared"


def test_a_tie_broken_by_the_lowest_single_non_zero_round(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 5, "Cy": 20}, out="Ann")
    save(client, game, 5, totals={"Ann": 4, "Cy": 20}, out="Bob")
    save(client, game, 4, totals={"Ann": 6, "Bob": 5}, out="Cy")
    # Ann 10 (1 zero round, best 4), Bob 10 (1 zero round, best 5), Cy 40
    words = text(client.get(f"/g/{game.edit_token}"))
    assert "Ann is ahead of Bob, both on 10 points, by lowest single non-zero round." in words
    rows = build_board(fresh(game)).rows
    assert [(r.name, r.rank, r.decided_by) for r in rows] == [
        ("Ann", 1, ""),
        ("Bob", 2, "lowest_single_nonzero_round"),
        ("Cy", 3, "lowest_total"),
    ]


def test_step_words_cover_every_engine_step():
    from companion.engine import DECIDED_LABELS

    for step, label in DECIDED_LABELS.items():
        assert step_words(step) == label
    assert step_words("something_new") == "something_new"


def test_long_names_are_shown_whole_on_a_line_of_their_own(client):
    game = make_game(names=("Alexandrina Constantinopolous", "Bo"))
    save(client, game, 6, totals={"Bo": 4}, out="Alexandrina Constantinopolous")
    html = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    # the name line spans the round columns; the round scores follow on the next line
    assert re.search(
        r'<th scope="rowgroup" class="who" colspan="1"><span class="rank">1</span> '
        r'<a href="[^"]*" class="name"[^>]*>Alexandrina Constantinopolous</a><td class="tot"',
        html,
    )
    assert board_rows(html) == ["1 Alexandrina Constantinopolous 0 0 0", "2 Bo 4 4 4"]


def test_hostile_names_are_escaped_everywhere(client):
    game = make_game(names=('<img src=x onerror="alert(1)">', "Bob"))
    save(client, game, 6, totals={"Bob": 3}, out='<img src=x onerror="alert(1)">')
    for url in (f"/g/{game.edit_token}", f"/s/{game.share_token}", f"/g/{game.edit_token}/audit"):
        body = client.get(url).get_data(as_text=True)
        assert "<img src=x" not in body
        assert "&lt;img src=x" in body


def test_eight_players_on_double_9_fit_a_fixed_narrow_table(client):
    """At most six round columns at full size (>= 14 px at 360 px); earlier rounds and a
    player's every round are a tap away (links that keep the other choice)."""
    names = tuple(f"Player{i}" for i in range(8))
    game = make_game(names=names, set_size=9)
    for d in range(9, -1, -1):
        out = names[d % 8]
        save(client, game, d, totals={n: 99 for n in names if n != out}, out=out)
    html = client.get(f"/s/{game.share_token}").get_data(as_text=True)
    rows = board_rows(html)
    assert len(rows) == 8
    # every row: rank, name, the total, the latest 6 rounds x (points, running total)
    assert all(len(r.split()) == 2 + 1 + 12 for r in rows)
    assert 'data-cols="6"' in html and '"5-5">5-5' in html and '"6-6">6-6' not in html
    assert "Rounds 5–10 of 10" in html
    # relative links (this page, another part of the board), boosted by htmx
    assert 'href="?upto=4#scoreboard"' in html and 'hx-boost="true"' in html
    fragment = client.get(f"/s/{game.share_token}?upto=4", headers=BOARD_SWAP)
    assert is_shared_board(fragment.get_data(as_text=True))
    earlier = client.get(f"/s/{game.share_token}?upto=4").get_data(as_text=True)
    assert '"9-9">9-9' in earlier and '"3-3">3-3' not in earlier and "Rounds 1–6 of 10" in earlier
    # the style sheet as written (it is served minified, without the comments that mark
    # the section)
    css = (Path(__file__).resolve().parents[3] / "static" / "css" / "app.css").read_text("utf-8")
    ours = css.split("=== Playing a game")[1].split("=== end of playing a game")[0]
    assert "table-layout: fixed" in ours
    assert "overflow-x" not in ours  # the board never scrolls sideways
    assert "clamp(" not in ours  # figures never shrink with the number of rounds


def test_a_players_every_round_is_shown_on_demand(client):
    names = ("Ann", "Bob", "Cy")
    game = make_game(names=names, set_size=9)
    for d in range(9, 1, -1):
        save(client, game, d, totals={"Bob": d, "Cy": 1}, out="Ann")
    bob = seat_ids(game)["Bob"]
    html = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert "player-rounds" not in html
    link = re.search(rf'<a href="\?who={bob}#scoreboard"[^>]*>Bob</a>', html)
    assert link and "aria-current" not in link.group(0)
    # htmx (a boosted link aimed at #scoreboard) gets only the fragment from the game page
    shown = client.get(f"/g/{game.edit_token}?who={bob}", headers=BOARD_SWAP).get_data(as_text=True)
    assert shown.lstrip().startswith('<section id="scoreboard"') and "<html" not in shown
    listed = re.search(r'<ol class="player-rounds"[^>]*>(.*?)</ol>', shown, re.S).group(1)
    items = [
        " ".join(re.sub(r"<[^>]+>", " ", li).split())
        for li in re.findall(r"<li[^>]*>(.*?)</li>", listed, re.S)
    ]
    assert items[:2] == ["9-9 9 (9)", "8-8 8 (17)"] and len(items) == 8
    # its link now closes it again; junk seats show nobody's
    assert re.search(r'<a href="\?#scoreboard" class="name" aria-current="true"', shown)
    assert "player-rounds" not in client.get(f"/g/{game.edit_token}?who=999").get_data(as_text=True)


# --- the read-only live page ------------------------------------------------------------------


def test_the_shared_page_is_read_only_and_polls(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    r = client.get(f"/s/{game.share_token}")
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    game = fresh(game)
    assert f'hx-get="/s/{game.share_token}/board?v={game.version}"' in body
    assert 'hx-trigger="every 2s"' in body and 'hx-swap="outerHTML"' in body
    assert '<noscript><meta http-equiv="refresh" content="15"></noscript>' in body
    assert "Refresh the scoreboard" in body
    assert "<form" not in body.split("<main")[1]  # nothing to change here
    assert game.edit_token not in body
    assert "12" in text(r)


def test_the_poll_answers_204_until_something_changes(client):
    game = make_game()
    v = fresh(game).version
    r = client.get(f"/s/{game.share_token}/board?v={v}", headers={"HX-Request": "true"})
    assert r.status_code == 204 and r.get_data() == b""
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    r = client.get(f"/s/{game.share_token}/board?v={v}", headers={"HX-Request": "true"})
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert is_shared_board(body) and '<div id="finish" hx-swap-oob="true"></div>' in body
    new_v = fresh(game).version
    assert f"board?v={new_v}" in body and new_v != v
    assert client.get(f"/s/{game.share_token}/board?v={new_v}").status_code == 204
    assert client.get(f"/s/{game.share_token}/board?v=junk").status_code == 200
    assert client.get("/s/nope/board?v=1").status_code == 404


def test_the_shared_page_cannot_post(client):
    game = make_game()
    assert client.post(f"/s/{game.share_token}").status_code == 405
    assert client.post(f"/s/{game.share_token}/board").status_code == 405


def test_the_scorekeepers_board_fragment(client):
    game = make_game()
    r = client.get(f"/g/{game.edit_token}/board")
    assert r.status_code == 200
    assert r.get_data(as_text=True).lstrip().startswith('<section id="scoreboard"')


def test_a_finished_game_shows_the_winner_on_the_shared_page(client):
    game = make_game(names=("Ann", "Bob"))
    for d in range(6, -1, -1):
        save(client, game, d, totals={"Bob": 5}, out="Ann")
    assert "Ann wins!" in text(client.get(f"/s/{game.share_token}"))


#: Ann and Bob end on 50 points, Ann ahead by her two zero rounds to Bob's one; Cy on 60
BY_ZERO_ROUNDS = (
    [
        {"Ann": 0, "Bob": 5, "Cy": 20},
        {"Ann": 10, "Bob": 0, "Cy": 20},
        {"Ann": 0, "Bob": 15, "Cy": 20},
    ]
    + [{"Ann": 10, "Bob": 10, "Cy": 0}] * 2
    + [{"Ann": 10, "Bob": 5, "Cy": 0}] * 2
)


def summary_rows(html: str) -> list[str]:
    """Each player's row of the final standings (place and name, total, zero rounds, best
    non-zero round), as words."""
    table = html.split('<table class="summary">')[1].split("</table>")[0]
    return [" ".join(re.sub(r"<[^>]+>", " ", g).split()) for g in table.split("<tbody>")[1:]]


def test_the_shared_page_of_a_finished_game_shows_the_final_standings(client):
    """The read-only page shows a finished game's result as the scorekeeper's phone does: the
    winner, the tie-break step that decided, every player's figures; in the phone's language."""
    game = make_game()
    add_scored_rounds(game, BY_ZERO_ROUNDS)
    english = client.get(f"/s/{game.share_token}")
    words = text(english)
    assert "Game over" in words
    assert "Ann wins! Decided by: most zero rounds." in words
    assert words.count("wins!") == 1  # said once, not again above the standings
    assert "Total Zero rounds Best non-zero round" in words
    assert summary_rows(english.text) == ["1. Ann 50 2 10", "2. Bob 50 1 5", "3. Cy 60 4 20"]
    refresh()  # (the test's app context keeps the first request's language)
    german = client.get(f"/s/{game.share_token}", headers={"Accept-Language": "de"})
    assert "Ann gewinnt! Entschieden durch: meiste Nullrunden." in text(german)
    assert "Summe Nullrunden Beste Runde über null" in text(german)
    assert summary_rows(german.text) == summary_rows(english.text)


def test_the_read_only_poll_brings_the_final_standings_and_an_undo_takes_them_away(client):
    """The read-only page's poll (``/s/<share>/board?v=``) answers the game's result with the
    board once the last round is saved, out of band, in the phone's language: a page left
    open shows who won without a reload. Undone, the result gives way to an empty place."""
    game = make_game()
    add_scored_rounds(game, BY_ZERO_ROUNDS[:-1])
    v = fresh(game).version
    german = {"HX-Request": "true", "Accept-Language": "de"}
    before = client.get(f"/s/{game.share_token}/board?v=0", headers=german).get_data(as_text=True)
    assert '<div id="finish" hx-swap-oob="true"></div>' in before and "summary" not in before
    save(client, game, 0, totals={"Ann": 10, "Bob": 5}, out="Cy")
    refresh()
    r = client.get(f"/s/{game.share_token}/board?v={v}", headers=german)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert is_shared_board(body)
    card = body.split('<section id="scoreboard"')[0]
    assert 'class="card finish"' in card and "Partie vorbei" in card
    assert "Ann gewinnt!" in card and "Entschieden durch: meiste Nullrunden." in card
    assert summary_rows(card) == ["1. Ann 50 2 10", "2. Bob 50 1 5", "3. Cy 60 4 20"]
    # the scorekeeper undoes that round: the next answer takes the result away
    v = fresh(game).version
    client.post(f"/g/{game.edit_token}/undo", data={"version": str(v)})
    refresh()
    body = client.get(f"/s/{game.share_token}/board?v={v}", headers=german).get_data(as_text=True)
    assert '<div id="finish" hx-swap-oob="true"></div>' in body and "Partie vorbei" not in body


def count_queries(client, url: str) -> int:
    """SQL statements one GET of ``url`` runs, with an empty session (as a fresh request)."""
    from sqlalchemy import event

    statements: list[str] = []

    def record(conn, cursor, statement, *args):
        statements.append(statement)

    db.session.remove()
    event.listen(db.engine, "before_cursor_execute", record)
    try:
        assert client.get(url).status_code == 200
    finally:
        event.remove(db.engine, "before_cursor_execute", record)
    return len(statements)


def test_pages_run_the_same_number_of_queries_whatever_the_rounds_and_players(client):
    small = make_game(names=("Ann", "Bob"))
    save(client, small, 6, totals={"Bob": 3}, out="Ann")
    names = tuple(f"P{i}" for i in range(12))
    big = make_game(names=names, set_size=18)
    for d in range(18, 6, -1):
        save(client, big, d, totals=dict.fromkeys(names[1:], 20), out=names[0])
    tokens = [(g.edit_token, g.share_token) for g in (small, big)]
    for path in ("/g/{0}", "/s/{1}", "/s/{1}/board?v=x", "/g/{0}/audit"):
        few, many = (count_queries(client, path.format(*t)) for t in tokens)
        assert few == many, path


def test_polling_stops_with_a_message_when_the_game_is_deleted(client):
    game = make_game()
    client.post(f"/g/{game.edit_token}/delete", data={"version": str(fresh(game).version)})
    r = client.get(f"/s/{game.share_token}/board?v=1", headers={"HX-Request": "true"})
    assert r.status_code == 286  # htmx: stop polling
    assert "This game was deleted by its scorekeeper." in text(r)
    assert client.get(f"/s/{game.share_token}").status_code == 404


def read_only_line(html: str) -> str:
    """The words of the line under the read-only page's heading (``#read-only``)."""
    return " ".join(
        re.sub(
            r"<[^>]+>", " ", html.split('id="read-only"')[1].split(">", 1)[1].split("</p>")[0]
        ).split()
    )


def test_the_read_only_line_says_when_the_game_is_over(client):
    """While the game is on the read-only page says it follows the scorekeeper's phone; once it
    is over it says so instead, on a full load and in the poll's answer (swapped out of band
    with the Game over card), in the phone's language; an undo brings the first line back."""
    game = make_game()
    add_scored_rounds(game, BY_ZERO_ROUNDS[:-1])
    playing = client.get(f"/s/{game.share_token}").get_data(as_text=True)
    assert read_only_line(playing) == (
        "Read only: it follows the scorekeeper's phone and refreshes by itself."
    )
    assert playing.count("Read only:") == 1
    v = fresh(game).version
    save(client, game, 0, totals={"Ann": 10, "Bob": 5}, out="Cy")
    over = client.get(f"/s/{game.share_token}").get_data(as_text=True)
    assert read_only_line(over) == "Read only: this game is over."
    assert "refreshes by itself" not in over
    refresh()
    german = {"HX-Request": "true", "Accept-Language": "de"}
    body = client.get(f"/s/{game.share_token}/board?v={v}", headers=german).get_data(as_text=True)
    assert is_shared_board(body)
    assert '<p id="read-only" class="muted" hx-swap-oob="true">' in body
    assert read_only_line(body) == "Nur lesen: diese Partie ist vorbei."
    v = fresh(game).version
    client.post(f"/g/{game.edit_token}/undo", data={"version": str(v)})
    refresh()
    body = client.get(f"/s/{game.share_token}/board?v={v}", headers=german).get_data(as_text=True)
    assert read_only_line(body) == (
        "Nur lesen: folgt dem Handy des Schreibers und aktualisiert sich selbst."
    )


def notices(html: str) -> str:
    """The words swapped into the page's notices (``#flashes``, its live region) by ``html``,
    a poll's answer; "" when it leaves them alone."""
    found = re.search(r'<div id="flashes" hx-swap-oob="innerHTML">(.*?</div>)?</div>', html, re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1) or "").split()) if found else ""


def test_the_read_only_page_says_game_over_once_in_its_live_region(client):
    """The read-only page's notices (``#flashes``: role="status", always there, outside what the
    poll swaps) are its live region: the poll that brings the Game over card also puts "Game
    over" and who won there (hidden from sight), so a screen reader says it politely; later
    answers (a poll of the finished game, a board link) leave it alone, so it is not said again
    at every swap; an undo empties it."""
    game = make_game()
    add_scored_rounds(game, BY_ZERO_ROUNDS[:-1])
    page = client.get(f"/s/{game.share_token}").get_data(as_text=True)
    assert re.search(r'<div id="flashes" class="flashes" role="status">\s*</div>', page)
    v = fresh(game).version
    save(client, game, 0, totals={"Ann": 10, "Bob": 5}, out="Cy")
    refresh()
    htmx = {"HX-Request": "true"}
    body = client.get(f"/s/{game.share_token}/board?v={v}", headers=htmx).get_data(as_text=True)
    assert notices(body) == "Game over Ann wins!"
    assert '<div id="flashes" hx-swap-oob="innerHTML"><div class="visually-hidden">' in body
    assert body.count('id="flashes"') == 1
    # the page it made polls as one showing the game over: nothing more is said
    over = fresh(game).version
    assert f"board?v={over}&amp;over=1" in body
    for answer in (
        client.get(f"/s/{game.share_token}/board?v=0&over=1", headers=htmx),
        client.get(f"/s/{game.share_token}?who={seat_ids(game)['Ann']}", headers=BOARD_SWAP),
    ):
        assert answer.status_code == 200 and "flashes" not in answer.get_data(as_text=True)
    # in the phone's language
    refresh()
    german = {**htmx, "Accept-Language": "de"}
    body = client.get(f"/s/{game.share_token}/board?v={v}", headers=german).get_data(as_text=True)
    assert notices(body) == "Partie vorbei Ann gewinnt!"
    # an undo empties the notices (the next Game over is said again)
    client.post(f"/g/{game.edit_token}/undo", data={"version": str(over)})
    refresh()
    body = client.get(f"/s/{game.share_token}/board?v={over}&over=1", headers=htmx).text
    assert '<div id="flashes" hx-swap-oob="innerHTML"></div>' in body
    assert "flashes" not in client.get(f"/s/{game.share_token}/board?v={over}", headers=htmx).text
