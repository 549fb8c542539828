"""History pages that look back: skill ratings, seasons and years in review, and the night's
story with its picture to share.

The numbers come from services (:mod:`companion.services.ratings`, :mod:`.seasons`,
:mod:`.night_story`, :mod:`.night_card`); this module turns rows into their plain values and
wires them to templates. Ratings are read as stored, never recomputed here.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Response, abort, render_template, url_for
from flask_babel import format_date
from flask_babel import lazy_gettext as _l

from ..access import Role, requires
from ..extensions import db
from ..mapping import scored_rounds, standings_of
from ..models import Game, GameNight, Player
from ..services import ratings, seasons
from ..services.night_card import draw_card
from ..services.night_story import DOUBLE_BLANK, StoryGame, StoryRound, story
from ..vocab import GameStatus
from ..web import query
from ..web.languages import link_language
from . import bp, players, queries
from .aggregates import leaderboard_rows
from .charts import Chart, rating_chart, thin
from .finished_games import Filters
from .forms import SeasonForm, options

#: the rating in one sentence, in players' words (the one home of this explanation)
RATING_EXPLAINED = _l(
    "The rating is the app's cautious guess of your skill from the places you finished in "
    "every game: your estimated skill minus three times how unsure it still is, so it rises "
    "when you finish ahead of strong players and as your games add up."
)
#: what "provisional" means next to a rating
PROVISIONAL_EXPLAINED = _l("Provisional: fewer than %(num)s games, so the rating is still a guess.")
#: games looked back over for "lately" on a player's page
RECENT_GAMES = 10


# --- the night's story and picture -------------------------------------------------------------


def story_games(night: GameNight) -> list[StoryGame]:
    """The night's finished games as the story and the card read them (numbers as on the
    night page: 1 for its first game)."""
    out = []
    for number, game in enumerate(queries.live_games(night), start=1):
        if game.status != GameStatus.FINISHED:
            continue
        seats = list(game.seats)
        place = {seat.id: st.rank for seat, st in standings_of(game)}
        rounds = []
        for rnd in scored_rounds(game):
            hands = {h.seat_id: h for h in rnd.hands}
            rounds.append(
                StoryRound(
                    rnd.start_double,
                    tuple(hands[s.id].points if s.id in hands else 0 for s in seats),
                    tuple(
                        s.id in hands and DOUBLE_BLANK in (hands[s.id].tiles or []) for s in seats
                    ),
                )
            )
        out.append(
            StoryGame(
                number,
                game.set_size,
                tuple(s.player.name for s in seats),
                tuple(place[s.id] for s in seats),
                tuple(sum(r.points[i] for r in rounds) for i in range(len(seats))),
                tuple(rounds),
            )
        )
    return out


def night_extras(night: GameNight) -> dict[str, Any]:
    """What the night page adds: the story in sentences and the picture's address (the Open
    Graph image, in the reader's language)."""
    return {
        "story": story(story_games(night)),
        "card_url": url_for(
            "history.night_card", night_id=night.id, lang=link_language(), _external=True
        ),
    }


@bp.get("/nights/<int:night_id>/card.png")
@requires(Role.ANYONE)
def night_card(night_id: int) -> Response:
    """The night's result as a 1200x630 PNG, in the reader's language."""
    night = queries.live_night(night_id, full=True)
    png = draw_card(night.played_on, night.place, story_games(night))
    response = Response(png, mimetype="image/png")
    response.headers["Content-Disposition"] = f'inline; filename="night-{night.played_on}.png"'
    return response


def card_url_of_game(game: Game) -> str:
    """The picture of the night a game was played in (the share page's Open Graph image)."""
    return url_for(
        "history.night_card", night_id=game.night_id, lang=link_language(), _external=True
    )


# --- ratings on the leaderboard and a player's page -------------------------------------------


def provisional_explained() -> str:
    """The provisional note in the reader's language, naming the number of games (a %-style
    gettext string: str.format would leave the placeholder showing)."""
    return str(PROVISIONAL_EXPLAINED % {"num": ratings.PROVISIONAL_GAMES})


def rating_rows() -> dict[str, Any]:
    """The leaderboard by skill rating: ratings best first, places (ties share), names."""
    ranked = ratings.ranked(db.session())
    return {
        "ratings": ranked,
        "places": ratings.places(ranked),
        "names": players.names([r.player_id for r in ranked]),
        "rating_explained": RATING_EXPLAINED,
        "provisional_explained": provisional_explained(),
    }


#: a history at least this many days long is labelled by year on the chart, else by month
YEARS_ON_AXIS = 730


