"""Flask CLI commands (``flask --app wsgi ...``).

* ``export --format json|csv [--game ID | --night ID] [-o FILE]``: the history as JSON (to
  rebuild the games elsewhere) or CSV (one row per player per round); everything by default.
* ``import FILE``: add a JSON export's new nights, games and players (``-`` reads stdin); prints
  a report and exits with status 1, importing nothing, when the file is refused.
* ``demo-data --games N``: realistic finished games for trying the app.
* ``count-pips PHOTO...``: one JSON object per photo, ``{"photo", "pips", "tiles", "unread",
  "confidence"}`` (or ``"error"``); exits with status 1 when a photo could not be read.
"""

from __future__ import annotations

import click
from flask import Flask, current_app

from .extensions import db
from .ids import ID_MAX


def init_cli(app: Flask) -> None:
    """Register the project's commands. Areas add their own commands here."""
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
    app.cli.add_command(demo_data_command)
    app.cli.add_command(count_pips_command)


#: a row id on the command line: bounded like every id (companion.ids.ID_MAX)
_ID = click.IntRange(1, ID_MAX)


@click.command("export")
@click.option(
    "--format", "fmt", type=click.Choice(["json", "csv"]), default="json", show_default=True
)
@click.option("--game", "game_id", type=_ID, help="Only this game (its id).")
@click.option("--night", "night_id", type=_ID, help="Only this game night (its id).")
@click.option(
    "-o", "--output", type=click.File("w", encoding="utf-8"), default="-", help="Default: stdout."
)
def export_command(fmt: str, game_id: int | None, night_id: int | None, output) -> None:
    """Export the history (everything, one night or one game) as JSON or CSV."""
    from .services.exchange import export as exchange

    if game_id is not None and night_id is not None:
        raise click.UsageError("Give --game or --night, not both.")
    try:
        if fmt == "json":
            doc = exchange.export_document(db.session(), game_id=game_id, night_id=night_id)
            output.write(exchange.dumps(doc))
        else:
            for chunk in exchange.iter_csv(db.session(), game_id=game_id, night_id=night_id):
                output.write(chunk)
    except exchange.NotFound as exc:
        raise click.ClickException(str(exc)) from exc


@click.command("import")
@click.argument("file", type=click.File("rb"))
def import_command(file) -> None:
    """Import a JSON export: adds only what is new; refuses (and imports nothing) on problems."""
    from .services.exchange.importing import import_document

    report = import_document(db.session(), file.read())
    for line in report.lines():
        click.echo(line, err=not report.ok)
    if not report.ok:
        raise SystemExit(1)


@click.command("demo-data")
@click.option("--games", type=click.IntRange(1, 100_000), default=200, show_default=True)
@click.option("--nights", type=click.IntRange(1, 20_000), default=None, help="Default: games/10.")
@click.option("--players", type=click.IntRange(3, 1000), default=40, show_default=True)
@click.option("--seed", type=int, default=2026, show_default=True)
def demo_data_command(games: int, nights: int | None, players: int, seed: int) -> None:
    """Add realistic finished games (scored by the engine) to try the history pages."""
    from .history.demo import generate

    summary = generate(db.session(), games=games, nights=nights, players=players, seed=seed)
    click.echo(
        f"Added {summary.games} games over {summary.nights} nights "
        f"({summary.rounds} rounds, {summary.hands} hands) among {summary.players} players."
    )


@click.command("count-pips")
@click.argument("photos", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--max-pips",
    type=click.IntRange(1, 18),
    default=18,
    show_default=True,
    help="The set's highest half (12 for double-12).",
)
def count_pips_command(photos: tuple[str, ...], max_pips: int) -> None:
    """Count the pips in each photo; prints one JSON object per line (as POST /api/v1/pips)."""
    import json
    from pathlib import Path

    from .pips import MAX_BYTES, PhotoError, count_pips
    from .services.hand_photo import problem_message

    failed = False
    for name in photos:
        line: dict = {"photo": name}
        try:
            with Path(name).open("rb") as stream:
                data = stream.read(MAX_BYTES + 1)  # one byte over the limit is enough to refuse
            reading = count_pips(data, max_pips)
        except OSError as exc:
            failed = True
            line["error"] = {"code": "UNREADABLE_FILE", "message": exc.strerror or str(exc)}
        except PhotoError as exc:
            failed = True
            with current_app.test_request_context():  # the messages are translated per request
                message = problem_message(exc)
            line["error"] = {"code": exc.problem.value, "message": message}
        else:
            line.update(
                pips=reading.total,
                tiles=[t.text for t in reading.read_tiles],
                unread=len(reading.unread),
                confidence=reading.confidence,
            )
        click.echo(json.dumps(line, ensure_ascii=False))
    if failed:
        raise SystemExit(1)
