"""Nothing unused is declared (issue 23): every runtime dependency of pyproject.toml is
imported by the app (or is a server or codec it runs through), and every setting of
``Config`` is read by the app or belongs to a library the app uses."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from companion.config import Config

ROOT = Path(__file__).resolve().parents[1]
#: used without an import of their own: gunicorn serves the app (companion/serve.py starts
#: it as a command), Brotli is the codec Flask-Compress loads
NOT_IMPORTED = {"gunicorn", "brotli"}
#: settings read by Flask and the extensions the app uses, by prefix or name
LIBRARY_SETTINGS = re.compile(
    r"(SQLALCHEMY_|WTF_|SESSION_COOKIE_|BABEL_|COMPRESS_)\w+|TESTING|SECRET_KEY|"
    r"MAX_CONTENT_LENGTH|PERMANENT_SESSION_LIFETIME|TRUSTED_HOSTS"
)


def sources(*, leave_out: Path | None = None) -> str:
    """The app's code and templates (but ``leave_out``), as one text."""
    files = [*ROOT.glob("companion/**/*.py"), *ROOT.glob("templates/**/*.html"), ROOT / "wsgi.py"]
    return "\n".join(path.read_text("utf-8") for path in files if path != leave_out)


def canonical(name: str) -> str:
    """A distribution's name as PEP 503 compares them (``jsonschema_rs`` is ``jsonschema-rs``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_dependency_is_imported():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    modules = importlib.metadata.packages_distributions()
    by_dist: dict[str, set[str]] = {}
    for module, dists in modules.items():
        for dist in dists:
            by_dist.setdefault(canonical(dist), set()).add(module)
    code = sources()
    unused = []
    for requirement in declared["dependencies"]:
        name = canonical(re.split(r"[<>=\[ ;]", requirement)[0])
        if name in NOT_IMPORTED:
            continue
        imports = by_dist.get(name, set())
        if not any(re.search(rf"^\s*(from|import) {m}\b", code, re.M) for m in imports):
            unused.append(name)
    assert unused == []


def test_every_setting_is_read():
    others = sources(leave_out=ROOT / "companion" / "config.py")
    unread = [
        name
        for name in vars(Config)
        if name.isupper()
        and not LIBRARY_SETTINGS.fullmatch(name)
        and not re.search(rf"\b{name}\b", others)
    ]
    assert unread == []