def rating_chart_of(steps: list[ratings.Step]) -> Chart | None:
    """The player's rating and skill estimate after the given games (already thinned); the
    axis names years for a long history, months with their year for a short one ("Mar 2026":
    "Mar 26" was read as the 26th of March; ``LLL`` is the month's name said alone)."""
    if not steps:
        return None
    span = (steps[-1].played_on - steps[0].played_on).days
    pattern = "yyyy" if span >= YEARS_ON_AXIS else "LLL yyyy"
    return rating_chart(
        [format_date(s.played_on, pattern) for s in steps],
        [
            (str(_l("Rating")), [s.rating.ordinal for s in steps]),
            (str(_l("Skill estimate")), [s.rating.mu for s in steps]),
        ],
    )


def player_rating(player_id: int, opponent_ids: list[int]) -> dict[str, Any]:
    """The player page's rating section: the rating, its place, lately and this year's
    movement, the chart, and the chance of finishing ahead of each opponent. A constant
    number of queries; the chart's points are picked by the database."""
    session = db.session()
    mine = ratings.rating_of(session, player_id)
    if mine is None:
        return {"rating": None, "chances": {}}
    lately_at = mine.games - RECENT_GAMES - 1  # the game before the last ten (-1: none)
    chart_at = thin(mine.games)
    steps = ratings.steps_of(session, player_id, {*chart_at, max(lately_at, 0)})
    at = dict(zip(sorted({*chart_at, max(lately_at, 0)}), steps, strict=True))
    lately_from = at[lately_at].rating.ordinal if lately_at >= 0 else 0.0
    last_year = steps[-1].played_on.year
    year = seasons.movements(session, seasons.Season.year(last_year), player_id)
    others = ratings.ratings_of(session, opponent_ids)
    return {
        "rating": mine,
        "place": ratings.place_of(session, mine),
        "lately": (min(RECENT_GAMES, mine.games), lately_from, mine.ordinal),
        "year": (last_year, year[0]) if year else None,
        "rating_chart": rating_chart_of([at[i] for i in chart_at]),
        "chances": {oid: ratings.chance_ahead(mine, others.get(oid)) for oid in opponent_ids},
        "rating_explained": RATING_EXPLAINED,
        "provisional_explained": provisional_explained(),
    }


# --- seasons and years in review ---------------------------------------------------------------


def _season_from(form: SeasonForm, years: list[int]) -> seasons.Season | None:
    start = form.date_from.data if not form.date_from.errors else None
    end = form.date_to.data if not form.date_to.errors else None
    if start or end:
        return seasons.Season(start or date(1, 1, 1), end or date(9999, 12, 31))
    if form.year.data in years:
        return seasons.Season.year(form.year.data)
    return seasons.Season.year(years[0]) if years else None


def season_context(season: seasons.Season) -> dict[str, Any]:
    """A season's standings, rating movement, most zero rounds and best single night."""
    session = db.session()
    rows = leaderboard_rows(Filters(date_from=season.start, date_to=season.end))
    moves = seasons.movements(session, season)
    best = seasons.best_night(session, season)
    zeros = max(rows, key=lambda r: (r.zero_rounds, -r.player_id), default=None)
    ids = [r.player_id for r in rows] + [m.player_id for m in moves]
    return {
        "season": season,
        "rows": rows,
        "moves": moves,
        "best_night": best,
        "most_zeros": zeros if zeros is not None and zeros.zero_rounds else None,
        "counts": seasons.nights_and_games(session, season),
        "names": players.names(ids + ([best.player_id] if best else [])),
    }


@bp.get("/seasons")
@requires(Role.ANYONE)
def seasons_page() -> str:
    """A season (a calendar year by default, the latest; or any date range) looked back on:
    the group's year in review."""
    years = seasons.years(db.session())
    form = SeasonForm(query.arguments())
    form.year.choices = options([(y, str(y)) for y in years])
    form.validate()
    season = _season_from(form, years)
    if season is not None and form.year.data is None and season.is_year:
        form.year.data = season.start.year
    context = season_context(season) if season is not None else {}
    return render_template("history/seasons.html", form=form, years=years, **context)


@bp.get("/seasons/<int:year>/players/<int:player_id>")
@requires(Role.ANYONE)
def player_year(year: int, player_id: int) -> Any:
    """One player's year in review: games, wins, rating movement, zero rounds, best night."""
    person = db.session.get(Player, player_id)
    if person is None or not 1 <= year <= 9999:
        abort(404)
    kept = players.merge_target(person)
    players.must_be_listed(kept)
    season = seasons.Season.year(year)
    session = db.session()
    rows = leaderboard_rows(Filters(player_id=kept.id, date_from=season.start, date_to=season.end))
    record = next((r for r in rows if r.player_id == kept.id), None)
    moves = seasons.movements(session, season, kept.id)
    nights, games = seasons.nights_and_games(session, season, kept.id)
    return render_template(
        "history/player_year.html",
        player=kept,
        year=year,
        years=seasons.player_years(session, kept.id),
        record=record,
        move=moves[0] if moves else None,
        best_night=seasons.best_night(session, season, kept.id),
        nights=nights,
        games=games,
        rating_explained=RATING_EXPLAINED,
    )
