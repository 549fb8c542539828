"""``python -m companion.serve``: serve the app with gunicorn on all interfaces, printing the
LAN address and a QR code of it so phones at the table can join."""

from __future__ import annotations

import argparse
import os
from typing import Any

import segno
from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger

from .public_url import lan_addresses
from .redact import mask_logs


class MaskedLogger(Logger):
    """gunicorn's logger with capability tokens masked in its access and error logs (an edit
    link in a log is a permission to change the scores; :mod:`companion.redact`)."""

    def setup(self, cfg: Any) -> None:
        """Set gunicorn's logging up as usual, then mask tokens in both its logs."""
        super().setup(cfg)
        mask_logs(self.error_log, self.access_log)


class _Gunicorn(BaseApplication):
    """gunicorn run from Python with options set here rather than on a command line."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        """Hand our options (bind, workers, threads, timeout, logs) to gunicorn."""
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        """The WSGI app, imported in the worker (``wsgi.app``)."""
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


def main() -> None:
    """Parse ``--host``/``--port``/``--workers``, print how to join, and serve."""
    parser = argparse.ArgumentParser(description="Serve Chicken Foot Companion on the LAN.")
    parser.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", "2")))
    args = parser.parse_args()
    upgrade_database()
    addresses = lan_addresses() if args.host in ("0.0.0.0", "") else [args.host]
    print("\nChicken Foot Companion is starting.")
    print(f"  On this machine: http://127.0.0.1:{args.port}/")
    for address in addresses:
        url = f"http://{address}:{args.port}/"
        print(f"  On the same Wi-Fi: {url}")
    if addresses:
        print("  Scan to open it on a phone:")
        segno.make(f"http://{addresses[0]}:{args.port}/").terminal(compact=True)
    print()
    _Gunicorn(
        {
            "bind": f"{args.host}:{args.port}",
            "workers": args.workers,
            "threads": 4,
            "accesslog": "-",
            "logger_class": MaskedLogger,
            "timeout": 120,  # a whole-history JSON export can take seconds on a busy machine
            # X-Forwarded-* are trusted by the app alone (TRUSTED_PROXIES, werkzeug's
            # ProxyFix): gunicorn's default trusts them from 127.0.0.1, so a phone on this
            # machine could claim HTTPS (issue 21)
            "forwarded_allow_ips": "",
        }
    ).run()


if __name__ == "__main__":
    main()
