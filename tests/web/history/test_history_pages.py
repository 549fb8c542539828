"""The history pages through the Flask test client: every route and form, validation
messages, 404s, no 500 on junk, pagination, search, merge/rename edge cases, delete + undo.

The data is the hand-checked history of tests/history/fixture.py (its docstring has the score
tables and the expected records).
"""

from __future__ import annotations

import html
import re
from contextlib import contextmanager
from datetime import date, timedelta

import pytest
from sqlalchemy import event, select

from companion.extensions import db
from companion.models import AuditEntry, Game, GameNight, Player, Seat, utcnow
from tests.history.fixture import OUT, _game, build


@pytest.fixture()
def h(app):
    """The fixture history, Annie merged into Ann."""
    return build(merged=True)


@pytest.fixture()
def raw(app):
    """The fixture history before any merge."""
    return build(merged=False)


def text(response) -> str:
    """The page's main content as plain text (tags dropped, spaces collapsed)."""
    body = response.get_data(as_text=True)
    main = body[body.find("<main") :]
    main = re.sub(r"<(svg|script)\b.*?</\1>", " ", main, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", main)).split())


@contextmanager
def counting_queries():
    """Counts the SQL statements run inside the block: ``with counting_queries() as n: ...``."""
    seen: list[str] = []

    def _count(conn, cursor, statement, *args):  # noqa: ANN001
        seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", _count)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", _count)


def more_nights(count: int, start: date = date(2025, 1, 1)) -> None:
    """``count`` extra nights (older than the fixture's), each with one finished 2-player game."""
    people = {p.name: p for p in db.session.scalars(select(Player))}
    for i in range(count):
        night = GameNight(played_on=start + timedelta(days=i), place=f"Extra {i}")
        db.session.add(night)
        _game(night, people, 6, {"Bob": [OUT, 3], "Cy": [4, OUT]})
    db.session.commit()


# --- the nights list -----------------------------------------------------------------------


def test_nights_list_newest_first_with_players_games_and_winners(client, h):
    page = text(client.get("/history/"))
    assert "3 game nights" in page
    assert page.index("Mar 7, 2026") < page.index("Feb 14, 2026") < page.index("Jan 10, 2026")
    assert "Gone" not in page  # the deleted night
    assert "Winner: Cy" in page
    assert "Shared win: Ann, Bob" in page
    assert "Winner: Bob (by next-lowest non-zero round)" in page
    assert "in play" in page
    # N3: one live game (G6, won by Annie, now Ann); the deleted G7 is not listed.
    n3 = page[page.index("Mar 7, 2026") : page.index("Feb 14, 2026")]
    assert "Game 1" in n3 and "Game 2" not in n3 and "Winner: Ann" in n3
    assert "Annie" not in page


def test_nights_list_links_games_to_history_pages(client, h):
    body = client.get("/history/").get_data(as_text=True)
    assert f'href="/history/games/{h.games["G1"]}"' in body
    assert f'href="/history/nights/{h.nights["N1"]}"' in body


@pytest.mark.parametrize(
    ("query", "dates"),
    [
        ("q=club", ["Feb 14, 2026"]),
        ("q=VALENTINE", ["Feb 14, 2026"]),
        ("q=eve", ["Feb 14, 2026"]),
        ("q=kitchen", ["Mar 7, 2026", "Jan 10, 2026"]),
        ("q=dee", ["Mar 7, 2026", "Jan 10, 2026"]),
        ("q=nobody", []),
        ("q=100%25_", []),  # LIKE wildcards are searched for literally
        ("date_from=2026-02-01&date_to=2026-03-31", ["Mar 7, 2026", "Feb 14, 2026"]),
        ("date_to=2026-01-31", ["Jan 10, 2026"]),
        ("q=kitchen&date_from=2026-02-01", ["Mar 7, 2026"]),
    ],
)
def test_nights_search_and_date_range(client, h, query, dates):
    page = text(client.get(f"/history/?{query}"))
    found = [d for d in ("Mar 7, 2026", "Feb 14, 2026", "Jan 10, 2026") if d in page]
    assert found == dates
    if not dates:
        assert "No game night matches." in page


