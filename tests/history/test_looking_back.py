"""Looking back (issue 25): the night's story and picture, seasons and years in review, and the
ratings on the leaderboard and a player's page (fixture: tests/history/fixture.py)."""

from __future__ import annotations

import html
import io
import re
from datetime import date
from pathlib import Path

import pytest
from flask_babel import refresh
from PIL import Image, ImageChops
from sqlalchemy import select

from companion.extensions import db
from companion.models import GameNight, Player, RatingStep
from companion.services import ratings, seasons
from companion.services.night_card import HEIGHT, WIDTH, draw_card, font
from companion.services.night_story import StoryGame, StoryRound, night_standings, story
from tests.history.fixture import OUT, _game

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "night_card_reference.png"

#: a night of two games with every kind of sentence (seat order Ann, Bob, Cy)
GAMES = [
    StoryGame(
        1,
        9,
        ("Ann", "Bob", "Cy"),
        (1, 2, 3),
        (30, 32, 60),
        (
            StoryRound(9, (20, 0, 10), (False, False, False)),
            StoryRound(8, (10, 2, 50), (False, False, True)),
            StoryRound(7, (0, 30, 0), (False, False, False)),
        ),
    ),
    StoryGame(
        2,
        12,
        ("Ann", "Bob"),
        (1, 1),
        (5, 5),
        (StoryRound(12, (5, 0), (False, False)), StoryRound(11, (0, 5), (False, False))),
    ),
]


def page_text(response) -> str:
    body = response.get_data(as_text=True)
    main = body[body.find("<main") :]
    main = re.sub(r"<(svg|script)\b.*?</\1>", " ", main, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", main)).split())


# --- the night's story -------------------------------------------------------------------------


def test_the_story_tells_winner_closest_finish_comeback_zero_rounds_and_double_blank(app):
    with app.test_request_context():
        told = story(GAMES)
    assert told == [
        "Game 1 (double-9): Ann won with 30 points.",
        "Game 2 (double-12): Ann and Bob shared the win on 5 points.",
        "Ann won the most games tonight: 2.",
        "Closest finish: in game 2 Ann and Bob ended level on 5 points.",
        # after round 1 Ann had 20, Bob 0; after round 2 Ann 30, Bob 2: 28 behind
        "Biggest comeback: Ann was 28 points behind after round 2 (the 8-8) and still won game 1.",
        "Most rounds finished with 0 points: Ann (2), Bob (2), and Cy (1).",
        "The double-blank hurt most in game 1, round 2: Cy was left holding it, 50 points in all.",
    ]


def test_the_zero_rounds_sentence_never_cuts_a_tie_in_two(app):
    """A tester's night: zero rounds Anna 3, Chen 3, Bob 2, Dmitri 2 named "Anna (3), Chen (3),
    and Bob (2)", leaving Dmitri out of a tie; now the players with the most are named, and a
    tied group only whole."""
    rounds = tuple(
        StoryRound(9 - i, points, (False,) * 4)
        for i, points in enumerate(
            ((0, 5, 0, 5), (0, 0, 0, 0), (0, 5, 0, 5), (5, 5, 5, 5)),
        )
    )
    game = StoryGame(1, 9, ("Anna", "Bob", "Chen", "Dmitri"), (1, 3, 1, 3), (5, 20, 5, 20), rounds)
    with app.test_request_context():
        told = story([game])
    assert "Most rounds finished with 0 points: Anna (3) and Chen (3)." in told


def test_night_standings_rank_by_wins_then_points_per_game():
    lines = night_standings(GAMES)
    assert [(ln.name, ln.games, ln.wins, ln.points) for ln in lines] == [
        ("Ann", 2, 2, 35),
        ("Bob", 2, 1, 37),
        ("Cy", 1, 0, 60),
    ]


def test_the_night_page_tells_the_story_and_offers_its_picture(client, history):
    response = client.get(f"/history/nights/{history.nights['N3']}")
    shown = page_text(response)
    assert "How the night went" in shown
    assert "Game 1 (double-9): Ann won with 8 points." in shown
    body = response.get_data(as_text=True)
    card = f"/history/nights/{history.nights['N3']}/card.png?lang=en"
    assert re.search(
        rf'<meta property="og:image" content="http://localhost{re.escape(card)}">', body
    )


def test_a_games_share_link_previews_its_nights_picture(client, history):
    from companion.models import Game

    game = db.session.get(Game, history.games["G6"])
    body = client.get(f"/s/{game.share_token}").get_data(as_text=True)
    assert f"/history/nights/{game.night_id}/card.png?lang=en" in body


# --- the night's picture -----------------------------------------------------------------------


def test_the_card_is_a_1200x630_png_naming_the_winner(client, history):
    response = client.get(f"/history/nights/{history.nights['N3']}/card.png")
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT) == (1200, 630)
    assert "Ann won the night" in image.text["Description"]


