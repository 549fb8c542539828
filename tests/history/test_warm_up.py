"""A server process's warm-up (issue 11: cold and warm history pages within 1.5x): it renders
the history pages once, writes nothing, and leaves the first reader of a history page nothing
to compile; what it loaded is frozen out of the garbage collector's way."""

from __future__ import annotations

import gc

import pytest
from flask import request_finished
from sqlalchemy import func, select

from companion import create_app, warm_up
from companion.config import TestConfig
from companion.extensions import db
from companion.history.demo import generate
from companion.models import Game, Player


@pytest.fixture()
def unfreeze():
    """Give the objects warm_up froze back to the collector (other tests run on)."""
    yield
    gc.unfreeze()


def served_during(app, action) -> list[tuple[str, int]]:
    """(full path, status) of every request ``app`` served during ``action()``."""
    seen: list[tuple[str, int]] = []

    def _done(sender, response, **extra) -> None:  # noqa: ANN001
        from flask import request

        seen.append((request.full_path.rstrip("?"), response.status_code))

    request_finished.connect(_done, app)
    try:
        action()
    finally:
        request_finished.disconnect(_done, app)
    return seen


def row_counts() -> dict[str, int]:
    return {
        table.name: db.session.scalar(select(func.count()).select_from(table)) or 0
        for table in db.metadata.sorted_tables
    }


def test_warm_up_renders_the_history_pages_and_writes_nothing(app, unfreeze):
    generate(db.session, games=30, players=8, seed=2)
    db.session.remove()
    before = row_counts()
    served = served_during(app, lambda: warm_up(app))
    paths = [path for path, _ in served]
    assert all(status == 200 for _, status in served), served
    assert "/history/" in paths and "/history/?page=2" in paths
    assert "/history/leaderboard" in paths and "/history/players" in paths
    newest = db.session.scalar(select(func.max(Game.id)))
    assert f"/history/games/{newest}" in paths
    assert any(p.startswith("/history/players/") for p in paths)
    db.session.remove()
    assert row_counts() == before  # read-only: no device, counter or audit row made
    assert gc.get_freeze_count() > 0


def test_after_warm_up_a_history_pages_first_reader_compiles_no_sql(app, client, unfreeze):
    generate(db.session, games=40, players=8, seed=4)
    players = db.session.scalars(select(Player.id)).all()
    db.session.remove()
    warm_up(app)
    cache = db.engine._compiled_cache  # SQLAlchemy's compiled statements of this engine
    compiled = set(cache)
    for url in ("/history/", "/history/?page=3", "/history/leaderboard", "/history/players"):
        assert client.get(url).status_code == 200
    for pid in players:  # every player: however many months their latest games span
        assert client.get(f"/history/players/{pid}").status_code == 200
    assert [str(cache[key].statement)[:300] for key in set(cache) - compiled] == []


def test_warm_up_of_an_empty_history_and_of_a_database_without_tables(app, unfreeze):
    served = served_during(app, lambda: warm_up(app))
    assert served and all(status == 200 for _, status in served)
    bare = create_app(TestConfig)  # in-memory SQLite with no tables: not migrated yet
    with bare.app_context():
        served = served_during(bare, lambda: warm_up(bare))
    assert [(path.split("?")[0], status) for path, status in served] == [
        ("/static/css/app.css", 200)
    ]  # no history page, but the stylesheet is served once all the same


def test_warm_up_serves_the_stylesheet_once(app, unfreeze):
    """A process's first static file pays for the MIME-type tables and the file-sending set-up
    (about 5 ms against 1-2 ms): warm-up pays it instead of the first phone after a restart."""
    served = served_during(app, lambda: warm_up(app))
    assert [s for p, s in served if p.startswith("/static/css/app.css")] == [200]


def test_warm_up_outside_an_app_context_as_wsgi_runs_it(tmp_path, unfreeze):
    url = f"sqlite:///{tmp_path / 'served.db'}"
    served_app = create_app(type("ServedConfig", (TestConfig,), {"SQLALCHEMY_DATABASE_URI": url}))
    with served_app.app_context():
        db.create_all()
        generate(db.session, games=12, players=10, seed=1)
        db.session.remove()
    try:
        served = served_during(served_app, lambda: warm_up(served_app))  # no context pushed
        assert len(served) >= 6 and all(status == 200 for _, status in served), served
    finally:
        with served_app.app_context():
            db.session.remove()
            db.drop_all()
            db.engine.dispose()