def test_nights_filter_by_player(client, h):
    page = text(client.get(f"/history/?player={h.players['Eve']}"))
    assert "Feb 14, 2026" in page and "Jan 10, 2026" not in page and "Mar 7, 2026" not in page
    # Ann (with Annie's game merged in) played every night.
    assert "3 game nights" in text(client.get(f"/history/?player={h.players['Ann']}"))


@pytest.mark.parametrize(
    "query",
    [
        "page=-1",
        "page=0",
        "page=abc",
        "page=99999999999999999999",
        "page=999",
        "date_from=abc",
        "date_to=2026-13-45",
        "player=abc",
        "player=-5",
        "q=" + "x" * 500,
        "q=%00%ff",
        "date_from=2026-01-01&date_from=zzz",
    ],
)
def test_nights_list_never_fails_on_junk(client, h, query):
    response = client.get(f"/history/?{query}")
    assert response.status_code == 200


def test_nights_list_explains_bad_dates(client, h):
    page = text(client.get("/history/?date_from=abc"))
    assert "Not a valid date value" in page
    assert "3 game nights" in page  # the bad end is ignored, not the whole list
    page = text(client.get("/history/?date_from=2026-03-01&date_to=2026-02-01"))
    assert "The end date comes before the start date." in page


def test_nights_list_pages(client, h):
    more_nights(25)  # 28 nights: 10 + 10 + 8
    first = client.get("/history/").get_data(as_text=True)
    assert "Page 1 of 3" in text(client.get("/history/"))
    assert 'href="/history/?page=2"' in first
    second = text(client.get("/history/?page=2"))
    third = text(client.get("/history/?page=3"))
    assert "Page 2 of 3" in second and "Page 3 of 3" in third
    assert third.count("Extra ") == 8
    assert "Extra 0" in third  # the oldest night is last
    assert "This page is empty." in text(client.get("/history/?page=4"))
    # far past the last page it is empty too, never page 1 again
    assert "This page is empty." in text(client.get("/history/?page=999999"))
    filtered = client.get("/history/?q=extra&page=1").get_data(as_text=True)
    assert 'href="/history/?page=2&amp;q=extra"' in filtered  # filters survive paging
    odd = client.get("/history/?_scheme=javascript&_external=0&_anchor=x&zzz=1")
    assert odd.status_code == 200 and "_scheme" not in odd.get_data(as_text=True)


def test_nights_list_query_count_does_not_grow(client, h):
    client.get("/history/")  # warm the results memo like a running server
    with counting_queries() as few:
        client.get("/history/")
    more_nights(30)
    client.get("/history/")
    with counting_queries() as many:
        client.get("/history/")
    assert len(many) == len(few)
    assert len(many) <= 12


def test_nights_list_cold_query_count_is_constant(client, h):
    more_nights(30)
    with counting_queries() as cold:
        client.get("/history/")
    assert len(cold) <= 14


# --- a night ---------------------------------------------------------------------------------


def test_night_page_standings_rulings_notes(client, h):
    page = text(client.get(f"/history/nights/{h.nights['N1']}"))
    assert "Game night of January 10, 2026" in page
    assert "Winner: Cy" in page and "Shared win: Ann, Bob" in page
    assert "tie broken by lowest single non-zero round" in page  # Bob below Ann on 20
    assert "tied: shares the place" in page  # Bob level with Ann in G2
    assert "9-3 may be laid on a spoke of the 9-9." in page
    assert "first night" in page


def test_night_page_hides_deleted_games(client, h):
    page = text(client.get(f"/history/nights/{h.nights['N3']}"))
    assert "Game 2" not in page and "100" not in page


@pytest.mark.parametrize("night", ["N4", "missing"])
def test_night_404(client, h, night):
    night_id = h.nights.get(night, 99999)
    assert client.get(f"/history/nights/{night_id}").status_code == 404
    assert client.post(f"/history/nights/{night_id}/notes", data={"notes": "x"}).status_code == 404
    assert client.get(f"/history/nights/{night_id}/delete").status_code == 404