@pytest.mark.parametrize(
    ("language", "winner"),
    [("ru", "Вечер за игроком: Ann"), ("cs", "Večer vyhrává: Ann"), ("lt", "Vakaro nugalėtojas")],
)
def test_the_card_speaks_the_readers_language(app, language, winner):
    with app.test_request_context(headers={"Accept-Language": language}):
        refresh()  # the app fixture keeps one context: forget the locale of earlier requests
        png = draw_card(date(2026, 3, 7), "Kitchen", GAMES)
    assert winner in Image.open(io.BytesIO(png)).text["Description"]


def test_the_font_draws_cyrillic_lithuanian_and_czech_letters():
    face = font(40)
    missing = face.getmask("\U000f0000")  # a private-use code point: the font's empty box
    for letter in "ЖжЩыąčęėįšųūžřůěťď":
        assert face.getmask(letter).getbbox() is not None, letter
        assert bytes(face.getmask(letter)) != bytes(missing), letter


def test_the_card_matches_the_reference_rendering(app):
    with app.test_request_context():
        png = draw_card(date(2026, 3, 7), "Ann's kitchen", GAMES)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    reference = Image.open(REFERENCE).convert("RGB")
    assert image.size == reference.size
    diff = (
        ImageChops.difference(image, reference).convert("L").point(lambda v: 255 if v > 40 else 0)
    )
    changed = diff.histogram()[255]
    assert changed < WIDTH * HEIGHT * 0.005  # anti-aliasing may differ; the layout may not


def test_an_unknown_or_deleted_night_has_no_card(client, history):
    assert client.get("/history/nights/99999/card.png").status_code == 404
    assert client.get(f"/history/nights/{history.nights['N4']}/card.png").status_code == 404


# --- seasons -----------------------------------------------------------------------------------


def test_a_season_holds_only_its_dates(client, history):
    february = seasons.Season(date(2026, 2, 1), date(2026, 2, 28))
    moves = {m.player_id: m for m in seasons.movements(db.session, february)}
    p = history.players
    assert set(moves) == {p["Ann"], p["Cy"], p["Eve"], p["Bob"]}  # G3 and G4 only
    assert moves[p["Eve"]].before is None and moves[p["Eve"]].games == 2
    steps = {(s.game_id, s.player_id): s.ordinal for s in db.session.scalars(select(RatingStep))}
    assert moves[p["Ann"]].before == steps[(history.games["G2"], p["Ann"])]
    assert moves[p["Ann"]].after == steps[(history.games["G3"], p["Ann"])]
    best = seasons.best_night(db.session, february)
    assert (best.night_id, best.player_id, best.wins, best.games) == (
        history.nights["N2"],
        p["Eve"],
        1,
        2,
    )  # Eve and Bob won one game each; Eve's 11 points a game beat Bob's 13
    assert seasons.nights_and_games(db.session, february) == (1, 2)
    shown = page_text(client.get("/history/seasons?from=2026-02-01&to=2026-02-28"))
    assert "Dee" not in shown and "Eve" in shown
    assert "Best single night: Eve won 1 of 2 games on Feb 14, 2026." in shown


def test_the_year_in_review_for_the_group_and_a_player(client, history):
    assert seasons.years(db.session) == [2026]
    group = page_text(client.get("/history/seasons"))
    assert "2026 in review" in group
    # N4 deleted, G5 unfinished, G7 deleted; Annie merged into Ann, Zed never played
    assert "3 game nights · 5 games · 5 players" in group
    assert "Most zero rounds:" in group
    ann = page_text(client.get(f"/history/seasons/2026/players/{history.players['Ann']}"))
    assert "Ann: 2026 in review" in ann
    assert "Improved: the rating rose from 0.0" in ann or "The rating fell from 0.0" in ann
    empty = page_text(client.get(f"/history/seasons/2025/players/{history.players['Ann']}"))
    assert "No finished games in 2025." in empty
    assert client.get("/history/seasons/2026/players/99999").status_code == 404


