"""Chicken Foot Companion: the Flask app factory.

``create_app(config)`` loads configuration, binds the extensions, registers one blueprint per
area (games, table, checker, api, history), error pages, security headers and CLI commands.
"""

from __future__ import annotations

import gc
from collections.abc import Mapping
from typing import Any

from flask import Flask, has_app_context, url_for
from sqlalchemy import event
from sqlalchemy.engine import Engine

from .config import ROOT, Config
from .extensions import babel, compress, csrf, db, migrate
from .ids import IdConverter


def create_app(config: Any = None) -> Flask:
    """Build the app.

    Args:
        config: None (production :class:`Config` from the environment), a config class or
            object, or a mapping of settings applied on top of :class:`Config`.
    """
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    if config is None or isinstance(config, Mapping):
        app.config.from_object(Config())
        app.config.update(config or {})
    else:
        app.config.from_object(config() if isinstance(config, type) else config)
    app.url_map.converters["int"] = IdConverter
    _init_extensions(app)
    from .web.assets import init_assets

    init_assets(app)  # before the CSP: the htmx fallback's URL carries the file's digest
    from .web.htmx import init_htmx

    init_htmx(app)
    _register_blueprints(app)
    _init_templates(app)

    from .web.idempotency import init_idempotency
    from .web.offline import init_offline

    init_idempotency(app)  # after CSRF protection: a refused form never claims a key
    init_offline(app)

    from .web.languages import init_languages

    init_languages(app)
    from .web.security import init_security

    init_security(app)
    from .render_cache import init_render_cache

    init_render_cache(app)
    from .errors import init_error_pages

    init_error_pages(app)
    from .cli import init_cli

    init_cli(app)
    return app


def _select_locale() -> str | None:
    from .web.languages import select_locale

    return select_locale()


def _init_extensions(app: Flask) -> None:
    from . import models  # noqa: F401  - registers the tables with the metadata
    from .services import results

    results.install()  # finished games' standings are stored whenever their rows change

    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    csrf.init_app(app)
    compress.init_app(app)
    babel.init_app(
        app,
        locale_selector=_select_locale,
        default_translation_directories=str(ROOT / "companion" / "translations"),
    )


def _init_templates(app: Flask) -> None:
    """The stored vocabularies and the scored-rounds helper for every template, so that pages
    compare with ``GameStatus.FINISHED`` instead of repeating the stored strings."""
    from .access import join_link
    from .mapping import scored_rounds
    from .services.audit import entry_words
    from .services.round_store import play_key
    from .vocab import GameStatus, PostStatus, RoundOutcome, RoundStatus
    from .web.kept_keys import hand_key, round_key

    app.jinja_env.globals.update(
        audit_line=entry_words,  # an audit entry's line in the reader's language
        join_link=join_link,  # a game's join link: built in one place (companion.access)
        # the keys a phone keeps typing under (data-draft, data-resolved): built in one place
        round_key=round_key,
        hand_key=hand_key,
        scored_rounds=scored_rounds,
        GameStatus=GameStatus,
        RoundStatus=RoundStatus,
        RoundOutcome=RoundOutcome,
        PostStatus=PostStatus,
    )
    # a saved round's fingerprint, so that a page can tell a comparison made before it from
    # one of the round as saved now (templates/games/_rounds_saved.html)
    app.jinja_env.filters["play_key"] = play_key


def _register_blueprints(app: Flask) -> None:
    from .api import bp as api_bp
    from .checker import bp as checker_bp
    from .games import bp as games_bp
    from .history import bp as history_bp
    from .table import bp as table_bp

    app.register_blueprint(games_bp)
    app.register_blueprint(table_bp)
    app.register_blueprint(checker_bp, url_prefix="/checker")
    app.register_blueprint(history_bp, url_prefix="/history")
    app.register_blueprint(api_bp, url_prefix="/api/v1")


