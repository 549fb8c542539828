"""A throwaway PostgreSQL server for the test run (RECIPES.md "PostgreSQL for tests").

:func:`postgres_server` initdb's a cluster into a temporary directory as the ``postgres`` user,
starts it on a free port on 127.0.0.1 (socket in the same directory, fsync off), creates the
database ``app`` and yields its SQLAlchemy URL; at the end it stops the server and removes the
directory. :func:`unavailable_reason` says why that cannot work here (no binaries, not root, no
psycopg), so the tests can skip with that reason. ``DATABASE_URL_PG`` points the tests at an
existing server instead.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def pg_bin() -> Path | None:
    """The newest /usr/lib/postgresql/<version>/bin with initdb and pg_ctl, or None."""

    def version(path: str) -> int:
        name = Path(path).parent.name
        return int(name) if name.isdigit() else 0

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version)
    for candidate in reversed(found):
        path = Path(candidate)
        if (path / "initdb").exists() and (path / "pg_ctl").exists():
            return path
    return None


def unavailable_reason() -> str | None:
    """None when a throwaway server can be started (or DATABASE_URL_PG is set), else why not."""
    if os.environ.get("DATABASE_URL_PG"):
        return None
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'psycopg[binary]')"
    if pg_bin() is None:
        return "PostgreSQL is not installed (/usr/lib/postgresql/*/bin; scripts/ensure-postgres.sh)"
    if os.geteuid() != 0:
        return "starting a throwaway PostgreSQL needs root (to run initdb as the postgres user)"
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return "there is no 'postgres' system user"
    if shutil.which("runuser") is None:
        return "runuser is missing"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_postgres(*args: str) -> None:
    subprocess.run(
        ["runuser", "-u", "postgres", "--", *args],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=60,
    )


@contextmanager
def postgres_server() -> Iterator[str]:
    """Yield ``postgresql+psycopg://postgres@127.0.0.1:PORT/app`` of a fresh server.

    Raises subprocess.CalledProcessError when initdb or pg_ctl fail (the caller decides).
    """
    given = os.environ.get("DATABASE_URL_PG")
    if given:
        yield given
        return
    binary = pg_bin()
    assert binary is not None, unavailable_reason()
    data = tempfile.mkdtemp(prefix="companion-pg-")
    shutil.chown(data, "postgres", "postgres")
    port = _free_port()
    started = False
    try:
        _as_postgres(
            str(binary / "initdb"), "-D", data, "-U", "postgres", "-A", "trust",
            "--no-sync", "-E", "UTF8", "--locale=C.UTF-8",
        )  # fmt: skip
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {data} -c fsync=off"
        _as_postgres(
            str(binary / "pg_ctl"), "-D", data, "-l", f"{data}/server.log", "-w", "-t", "30",
            "-o", options, "start",
        )  # fmt: skip
        started = True
        _as_postgres(str(binary / "createdb"), "-h", "127.0.0.1", "-p", str(port), "app")
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/app"
    finally:
        if started:
            subprocess.run(
                ["runuser", "-u", "postgres", "--", str(binary / "pg_ctl"), "-D", data,
                 "-m", "fast", "-w", "stop"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, check=False,
            )  # fmt: skip
        shutil.rmtree(data, ignore_errors=True)