def test_edit_notes(client, h):
    url = f"/history/nights/{h.nights['N2']}"
    response = client.post(url + "/notes", data={"notes": "  Bob brought cake  "})
    assert response.status_code == 303
    page = text(client.get(url))
    assert "Notes saved." in page
    assert db.session.get(GameNight, h.nights["N2"]).notes == "Bob brought cake"


def test_notes_too_long_are_refused_and_nothing_changes(client, h):
    url = f"/history/nights/{h.nights['N2']}"
    response = client.post(url + "/notes", data={"notes": "y" * 2001})
    assert response.status_code == 400
    assert "y" * 2001 in response.get_data(as_text=True)  # shown again as typed
    page = text(response)
    assert "The notes were not saved." in page
    assert "Notes have at most 2000 characters." in page
    assert db.session.get(GameNight, h.nights["N2"]).notes == "Valentine"


# --- delete and undo ---------------------------------------------------------------------


def test_delete_night_asks_first(client, h):
    url = f"/history/nights/{h.nights['N1']}/delete"
    page = text(client.get(url))
    assert "Delete this game night?" in page and "2 games" in page
    assert db.session.get(GameNight, h.nights["N1"]).deleted_at is None


def test_delete_and_undo_a_night(client, h):
    n1 = h.nights["N1"]
    response = client.post(f"/history/nights/{n1}/delete")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/history/nights/{n1}/deleted")
    assert "Undo delete" in text(client.get(f"/history/nights/{n1}/deleted"))
    listing = text(client.get("/history/"))
    assert "2 game nights" in listing and "Recently deleted" in listing
    assert client.get(f"/history/nights/{n1}").status_code == 404
    assert client.get(f"/history/games/{h.games['G1']}").status_code == 404
    # Its games leave the statistics: Cy's G1 win is gone, from the leaderboard too.
    assert "Wins 0" in text(client.get(f"/history/players/{h.players['Cy']}"))
    assert "Cy 2 0 0 0%" in text(client.get("/history/leaderboard"))
    response = client.post(f"/history/nights/{n1}/restore")
    assert response.status_code == 303
    assert "The game night is back." in text(client.get(f"/history/nights/{n1}"))
    assert "Wins 1" in text(client.get(f"/history/players/{h.players['Cy']}"))
    assert "Cy 3 1 0 33%" in text(client.get("/history/leaderboard"))
    # A second "Undo delete" (double tap, second tab) goes to the night instead of a 404.
    again = client.post(f"/history/nights/{n1}/restore")
    assert again.status_code == 303 and again.headers["Location"].endswith(f"/nights/{n1}")
    assert "Already restored" in text(client.get(f"/history/nights/{n1}"))
    stale_tab = client.get(f"/history/nights/{n1}/deleted")
    assert stale_tab.status_code == 303 and stale_tab.headers["Location"].endswith(f"/nights/{n1}")


def test_restore_window_closes(client, h):
    night = db.session.get(GameNight, h.nights["N4"])  # deleted in April: long ago
    assert night.deleted_at < utcnow() - timedelta(days=1)
    assert client.post(f"/history/nights/{night.id}/restore").status_code == 404
    assert client.get(f"/history/nights/{night.id}/deleted").status_code == 404
    assert "Recently deleted" not in text(client.get("/history/"))


def test_delete_night_with_csrf_on_needs_the_token(csrf_client):
    client = csrf_client
    hist = build()
    url = f"/history/nights/{hist.nights['N1']}/delete"
    assert client.post(url).status_code == 400  # no token: refused, nothing deleted
    assert db.session.get(GameNight, hist.nights["N1"]).deleted_at is None
    page = client.get(url).get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    assert client.post(url, data={"csrf_token": token.group(1)}).status_code == 303
    db.session.expire_all()
    assert db.session.get(GameNight, hist.nights["N1"]).deleted_at is not None
    notes = client.post(f"/history/nights/{hist.nights['N2']}/notes", data={"notes": "x"})
    assert notes.status_code == 400
    db.session.expire_all()
    assert db.session.get(GameNight, hist.nights["N2"]).notes == "Valentine"


# --- a game ----------------------------------------------------------------------------------


