"""Install the project's dependencies (with extras) from ``pyproject.toml`` into this Python.

``python scripts/install_deps.py postgres`` installs ``[project].dependencies`` plus the
``postgres`` extra. The project itself is not built or installed: it runs from the checkout
(``python -m companion.serve``, ``flask --app wsgi``), so no build backend runs, nothing is
fetched for an isolated build and setuptools has no warning to print. The Makefile runs this
only when pyproject.toml changed (a stamp file), so a second ``make run`` skips pip entirely.
Standard library only.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def requirements(project: dict, extras: list[str]) -> list[str]:
    """The requirement strings of ``project`` (a parsed ``[project]`` table) with ``extras``;
    an extra naming the project itself (``name[test]``) is expanded in place, once."""
    name = _normalise(project["name"])
    optional = project.get("optional-dependencies", {})
    wanted, seen = list(project.get("dependencies", [])), set()
    todo = list(extras)
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        if extra not in optional:
            raise SystemExit(f"pyproject.toml has no extra {extra!r}")
        seen.add(extra)
        for requirement in optional[extra]:
            own = re.fullmatch(r"\s*([A-Za-z0-9._-]+)\s*\[([^\]]+)\]\s*", requirement)
            if own and _normalise(own.group(1)) == name:
                todo += [e.strip() for e in own.group(2).split(",")]
            else:
                wanted.append(requirement)
    return list(dict.fromkeys(wanted))


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def main(argv: list[str]) -> int:
    """Install the dependencies with the extras named in ``argv``; pip's exit status."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    pip = [sys.executable, "-m", "pip", "install", "-q", *requirements(project, argv)]
    return subprocess.call(pip)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