def test_bad_season_dates_are_named_not_a_500(client, history):
    response = client.get("/history/seasons?from=2026-13-45&year=junk")
    assert response.status_code == 200
    assert "is not a date" in page_text(response)


@pytest.mark.parametrize(
    "query",
    ["from=2026-12-31&to=2026-01-01", "from=2026-02-01", "to=2026-02-28", "to=9999-12-31"],
    ids=["reversed", "no end", "no start", "the last day"],
)
def test_a_season_open_at_one_end_or_reversed_is_not_a_500(client, history, query):
    """A season with no end (or one whose end the form refused, as a reversed range's) ran to
    the last day there is, and the day after it overflowed: a 500."""
    response = client.get(f"/history/seasons?{query}")
    assert response.status_code == 200


# --- ratings on the pages ----------------------------------------------------------------------


def test_the_leaderboard_ranks_by_rating_with_uncertainty_and_provisional_marks(client, history):
    shown = page_text(client.get("/history/leaderboard?by=rating"))
    ranked = ratings.ranked(db.session)
    names = {pid: name for name, pid in history.players.items()}
    order = [shown.index(f" {names[r.player_id]} ") for r in ranked]
    assert order == sorted(order)
    assert "The rating is the app's cautious guess" in shown
    assert "Eve provisional" in shown  # 2 games
    top = ranked[0]
    assert f"{top.mu:.1f} ± {top.sigma:.1f}" in shown


def test_a_player_page_shows_the_rating_its_chart_and_chances_ahead(client, history):
    response = client.get(f"/history/players/{history.players['Cy']}")
    shown = page_text(response)
    cy = ratings.rating_of(db.session, history.players["Cy"])
    assert f"Rating {cy.ordinal:.1f}" in shown
    assert "Rating after each game (higher is better)" in response.get_data(as_text=True)
    assert "Chance ahead: Predicted chance of finishing ahead, from the ratings." in shown
    dee = ratings.rating_of(db.session, history.players["Dee"])
    chance = round(100 * ratings.chance_ahead(cy, dee))
    assert f"Dee Chance ahead {chance}%" in shown
    assert "Improving: from 0.0" in shown or "Slipping: from 0.0" in shown


@pytest.mark.parametrize("language", ["en", "ru", "es"])
def test_the_provisional_note_names_the_number_of_games(client, history, language):
    shown = page_text(client.get(f"/history/leaderboard?by=rating&lang={language}"))
    player = page_text(client.get(f"/history/players/{history.players['Eve']}?lang={language}"))
    for text in (shown, player):
        assert "%(num)s" not in text and "{num}" not in text
        assert f" {ratings.PROVISIONAL_GAMES} " in text


def test_rating_changes_use_the_pages_decimal_comma_and_a_true_minus(client, history):
    refresh()  # the app fixture keeps one context: forget the locale of earlier requests
    german = {"Accept-Language": "de"}
    season = page_text(client.get("/history/seasons?year=2026", headers=german))
    player = page_text(client.get(f"/history/players/{history.players['Cy']}", headers=german))
    assert "Saison" in season or "Jahr" in season or "Rückblick" in season
    changes = re.findall(r"[+−-]\d+[.,]\d\b", season + " " + player)
    assert changes  # the biggest rise, the movement table, the player's last games
    assert all("," in c and not c.startswith("-") for c in changes), changes


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_negative_rating_figure_has_the_same_true_minus(client, history, language):
    """A season's table (before, after, change), the ratings, a player's page and its chart:
    one sign for a figure below 0, the change's "−", never a hyphen "-" next to it."""
    people = {p.name: p for p in db.session.scalars(select(Player))}
    night = GameNight(played_on=date(2026, 5, 2), place="Porch")
    db.session.add(night)
    for _ in range(3):  # Zed loses three games in a row: a rating below 0
        _game(night, people, 6, {"Ann": [OUT], "Zed": [9]})
    db.session.commit()
    ratings.rebuild_all(db.session)
    refresh()  # the app fixture keeps one context: forget the locale of earlier requests
    urls = ["/history/seasons?year=2026", "/history/leaderboard?by=rating"]
    urls.append(f"/history/players/{history.players['Zed']}")
    urls.append(f"/history/seasons/2026/players/{history.players['Zed']}")
    shown = " ".join(
        page_text(client.get(url, headers={"Accept-Language": language})) for url in urls
    )
    assert len(re.findall(r"−\d", shown)) >= 5  # Zed's rating after, its change, ...
    assert re.findall(r"(?<![\w-])-\d+(?:[.,]\d+)?", shown) == []


