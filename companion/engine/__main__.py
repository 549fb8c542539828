"""Command line: ``python -m companion.engine answer FILE``.

Reads a JSON file shaped like cases.json (``expected`` parts are ignored) and prints one JSON
object ``{"answers": {"<case id>": {...answer...}}}``. A malformed question gets an error answer;
the exit status is 0 whenever the file could be read, 2 when it could not.
"""

from __future__ import annotations

import argparse
import json
import sys

from .questions import answer_document


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
        if args.file == "-":
            doc = json.load(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as fh:
                doc = json.load(fh)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    json.dump({"answers": answer_document(doc)}, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
