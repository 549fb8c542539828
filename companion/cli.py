"""Flask CLI commands (``flask --app wsgi ...``)."""

from __future__ import annotations

from flask import Flask


def init_cli(app: Flask) -> None:
    """Register the project's commands. Areas add their own commands here."""
