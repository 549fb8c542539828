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