#: three players with long names who each win one game: the night is shared by all three
LONG = ("Margarethe Hildebrandt", "Konstantin Wolkonski", "Hanna-Liisa Kuusela")
SHARED = [
    StoryGame(
        n,
        9,
        LONG,
        tuple(1 if i == n - 1 else 2 for i in range(3)),
        tuple(10 if i == n - 1 else 40 for i in range(3)),
        (StoryRound(9, tuple(10 if i == n - 1 else 40 for i in range(3)), (False,) * 3),),
    )
    for n in (1, 2, 3)
]


@pytest.mark.parametrize("language", ["ru", "de", "en"])
def test_the_cards_headline_shows_every_shared_winner_and_the_whole_sentence(app, language):
    with app.test_request_context(headers={"Accept-Language": language}):
        refresh()
        text = Image.open(io.BytesIO(draw_card(date(2026, 3, 7), "Kitchen", SHARED))).text
    sentence = text["Description"].split(" · ")[0]
    assert all(name in sentence for name in LONG)
    drawn = text["Headline"]
    assert "…" not in drawn
    assert " ".join(drawn.split("\n")) == sentence


def test_tile_names_keep_their_hyphen_unbroken_in_the_story_and_the_rule_book(client, history):
    """Each tile's name is kept on one line the one way the site has (``tiles_unbroken``: a
    ``nowrap`` span around "6-6", its characters as they are, so a search or a screen reader
    reads a hyphen), never split "(the 6- / 6)" at 360 px."""
    unbroken = r'<span class="tile-name">\d+-\d+</span>'
    story = [
        client.get(f"/history/nights/{night}")
        .get_data(as_text=True)
        .split("<main", 1)[-1]
        .split("Picture to share")[0]
        for night in history.nights.values()
    ]
    told = " ".join(story)
    assert re.search(r"\(the " + unbroken + r"\)", told)  # a comeback names its round's double
    assert not re.search(r"\(the \d+-\d+\)", told)
    refresh()
    rules = client.get("/checker/rules", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert '<span class="tile-name">15-15</span>' in rules
    assert not re.search(r"(?<![>\d-])\d+-\d+(?![<\d-])", rules.split("<main", 1)[-1])


@pytest.mark.parametrize(
    ("language", "wanted", "unwanted"),
    # es: "cada uno" is each of the winners (los jugadores), not each game: "ganaron 1 cada uno"
    [("es", "1 cada uno", "cada una"), ("de", "in der letzten Partie", "letzten 1 Partie")],
)
def test_story_and_trend_words_agree_with_their_number(app, language, wanted, unwanted):
    from flask_babel import ngettext

    with app.test_request_context(headers={"Accept-Language": language}):
        refresh()
        shared = " ".join(story(SHARED))  # three players level on one win each
        steady = ngettext(
            "Steady over the last %(num)s game.", "Steady over the last %(num)s games.", 1
        )
        text = shared + " " + steady
    assert wanted in text and unwanted not in text


def test_a_year_in_review_counts_the_best_nights_games_for_the_plural(client, history):
    shown = page_text(client.get("/history/seasons?year=2026"))
    found = re.search(r"won (\d+) of (\d+) (games?) on", shown)
    assert found, shown
    assert found.group(3) == ("game" if found.group(2) == "1" else "games")


def test_a_short_rating_history_names_months_with_their_year_in_full(client, history):
    """Cy's games span January to March 2026: the axis said "Jan 26", "Mar 26", read at the
    table as the 26th of January and of March; it says "Jan 2026" ... "Mar 2026"."""
    page = client.get(f"/history/players/{history.players['Cy']}").get_data(as_text=True)
    chart = re.search(r'<svg class="chart-svg".*?</svg>', page, re.S)
    assert chart is not None
    ticks = re.findall(r"<text[^>]*>([^<]+)</text>", chart.group(0))
    assert "Jan 2026" in ticks and "Mar 2026" in ticks, ticks
    assert not [t for t in ticks if re.fullmatch(r"[A-Z][a-z]{2} \d\d", t)], ticks
