"""Shared fixtures: an app on a fresh database and its test client."""

from __future__ import annotations

import pytest

from companion import create_app
from companion.config import TestConfig
from companion.extensions import db


@pytest.fixture()
def app():
    """A fresh app with empty tables (in-memory SQLite unless DATABASE_URL_TEST is set)."""
    application = create_app(TestConfig)
    with application.app_context():
        db.create_all()
        yield application
        db.session.remove()
        db.drop_all()


@pytest.fixture()
def client(app):
    """The Flask test client."""
    return app.test_client()


# --- PostgreSQL and per-backend apps (export/import round trips) ------------------------------


@pytest.fixture(scope="session")
def postgres_url():
    """The URL of a throwaway PostgreSQL database ``app`` for the whole run (tests/postgres.py),
    or a skip saying why it cannot be started here."""
    from tests.postgres import postgres_server, unavailable_reason

    reason = unavailable_reason()
    if reason:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def backend(request):
    """The database backend a test runs on: "sqlite" (in memory) or "postgresql"."""
    return request.param


@pytest.fixture()
def db_app(request, backend):
    """A fresh app with empty tables on ``backend``, its app context pushed; tables dropped
    afterwards (the session is removed first, or PostgreSQL waits on a lock)."""
    from companion import create_app
    from companion.config import TestConfig
    from companion.extensions import db

    settings: dict = {}
    if backend == "postgresql":
        settings["SQLALCHEMY_DATABASE_URI"] = request.getfixturevalue("postgres_url")
    application = create_app(type("BackendConfig", (TestConfig,), settings))
    with application.app_context():
        db.create_all()
        yield application
        db.session.remove()
        db.drop_all()