def test_game_page(client, h):
    body = client.get(f"/history/games/{h.games['G6']}").get_data(as_text=True)
    page = text(client.get(f"/history/games/{h.games['G6']}"))
    for double in ("9-9", "8-8", "7-7", "6-6"):
        assert double in body
    assert "Winner: Ann" in page
    assert "The standard rules, unchanged." in page
    # The chart: one line per player, starting at 0, an accessible name and description.
    assert body.count("<polyline") == 3
    assert 'role="img"' in body and 'aria-labelledby="chart-title chart-desc"' in body
    assert "Final totals: Ann 8; Cy 13; Dee 13." in body
    assert "style=" not in body  # the CSP forbids inline styles
    game = db.session.get(Game, h.games["G6"])
    assert f'href="/s/{game.share_token}"' in body
    assert game.edit_token not in body  # never the edit link


def test_game_page_house_rules_audit_rulings(client, h):
    g3 = text(client.get(f"/history/games/{h.games['G3']}"))
    assert "Different from the standard rules:" in g3
    assert "Ends the round but scores 50, and is not a zero round." in g3
    assert "Wikipedia" in g3
    changed = g3[g3.index("Different from the standard rules:") : g3.index("Every house rule")]
    assert "Which domino set" not in changed  # the set is not a house rule
    g1 = text(client.get(f"/history/games/{h.games['G1']}"))
    assert "Round 1 (9-9) saved." in g1 and "Game started." in g1
    assert "9-3 may be laid on a spoke of the 9-9." in g1
    g4 = text(client.get(f"/history/games/{h.games['G4']}"))
    assert "compare the 2nd-lowest non-zero round" in g4
    assert "by next-lowest non-zero round" in g4


def test_game_in_play_and_without_rounds(client, h):
    page = text(client.get(f"/history/games/{h.games['G5']}"))
    assert "in play" in page and "Winner" not in page
    night = db.session.get(GameNight, h.nights["N2"])
    people = {p.name: p for p in db.session.scalars(select(Player))}
    empty = _game(night, people, 9, {"Ann": [], "Bob": []}, finished=False)
    db.session.commit()
    page = text(client.get(f"/history/games/{empty.id}"))
    assert "No round has been scored yet." in page


@pytest.mark.parametrize("game", ["G7", "G8", "missing"])
def test_game_404(client, h, game):
    assert client.get(f"/history/games/{h.games.get(game, 99999)}").status_code == 404


def test_non_numeric_ids_are_404(client, h):
    for url in ("/history/games/abc", "/history/nights/-1", "/history/players/1.5"):
        assert client.get(url).status_code == 404


# --- players ---------------------------------------------------------------------------------


def test_players_list(client, h):
    page = text(client.get("/history/players"))
    for name, games in [("Ann", 4), ("Bob", 3), ("Cy", 3), ("Dee", 2), ("Eve", 2)]:
        assert f"{name} {games} finished game" in page
    assert "Annie" not in page
    assert "Zed" not in page  # never played: not in the history


def test_player_page(client, h):
    page = text(client.get(f"/history/players/{h.players['Ann']}"))
    # each opponent's rating-predicted chance stands beside the name (its figures are
    # tested in tests/history/test_looking_back.py); the record's figures follow it
    page = re.sub(r"Chance ahead \d+\s?% ", "", page)
    for expected in [
        "Games 4",
        "Wins 1",
        "Shared wins 1",
        "Win rate 25%",
        "Points per round 7.8",
        "Zero rounds 3",
        "Best game 8 points",
        "Worst game 56 points",
        "Cy 3 1 2 0",
        "Bob 2 1 0 1",
        "Dee 2 2 0 0",
        "Eve 1 0 1 0",
    ]:
        assert expected in page
    assert page.index("Cy 3 1 2 0") < page.index("Bob 2 1 0 1")


def test_player_without_games(client, h):
    response = client.get(f"/history/players/{h.players['Zed']}")
    assert response.status_code == 404
    assert "Zed has no game in the history: every game they played was deleted." in text(response)


def test_player_of_a_game_in_play_only(client, h):
    zed_in_play(h)
    assert "Zed 0 finished games" in text(client.get("/history/players"))
    assert "No finished games yet." in text(client.get(f"/history/players/{h.players['Zed']}"))


