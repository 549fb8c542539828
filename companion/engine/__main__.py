"""Command line: ``python -m companion.engine answer FILE``.

Reads a JSON file shaped like cases.json (``expected`` parts are ignored) and prints one JSON
object ``{"answers": {"<case id>": {...answer...}}}`` as UTF-8. A malformed question gets an error
answer and costs no other question its answer; the exit status is 0 whenever the file could be
read, 2 (with one line on standard error, never a traceback) when it could not.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .limits import read_json
from .questions import answer_document


def _read(path: str) -> Any:
    """The file's JSON (``-`` = standard input). Raises ValueError saying why it is unreadable."""
    try:
        if path == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as fh:
                raw = fh.read()
        return read_json(raw.decode("utf-8"))
    except OSError as exc:
        raise ValueError(exc.strerror or str(exc)) from None
    except UnicodeDecodeError:
        raise ValueError("it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise ValueError("it is nested too deeply to be a question file") from None


def _printable(answer: dict[str, Any]) -> str:
    """One answer as JSON, or an error answer if it cannot be written as UTF-8 (a guard: the
    engine refuses text it could not print, so this should never trigger)."""
    try:
        text = json.dumps(answer, ensure_ascii=False, indent=2)
        text.encode("utf-8")
    except (ValueError, RecursionError):
        error = {"code": "UNPRINTABLE", "message": "The answer cannot be written.", "where": ""}
        return json.dumps({"error": error}, indent=2)
    return text


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m companion.engine", description="Answer Chicken Foot rules questions."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    ans = sub.add_parser("answer", help="answer every case of a cases.json-shaped FILE")
    ans.add_argument("file", help="path to the JSON file, or - for standard input")
    args = parser.parse_args(argv)
    try:
        doc = _read(args.file)
    except ValueError as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    answers = answer_document(doc)
    # Each answer is written on its own, so that one that cannot be printed costs no other.
    body = ",\n".join(f"{json.dumps(key)}: {_printable(value)}" for key, value in answers.items())
    out = '{"answers": {\n' + body + "\n}}\n"
    sys.stdout.flush()
    sys.stdout.buffer.write(out.encode("utf-8"))
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
