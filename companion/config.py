"""Configuration from the environment (DATABASE_URL, SECRET_KEY, COMPANION_PASSCODE, ...)."""

from __future__ import annotations

import os
import secrets
import tomllib
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSTANCE = ROOT / "instance"


def _htmx_pin() -> dict[str, str]:
    """htmx's pinned version and SRI hash: pyproject.toml's [tool.companion.htmx], the one home
    that scripts/fetch_htmx.py (the local fallback copy) reads too."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        pin: dict[str, str] = tomllib.load(file)["tool"]["companion"]["htmx"]
    return pin


_HTMX = _htmx_pin()
HTMX_VERSION, HTMX_SRI = _HTMX["version"], _HTMX["sri"]


#: Every language the app ships, code -> its name in that language (the language picker's
#: label). English is the source language (the msgids); each other code has a catalog in
#: companion/translations/<code>/ and a glossary in docs/glossary/<code>.md.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ru": "Русский",
    "lt": "Lietuvių",
    "cs": "Čeština",
    "es": "Español",
    "de": "Deutsch",
}


def database_url(default_path: Path = INSTANCE / "companion.db") -> str:
    """DATABASE_URL if set (``postgres://`` is mapped to the psycopg 3 driver), else SQLite in
    ``instance/``."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return f"sqlite:///{default_path}"
    if url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url[len("postgres://") :]
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def secret_key(instance: Path = INSTANCE) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in instance/."""
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        instance.mkdir(parents=True, exist_ok=True)
        key = secrets.token_hex(32)
        path.write_text(key)
        path.chmod(0o600)
        return key


def proxy_count(text: str) -> int:
    """``TRUSTED_PROXIES``: a count of proxy hops (``1``); empty is 0.

    Raises:
        ValueError: (at start) for anything but a whole number from 0 to 5.
    """
    value = text.strip() or "0"
    if not value.isdigit() or int(value) > 5:
        raise ValueError(f"TRUSTED_PROXIES must be a number of proxies, 0 to 5, not {text!r}")
    return int(value)


class Config:
    """Production defaults. Every value can be overridden by ``create_app(config)``."""

    SQLALCHEMY_DATABASE_URI = database_url()
    # hide_parameters: a database error logged with its SQL must not show the values bound to
    # it, which include edit tokens (companion.web.redact).
    SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True, "hide_parameters": True}
    WTF_CSRF_ENABLED = True
    WTF_CSRF_TIME_LIMIT = None  # a game night lasts longer than the default hour
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    PERMANENT_SESSION_LIFETIME = timedelta(days=180)  # remembered games outlive a closed browser
    # Behind HTTPS, cookies should never travel over plain HTTP; a home LAN has no TLS.
    SESSION_COOKIE_SECURE = os.environ.get("SESSION_COOKIE_SECURE", "").lower() in ("1", "true")
    MAX_CONTENT_LENGTH = 1024 * 1024
    # Pages: Brotli before Zstandard when a phone takes both (Chrome offers "gzip, deflate, br,
    # zstd" and Flask-Compress took zstd, level 3): quality 5 makes the scorekeeper's 23 KB page
    # 5.2 KB against zstd's 5.9 in 2 ms (quality 11: 4.7 KB in 37 ms, too slow for every
    # page). Issue 26: at most 30 KB a first visit. Static files: companion.web.assets.
    COMPRESS_ALGORITHM = ["br", "zstd", "gzip", "deflate"]
    COMPRESS_BR_LEVEL = 5
    # The largest backup the import page takes, in bytes (refused before it is read or parsed;
    # the command line has no limit). A history of 5,000 games over 500 nights (flask
    # demo-data --games 5000, ten years of a weekly club) exports to 34 MB: it fits with room.
    HISTORY_IMPORT_MAX_BYTES = 64 * 1024 * 1024
    BABEL_DEFAULT_LOCALE = "en"
    BABEL_DEFAULT_TIMEZONE = "UTC"
    # The locales offered (companion.web.languages picks one per request): all of LANGUAGES.
    LANGUAGES = list(LANGUAGES)
    HTMX_SRI = HTMX_SRI
    HTMX_CDN = f"https://cdn.jsdelivr.net/npm/htmx.org@{HTMX_VERSION}/dist/htmx.min.js"
    # The app's address as phones reach it (e.g. behind a reverse proxy): the share page's
    # links and QR codes start with it. Unset: the request's host if trusted (below).
    PUBLIC_URL = os.environ.get("PUBLIC_URL") or None
    # Flask refuses requests for any other host (400) when set (comma-separated); unset, the
    # share page trusts only this machine's own addresses (companion.web.public_url).
    TRUSTED_HOSTS = [
        h.strip() for h in os.environ.get("TRUSTED_HOSTS", "").split(",") if h.strip()
    ] or None

    # The address the server listens on (make run's HOST; companion.serve sets it as
    # COMPANION_LISTEN_HOST): on a loopback address no other phone can reach it, so links and
    # QR codes keep that address instead of pointing to a LAN address where nothing listens.
    # Read when the app is built, not when this module is imported: companion.serve learns its
    # --host after importing the package.
    @property
    def LISTEN_HOST(self) -> str | None:  # noqa: N802 (a Flask setting's name)
        """The host the server is bound to, from ``COMPANION_LISTEN_HOST`` (None: unknown)."""
        return os.environ.get("COMPANION_LISTEN_HOST") or None

    # Optional passcode guarding the creation of games when the app is exposed beyond a home LAN.
    COMPANION_PASSCODE = os.environ.get("COMPANION_PASSCODE") or None
    # How many reverse proxies (nginx, Caddy) stand in front of the app: their
    # X-Forwarded-For/-Proto are trusted that many hops deep (werkzeug's ProxyFix), so the
    # passcode limit sees each phone's address and the app knows it is served over HTTPS.
    # 0 (the default): the headers are ignored (anyone could send them).
    TRUSTED_PROXIES = proxy_count(os.environ.get("TRUSTED_PROXIES", ""))
    # New phones (device ids in a session cookie) one address may make per 10 minutes: past
    # it, 429 (companion.access). A table of 12 with a few watchers fits many times over; a
    # load test from one machine raises it (0: no limit).
    NEW_DEVICES_PER_ADDRESS = int(os.environ.get("NEW_DEVICES_PER_ADDRESS", "").strip() or 60)

    def __init__(self) -> None:
        # Read lazily so that importing this module never writes to instance/.
        self.SECRET_KEY = secret_key()


class TestConfig(Config):
    """For the test suite: in-memory SQLite unless DATABASE_URL_TEST is given."""

    __test__ = False  # not a pytest test class, despite its name
    TESTING = True
    SQLALCHEMY_DATABASE_URI = os.environ.get("DATABASE_URL_TEST", "sqlite://")
    SQLALCHEMY_ENGINE_OPTIONS: dict = {}
    WTF_CSRF_ENABLED = False
    # every test client is a new phone from 127.0.0.1 (tests of the limit set their own)
    NEW_DEVICES_PER_ADDRESS = 100_000

    def __init__(self) -> None:
        self.SECRET_KEY = "test-secret"