def test_merged_player_redirects_to_the_kept_one(client, h):
    response = client.get(f"/history/players/{h.players['Annie']}")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/history/players/{h.players['Ann']}")


def test_player_404(client, h):
    assert client.get("/history/players/99999").status_code == 404
    assert client.post("/history/players/99999/rename", data={"name": "X"}).status_code == 404
    assert client.get("/history/players/99999/merge").status_code == 404


def test_player_page_query_count_does_not_grow(client, h):
    url = f"/history/players/{h.players['Bob']}"
    client.get(url)
    with counting_queries() as few:
        client.get(url)
    more_nights(30)
    client.get(url)
    with counting_queries() as many:
        client.get(url)
    # 8 for the record and head-to-head, 5 for the skill rating (rating, place, chart points,
    # this year's movement, the opponents' ratings)
    assert len(many) == len(few) <= 13


# --- rename ----------------------------------------------------------------------------------


def rename(client, player_id, name):
    """Post a rename; returns the page shown afterwards (the player page either way)."""
    response = client.post(f"/history/players/{player_id}/rename", data={"name": name})
    if response.status_code == 303:
        return text(client.get(response.headers["Location"]))
    assert response.status_code == 400
    assert "The name was not changed: " in text(response)
    return text(response)


def test_a_refused_rename_says_why_in_the_message_at_the_top(client, h):
    response = client.post(f"/history/players/{h.players['Eve']}/rename", data={"name": ""})
    flashes = re.findall(r'<p class="flash error">(.*?)</p>', response.get_data(as_text=True))
    assert flashes == ["The name was not changed: Type the new name."]


def test_rename(client, h):
    page = rename(client, h.players["Eve"], "  Zoë   Q  ")
    assert "Eve is now called Zoë Q." in page
    eve = db.session.get(Player, h.players["Eve"])
    assert (eve.name, eve.name_key) == ("Zoë Q", "zoë q")


def test_a_renamed_name_keeps_no_invisible_format_characters(client, h):
    assert "Eve is now called Ирина." in rename(client, h.players["Eve"], "\u200bИрина\u200b")
    eve = db.session.get(Player, h.players["Eve"])
    assert (eve.name, eve.name_key) == ("Ирина", "ирина")


def test_rename_only_the_case_of_ones_own_name(client, h):
    page = rename(client, h.players["Ann"], "ANN")
    assert "Ann is now called ANN." in page


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bob", "Another player is already called Bob."),
        ("  BOB ", "Another player is already called Bob."),
        ("", "Type the new name."),
        ("   ", "Type the new name."),
        ("x" * 61, "A name has at most 60 characters."),
        ("Ann\x07", "cannot contain invisible characters"),
        # a zero-width space (or a byte order mark, a bidi mark) is no letter: Bob all the same
        ("Bob\u200b", "Another player is already called Bob."),
        ("\ufeffB\u200eob", "Another player is already called Bob."),
        ("\u200b\u2060", "A player's name cannot be empty."),
    ],
)
def test_rename_refusals(client, h, name, message):
    response = client.post(f"/history/players/{h.players['Cy']}/rename", data={"name": name})
    assert response.status_code == 400
    page = text(response)
    assert message in page
    if name.strip():  # the typed name is offered again for correction
        assert f'value="{html.escape(name, quote=True)}"' in response.get_data(as_text=True)
    assert db.session.get(Player, h.players["Cy"]).name == "Cy"


def test_rename_to_a_merged_name(client, h):
    # "Annie" was merged into Ann: Ann may take it, Bob may not (it leads to Ann).
    assert "The name Annie now leads to Ann" in rename(client, h.players["Bob"], "annie")
    assert "Ann is now called Annie." in rename(client, h.players["Ann"], "Annie")


def test_markup_in_names_is_shown_as_text(client, h):
    rename(client, h.players["Eve"], "<b>Eve</b>")
    body = client.get("/history/players").get_data(as_text=True)
    assert "&lt;b&gt;Eve&lt;/b&gt;" in body and "<b>Eve</b>" not in body


# --- merge -----------------------------------------------------------------------------------