SQLITE_MMAP_BYTES = 2**31
"""How much of a SQLite database file each connection reads through a memory map (bytes;
SQLite caps it at its own maximum, 2 GiB less 64 KiB in the usual build). Mapped pages are the
operating system's file cache, shared by every connection and worker: without it each
connection copies the pages it reads into its own cache of 2 MB (SQLite's default), which a
fresh process starts empty and which the bigger history pages (a year in review reads a busy
player's thousands of games from a 500 MB file at 50,000 games) overflow on every request."""


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL for concurrent readers, foreign keys on and reads through a memory map
    (:data:`SQLITE_MMAP_BYTES`), for every SQLite connection."""
    module = type(dbapi_connection).__module__
    if not module.startswith("sqlite3"):
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute(f"PRAGMA mmap_size={SQLITE_MMAP_BYTES}")
    cursor.close()


def warm_up(app: Flask) -> None:
    """Do a server process's one-time work before its first request: compile every template,
    load the translations, set up the ORM, open the first database connection, render the
    history pages once (:func:`_warm_pages`) and freeze what is loaded out of the garbage
    collector's way. Without it
    the first request a worker serves for each page pays for that (hundreds of ms on a busy
    machine), which has nothing to do with the page's data. Called by ``wsgi.py`` (each
    gunicorn worker) and the benchmarks; tests skip it."""
    from flask_babel import get_translations
    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.orm import configure_mappers

    env = app.jinja_env
    for name in env.list_templates(extensions=("html", "js", "svg", "xml", "txt")):
        env.get_template(name)
    configure_mappers()  # the ORM's one-time setup, otherwise done by the first query
    with app.test_request_context():
        get_translations()
        _load_locale_data(app.config.get("LANGUAGES", ["en"]))
        try:  # open the pool's first connection now; a database still starting is fine
            with db.engine.connect():
                pass
            answered = True
        except SQLAlchemyError:
            answered = False
            app.logger.warning(
                "warm_up: the database did not answer; the first request will connect"
            )
    if answered:
        _warm_pages(app)
    _warm_static_file(app)
    # Everything loaded so far (modules, compiled templates, locale data, the ORM's set-up)
    # lives as long as the process: collect once now and move it out of the cyclic garbage
    # collector's reach. Otherwise the first requests trigger the first full collections,
    # which walk all of it (100-400 ms on a loaded machine, timed inside whatever ORM or
    # template call allocated last) and make a worker's first request several times its next.
    gc.collect()
    gc.freeze()


def _warm_pages(app: Flask) -> None:
    """Render the history pages once (:mod:`.history.warm`: read-only GETs through the test
    client, no HTTP): the process's first compilation of their SQL, the ORM's eager-load set-up
    and the templates' first render are paid here instead of by their first readers. A
    database without tables yet (not migrated) is skipped with a warning."""
    from sqlalchemy.exc import SQLAlchemyError

    from .history.warm import warm_urls

    try:
        with app.test_request_context():
            urls = warm_urls()
    except SQLAlchemyError:
        # Not a problem: `make run` imports the app to migrate a new database, and the
        # workers it then starts warm up on the migrated one. Said at info level so that a
        # first start prints no warning.
        app.logger.info("warm_up: no history to read yet; its pages were not rendered")
        return
    client = app.test_client()
    for url in urls:
        client.get(url)
        if has_app_context():
            # Each page from an empty session, as a request of its own (under an app context
            # pushed already the pages would share one, and find rows loaded by the one before).
            db.session.remove()


def _warm_static_file(app: Flask) -> None:
    """Serve the stylesheet once through the test client: a process's first static file pays
    for the standard library's MIME-type tables (read from the system's files on first use) and
    werkzeug's file-sending set-up, about 5 ms measured against 1-2 ms for the next one, and
    every phone's first request after a restart is for the stylesheet."""
    with app.test_request_context():
        url = url_for("static", filename="css/app.css")
    app.test_client().get(url).close()


def _load_locale_data(languages: list[str]) -> None:
    """Load Babel's CLDR data (number, percent and date patterns) of every offered language:
    unpickling one locale takes tens of ms, which the first page formatting a number or a date
    in that language would otherwise pay."""
    from babel import Locale
    from babel.dates import format_date
    from babel.numbers import format_decimal, format_percent

    for language in languages:
        locale = Locale.parse(language)
        format_decimal(1234.5, locale=locale)
        format_percent(0.5, locale=locale)
        format_date(None, locale=locale)
