"""Shared fixtures: an app on a fresh database and its test client."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.config import TestConfig
from companion.extensions import db


def fresh_app(config_class: type) -> Iterator[Flask]:
    """An app built from ``config_class`` with empty tables and its app context pushed; the
    tables are dropped afterwards."""
    application = create_app(config_class)
    with application.app_context():
        db.create_all()
        yield application
        db.session.remove()
        db.drop_all()


def contextless_app(config_class: type) -> Iterator[Flask]:
    """An app built from ``config_class`` with empty tables and no app context held across its
    requests, as in production: each request gets its own ``g``, where Flask-Babel caches the
    locale (and the app notes that a language was negotiated), so one request's language does
    not carry into the next. The tables are dropped afterwards."""
    application = create_app(config_class)
    with application.app_context():
        db.create_all()
    yield application
    with application.app_context():
        db.session.remove()
        db.drop_all()


@pytest.fixture()
def app() -> Iterator[Flask]:
    """A fresh app with empty tables (in-memory SQLite unless DATABASE_URL_TEST is set)."""
    yield from fresh_app(TestConfig)


@pytest.fixture()
def csrf_settings() -> dict[str, Any]:
    """Settings added to :func:`csrf_app`'s configuration; a test module overrides this
    fixture for its own (an upload bound, a token lifetime)."""
    return {}


@pytest.fixture()
def csrf_app(csrf_settings: dict[str, Any]) -> Iterator[Flask]:
    """A fresh app with CSRF protection on, as in production (TestConfig turns it off so that
    the other tests can post forms without a token)."""
    config = type("CsrfConfig", (TestConfig,), {"WTF_CSRF_ENABLED": True, **csrf_settings})
    yield from fresh_app(config)


@pytest.fixture()
def csrf_client(csrf_app: Flask) -> FlaskClient:
    """The test client of :func:`csrf_app`."""
    return csrf_app.test_client()


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
    """The database backend a test runs on: "sqlite" or "postgresql"."""
    return request.param


@pytest.fixture()
def backend_url(request, backend, tmp_path) -> str:
    """The one place a test database's URL is written, per backend: a SQLite file in the
    test's own directory (several connections can share it, unlike memory), or the
    ``postgres_url`` in scope (a module may bring its own server). Empty: no tables yet."""
    if backend == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    return f"sqlite:///{tmp_path / 'app.db'}"


@pytest.fixture()
def race_app(backend_url: str) -> Iterator[Any]:
    """An app on a database file or server that several connections share at once (races
    between phones, replayed outbox entries), on SQLite and on PostgreSQL."""
    app = create_app(type("RaceConfig", (TestConfig,), {"SQLALCHEMY_DATABASE_URI": backend_url}))
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


@pytest.fixture()
def db_app(backend_url: str):
    """A fresh app with empty tables on ``backend``, its app context pushed; tables dropped
    afterwards (the session is removed first, or PostgreSQL waits on a lock)."""
    settings = {"SQLALCHEMY_DATABASE_URI": backend_url}
    application = create_app(type("BackendConfig", (TestConfig,), settings))
    with application.app_context():
        db.create_all()
        yield application
        db.session.remove()
        db.drop_all()


@pytest.fixture()
def fresh_translations():
    """Flask-Babel caches a locale's catalog on the process-wide Babel object, whatever app
    loaded it: tests with catalogs of their own start and end with an empty cache. The domain
    is a cached property made by the first page that translated (it needs an app context to
    be made, none to be cleared): nothing to clear before that."""
    from companion.extensions import babel

    def clear() -> None:
        domain = babel.__dict__.get("domain_instance")
        if domain is not None:
            domain.cache.clear()

    clear()
    yield
    clear()
