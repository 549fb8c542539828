"""Export and import of a whole history, as ratios to reading the same JSON text.

Builds a demo history (:func:`companion.history.demo.generate`, the history benchmark's shape:
one night per ten games, 40 players) in a fresh SQLite database, then times in-process, on one
thread:

1. the export of everything (``export_document`` + ``dumps``, what the export page sends);
2. a re-import of that file into the same database (nothing is new: the most common import,
   a backup taken back in);
3. an import into an empty database (everything is new);
4. the reference, in the same run: ``json.loads`` of the same text (every import decodes it).

Each step is run ``--runs`` times (the imports on a fresh copy of the database each time);
the median is printed in seconds and as a ratio to the reference. What it leaves out: the
upload over HTTP and the web page's form (a few milliseconds), and PostgreSQL.

Usage::

    .venv/bin/python benchmarks/import_bench.py [--games 2000] [--runs 3] [--dir /tmp]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from companion import create_app  # noqa: E402
from companion.config import Config  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.history.demo import generate  # noqa: E402
from companion.services.exchange import export  # noqa: E402
from companion.services.exchange.importing import import_document  # noqa: E402


def app_on(path: Path):
    """The app on the SQLite file at ``path``, its schema at the head revision."""

    class BenchConfig(Config):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{path}"

        def __init__(self) -> None:
            self.SECRET_KEY = "import-bench"

    app = create_app(BenchConfig)
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
    return app


def median_seconds(step: Callable[[], object], runs: int) -> float:
    """The median wall time of ``runs`` calls of ``step``, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="import-bench-", dir=args.dir))
    try:
        full, empty = work / "full.db", work / "empty.db"
        built = time.perf_counter()
        app = app_on(full)
        with app.app_context():
            generate(db.session, games=args.games)
            db.session.commit()
        app_on(empty)
        print(f"{args.games} games built in {time.perf_counter() - built:.1f} s")

        def export_all() -> str:
            with app.app_context():
                return export.dumps(export.export_document(db.session))

        text = export_all()
        print(f"export: {len(text) / 1e6:.1f} MB of JSON")

        def import_into(source: Path) -> Callable[[], object]:
            def step() -> object:
                copy = work / "copy.db"
                shutil.copyfile(source, copy)
                target = app_on(copy)
                with target.app_context():
                    report = import_document(db.session, text)
                    assert not report.problems, report.problems[:3]
                    db.session.remove()
                with target.app_context():
                    db.engine.dispose()
                return report

            return step

        reference = median_seconds(lambda: json.loads(text), args.runs)
        rows = [
            ("export everything", median_seconds(export_all, args.runs)),
            ("re-import, nothing new", median_seconds(import_into(full), args.runs)),
            ("import into an empty history", median_seconds(import_into(empty), args.runs)),
        ]
        print(f"reference: json.loads of the file {reference:.3f} s")
        print("| step | seconds | x json.loads |")
        print("|---|---|---|")
        for name, seconds in rows:
            print(f"| {name} | {seconds:.2f} | {seconds / reference:.0f} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
