"""``python -m companion.serve``: serve the app with gunicorn on all interfaces, printing the
LAN address and a QR code of it so phones at the table can join."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

import segno
from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger
from gunicorn.http import get_parser

from .web.public_url import LOOPBACK, lan_addresses
from .web.redact import mask_logs


class MaskedLogger(Logger):
    """gunicorn's logger with capability tokens masked in its access and error logs (an edit
    link in a log is a permission to change the scores; :mod:`companion.web.redact`)."""

    def setup(self, cfg: Any) -> None:
        """Set gunicorn's logging up as usual, then mask tokens in both its logs."""
        super().setup(cfg)
        mask_logs(self.error_log, self.access_log)


#: threads per worker (gunicorn's gthread worker): a thread answers one request at a time;
#: idle keep-alive connections wait in the worker's poller and hold no thread. 8, not 4: with
#: 400 phones polling, 8 threads answered the polls at p95 2.7 s and 3.3 s where 4 took 12.5 s
#: and 5.8 s, in back-to-back runs on the same (heavily shared) machine; 3 or 4 workers did
#: worse than 2 (docs/PERFORMANCE.md, "A crowd at the table")
THREADS = 8
#: seconds an idle keep-alive connection stays open: longer than the live pages' poll (2 s)
#: plus a slow phone's delay, so a polling phone keeps its connection instead of racing the
#: server's close (gunicorn's default, 2 s, equals the poll: the close and the next poll cross;
#: measured: 2,502 connections closed under a polling phone in one 55 s run, none at 20 s)
KEEPALIVE = 20
#: connections waiting to be accepted (the listen queue): a whole room of phones opening the
#: page at once (gunicorn's default, 2048)
BACKLOG = 2048


#: a request parsed by each worker before it serves any (:func:`prepare_worker`)
SAMPLE_REQUEST = b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"


def prepare_worker(worker: Any) -> None:
    """gunicorn's ``post_worker_init`` hook: parse :data:`SAMPLE_REQUEST` with the worker's own
    HTTP parser and settings before it serves anything. gunicorn otherwise does two things on
    a worker's first request: it tries to import its optional C parser (``gunicorn_h1c``; when
    it is not installed that is a failed search of every ``sys.path`` entry) and it parses the
    trusted-proxy addresses (``forwarded_allow_ips``) into networks. Both results are kept for
    the worker's life, so the first phone to ask no longer waits for them (0.3 ms against
    0.08 ms for a later parse, measured; the app itself is warmed by ``companion.warm_up``)."""
    next(get_parser(worker.cfg, [SAMPLE_REQUEST], ("127.0.0.1", 0)))


def gunicorn_options(host: str, port: int, workers: int) -> dict[str, Any]:
    """The options ``make run`` serves with (the crowd benchmark starts the same)."""
    return {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": THREADS,
        "keepalive": KEEPALIVE,
        "backlog": BACKLOG,
        "accesslog": "-",
        "logger_class": MaskedLogger,
        "timeout": 120,  # a whole-history JSON export can take seconds on a busy machine
        # X-Forwarded-* are trusted by the app alone (TRUSTED_PROXIES, werkzeug's ProxyFix):
        # gunicorn's default trusts them from 127.0.0.1, so a phone on this machine could
        # claim HTTPS (issue 21)
        "forwarded_allow_ips": "",
        "post_worker_init": prepare_worker,
    }


class Gunicorn(BaseApplication):
    """gunicorn run from Python with options set here rather than on a command line."""

    def __init__(self, options: dict[str, Any], loader: Callable[[], Any] | None = None) -> None:
        self.options = options
        self.loader = loader  # builds the app in each worker; None: ``wsgi.app``
        super().__init__()

    def load_config(self) -> None:
        """Hand our options (bind, workers, threads, timeout, logs) to gunicorn."""
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        """The WSGI app, built in the worker: ``loader()``, else ``wsgi.app``."""
        if self.loader is not None:
            return self.loader()
        from wsgi import app

        return app


def upgrade_database() -> None:
    """Bring the database schema up to date (``flask db upgrade``) in this process, before
    gunicorn forks its workers: the app is imported once for both, which keeps a restart
    quick. The connections used are closed so no worker inherits one."""
    from flask_migrate import upgrade

    from wsgi import app

    from .extensions import db

    with app.app_context():
        upgrade()
        db.engine.dispose()


def listen_addresses(host: str) -> list[str]:
    """The addresses phones on the same Wi-Fi can open when the server listens on ``host``:
    every LAN address for all interfaces, none for a loopback address, else ``host`` itself."""
    if host in ("0.0.0.0", "", "::"):
        return lan_addresses()
    return [] if host in LOOPBACK else [host]


def _shown(host: str) -> str:
    """The address this machine opens for ``host`` (127.0.0.1 when listening everywhere)."""
    return "127.0.0.1" if host in ("0.0.0.0", "", "::") else host


def main() -> None:
    """Parse ``--host``/``--port``/``--workers``, print how to join, and serve."""
    parser = argparse.ArgumentParser(description="Serve Chicken Foot Companion on the LAN.")
    parser.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", "2")))
    args = parser.parse_args()
    # Config.LISTEN_HOST: links stay on the bound host. Set before the app is first built
    # (upgrade_database imports it; gunicorn's workers reuse that app): set after, the join
    # link and QR code pointed to a LAN address where nothing listens.
    os.environ["COMPANION_LISTEN_HOST"] = args.host
    upgrade_database()
    addresses = listen_addresses(args.host)
    print("\nChicken Foot Companion is starting.")
    print(f"  On this machine: http://{_shown(args.host)}:{args.port}/")
    if not addresses:
        print("  Only this machine can open it: phones on the Wi-Fi need HOST=0.0.0.0.")
    for address in addresses:
        url = f"http://{address}:{args.port}/"
        print(f"  On the same Wi-Fi: {url}")
    if addresses:
        print("  Scan to open it on a phone:")
        segno.make(f"http://{addresses[0]}:{args.port}/").terminal(compact=True)
    print()
    Gunicorn(gunicorn_options(args.host, args.port, args.workers)).run()


if __name__ == "__main__":
    main()