def test_merge_choose_confirm_merge(client, raw):
    p = raw.players
    assert "Annie 1 1 0 100%" in text(client.get("/history/leaderboard"))
    url = f"/history/players/{p['Annie']}/merge"
    choose = text(client.get(url))
    assert "Same person as" in choose and "Next" in choose
    confirm = text(client.get(f"{url}?into={p['Ann']}"))
    assert "1 game of Annie will move to Ann." in confirm
    assert "A merge cannot be undone from the app" in confirm
    assert db.session.get(Player, p["Annie"]).merged_into_id is None  # nothing yet
    response = client.post(url, data={"into": str(p["Ann"])})
    assert response.status_code == 303
    page = text(client.get(response.headers["Location"]))
    assert "Annie and Ann are now one player: 1 game moved to Ann." in page
    assert "Games 4" in page and "Wins 1" in page
    annie = db.session.get(Player, p["Annie"])
    assert annie.merged_into_id == p["Ann"]  # the row is kept
    g6 = db.session.get(Game, raw.games["G6"])
    assert [s.player_id for s in g6.seats][0] == p["Ann"]
    entry = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "player_merged")).one()
    assert entry.game_id == g6.id
    assert entry.before["player_id"] == p["Annie"] and entry.after["player_id"] == p["Ann"]
    assert "Annie merged into Ann" in text(client.get(f"/history/games/{g6.id}"))
    assert "Annie" not in text(client.get("/history/players"))
    board = text(client.get("/history/leaderboard"))
    assert "Annie" not in board and "Ann 4 1 1 25%" in board


def test_merge_refused_when_both_played_the_same_game(client, raw):
    p = raw.players
    url = f"/history/players/{p['Cy']}/merge"
    page = text(client.get(f"{url}?into={p['Dee']}"))
    assert "Cy and Dee cannot be merged: they played in the same game" in page
    assert "(deleted)" in page  # the game of the deleted night is listed too
    response = client.post(url, data={"into": str(p["Dee"])})
    assert response.status_code == 200
    assert "cannot be merged" in text(response)
    assert db.session.get(Player, p["Cy"]).merged_into_id is None
    assert db.session.scalars(select(Seat).where(Seat.player_id == p["Dee"])).all()


@pytest.mark.parametrize("into", ["abc", "99999", "", "self", "Annie"])
def test_merge_with_a_bad_choice(client, h, into):
    p = h.players
    value = {"self": str(p["Bob"]), "Annie": str(p["Annie"])}.get(into, into)
    response = client.post(f"/history/players/{p['Bob']}/merge", data={"into": value})
    assert response.status_code == 200
    page = text(response)
    assert "Choose" in page
    assert db.session.get(Player, p["Bob"]).merged_into_id is None
    assert client.get(f"/history/players/{p['Bob']}/merge?into={value}").status_code == 200


def test_a_merged_player_cannot_be_merged_or_renamed_again(client, h):
    annie = h.players["Annie"]
    assert client.get(f"/history/players/{annie}/merge").status_code == 404
    assert client.post(f"/history/players/{annie}/rename", data={"name": "A"}).status_code == 404


def zed_in_play(h) -> None:
    """Zed (who never played) sits at a game still in play with Dee: in the history."""
    night = db.session.get(GameNight, h.nights["N3"])
    people = {p.name: p for p in db.session.scalars(select(Player))}
    _game(night, people, 9, {"Zed": [OUT], "Dee": [7]}, finished=False)
    db.session.commit()


def test_merge_chain_points_to_the_last_kept_player(client, h):
    p = h.players
    zed_in_play(h)
    client.post(f"/history/players/{p['Ann']}/merge", data={"into": str(p["Zed"])})
    assert db.session.get(Player, p["Annie"]).merged_into_id == p["Zed"]
    assert "Games 4" in text(client.get(f"/history/players/{p['Zed']}"))


# --- leaderboard -----------------------------------------------------------------------------


def names_in_order(page: str, names: list[str]) -> list[str]:
    return sorted((n for n in names if f" {n} " in page), key=lambda n: page.index(f" {n} "))


def test_leaderboard(client, h):
    page = text(client.get("/history/leaderboard"))
    assert names_in_order(page, ["Ann", "Bob", "Cy", "Dee", "Eve"]) == [
        "Eve",
        "Bob",
        "Cy",
        "Ann",
        "Dee",
    ]
    assert "Eve 2 1 0 50% 3.1 2" in page
    assert "Zed" not in page


