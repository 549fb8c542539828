"""The Alembic migrations on SQLite and PostgreSQL: the head matches the models, and the
migration that enforces one live rematch per game and one live player per name works on a
database that already holds the race duplicates it forbids (issue 8, item 7)."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade

from companion import create_app
from companion.config import ROOT, TestConfig
from companion.extensions import db

BEFORE = "ac6db9264f2c"  # the initial tables
MIGRATIONS = str(ROOT / "migrations")


@pytest.fixture()
def empty_app(backend_url):
    """An app on an empty database (no tables) of each backend."""
    settings = {"SQLALCHEMY_DATABASE_URI": backend_url}
    app = create_app(type("MigrateConfig", (TestConfig,), settings))
    with app.app_context():
        yield app
        db.session.remove()
        with db.engine.begin() as conn:
            db.metadata.drop_all(conn)
            conn.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        db.engine.dispose()


def _insert(conn, table: str, **values) -> int:
    columns = ", ".join(values)
    params = ", ".join(f":{k}" for k in values)
    return conn.execute(
        sa.text(f"INSERT INTO {table} ({columns}) VALUES ({params}) RETURNING id"), values
    ).scalar_one()


def _old_data_with_duplicates(conn) -> dict[str, int]:
    now = "2026-11-28 20:00:00"
    night = _insert(conn, "game_nights", played_on="2026-11-28", place="", notes="", created_at=now)
    ids = {}
    for label, name in (("ann1", "Ann"), ("ann2", "ann"), ("ann3", "ANN"), ("bob", "Bob")):
        ids[label] = _insert(conn, "players", name=name, name_key=name.lower(), created_at=now)
    ids["ann2_taken"] = _insert(conn, "players", name="Ann (2)", name_key="ann (2)", created_at=now)

    def game(token: str, rematch_of: int | None) -> int:
        game_id = _insert(
            conn, "games", night_id=night, set_size=9, preset="standard", rules="{}",
            status="active", edit_token=f"e{token}", share_token=f"s{token}", version=1,
            created_at=now, updated_at=now,
        )  # fmt: skip
        after = {"players": ["Ann", "Bob"], "rematch_of": rematch_of}
        _insert(
            conn, "audit_entries", game_id=game_id, at=now, action="create_game", summary="",
            before="null", after=json.dumps(after), undone=False,
        )  # fmt: skip
        return game_id

    ids["original"] = game("0", None)
    ids["rematch1"] = game("1", ids["original"])
    ids["rematch2"] = game("2", ids["original"])  # the race's duplicate
    return ids


def test_head_matches_the_models(empty_app):
    upgrade(directory=MIGRATIONS)
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert diff == []


def test_upgrade_keeps_race_duplicates_and_then_forbids_them(empty_app):
    upgrade(directory=MIGRATIONS, revision=BEFORE)
    with db.engine.begin() as conn:
        ids = _old_data_with_duplicates(conn)
    upgrade(directory=MIGRATIONS)
    with db.engine.connect() as conn:
        # Rebuilding a table on SQLite must not cascade-delete the rows that point at it.
        assert conn.execute(sa.text("SELECT count(*) FROM audit_entries")).scalar_one() == 3
        names = dict(conn.execute(sa.text("SELECT id, name FROM players")).all())
        rematch_of = dict(conn.execute(sa.text("SELECT id, rematch_of_id FROM games")).all())
    assert names == {
        ids["ann1"]: "Ann",
        ids["ann2"]: "ann (3)",  # "Ann (2)" was taken by someone else
        ids["ann3"]: "ANN (4)",
        ids["bob"]: "Bob",
        ids["ann2_taken"]: "Ann (2)",
    }
    assert rematch_of == {
        ids["original"]: None,
        ids["rematch1"]: ids["original"],
        ids["rematch2"]: None,
    }
    with pytest.raises(sa.exc.IntegrityError), db.engine.begin() as conn:
        _insert(conn, "players", name="BOB", name_key="bob", created_at="2026-11-28")
    with db.engine.begin() as conn:  # a merged-away player may keep the name
        _insert(
            conn, "players", name="BOB", name_key="bob", created_at="2026-11-28",
            merged_into_id=ids["bob"],
        )  # fmt: skip
    with pytest.raises(sa.exc.IntegrityError), db.engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE games SET rematch_of_id = :o WHERE id = :g"),
            {"o": ids["original"], "g": ids["rematch2"]},
        )
    downgrade(directory=MIGRATIONS, revision=BEFORE)
    upgrade(directory=MIGRATIONS)


def test_the_migrations_have_one_head():
    """Branches that each added a migration were chained: `flask db upgrade` (what `make run`
    does) refuses several heads."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    assert len(ScriptDirectory.from_config(config).get_heads()) == 1