def test_leaderboard_period_and_set(client, h):
    page = text(client.get("/history/leaderboard?set_size=9"))
    assert names_in_order(page, ["Ann", "Bob", "Cy", "Dee", "Eve"]) == ["Cy", "Ann", "Bob", "Dee"]
    page = text(client.get("/history/leaderboard?date_from=2026-02-01&date_to=2026-02-28"))
    assert names_in_order(page, ["Ann", "Bob", "Cy", "Dee", "Eve"]) == ["Bob", "Eve", "Cy", "Ann"]
    assert "Bob 1 1 0 100%" in page
    page = text(client.get("/history/leaderboard?date_from=2027-01-01"))
    assert "No finished games in this period." in page


@pytest.mark.parametrize(
    "query", ["set_size=abc", "set_size=7", "date_from=x&date_to=y", "date_to=2026-02-30"]
)
def test_leaderboard_never_fails_on_junk(client, h, query):
    response = client.get(f"/history/leaderboard?{query}")
    assert response.status_code == 200
    assert "Eve" in text(response)


def test_leaderboard_query_count_does_not_grow(client, h):
    client.get("/history/leaderboard")
    with counting_queries() as few:
        client.get("/history/leaderboard")
    more_nights(30)
    client.get("/history/leaderboard")
    with counting_queries() as many:
        client.get("/history/leaderboard")
    assert len(many) == len(few) <= 4


def test_leaderboard_has_a_visible_key_to_its_abbreviations(client, h):
    body = client.get("/history/leaderboard").get_data(as_text=True)
    key = body[body.index('<dl class="legend"') : body.index("</dl>")]
    for short, meaning in (("SW", "shared wins"), ("Pts/R", "points per round"), ("G", "games")):
        assert f"<dt>{short}</dt><dd>{meaning}" in key


def test_leaderboard_names_the_filters_it_did_not_understand(client, h):
    """Each filter that was not understood is named (what was typed) and said to be ignored;
    the dates stay as typed in the form; the results are those of no filter."""
    response = client.get("/history/leaderboard?from=2026-13-45&to=abc&set=77&colour=red")
    assert response.status_code == 200
    page = text(response)
    assert "“2026-13-45” is not a date (write it as year-month-day, e.g. 2026-12-03); " in page
    assert "“abc” is not a date" in page and page.count("this filter was ignored.") == 3
    assert "“77” is not a set here (double-6 to double-18); this filter was ignored." in page
    assert "“colour” is not a filter of this page; it was ignored." in page
    body = response.get_data(as_text=True)
    assert 'type="text" value="2026-13-45"' in body and 'value="abc"' in body
    assert "Eve 2 1 0 50% 3.1 2" in page


def test_leaderboard_reads_the_short_filter_names(client, h):
    page = text(client.get("/history/leaderboard?set=9"))
    assert names_in_order(page, ["Ann", "Bob", "Cy", "Dee", "Eve"]) == ["Cy", "Ann", "Bob", "Dee"]
    assert "ignored" not in page


def test_a_refused_merge_names_each_shared_game_as_the_pages_do(client, raw):
    """Not bare dates: the night's date and "Game N" (its number among the night's games),
    a link to the game's page when it is not deleted."""
    p = raw.players
    body = client.get(f"/history/players/{p['Cy']}/merge?into={p['Dee']}").get_data(as_text=True)
    shared = db.session.scalars(
        select(Game)
        .where(
            Game.seats.any(Seat.player_id == p["Cy"]), Game.seats.any(Seat.player_id == p["Dee"])
        )
        .order_by(Game.id)
    ).all()
    assert len(shared) >= 2
    items = re.findall(r"<li>(.*?)</li>", body[body.find('class="card problem"') :], flags=re.S)
    for game, item in zip(shared, items, strict=False):
        live = [g.id for g in game.night.games if g.deleted_at is None or g.id == game.id]
        assert f"· Game {live.index(game.id) + 1}" in item
        if game.deleted_at is None and game.night.deleted_at is None:
            assert f'href="/history/games/{game.id}"' in item
