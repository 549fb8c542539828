"""Fetch the pinned htmx into ``static/vendor`` (the local fallback for when the CDN cannot be
reached) and check it against its SRI hash. Standard library only; no npm needed.

Sources, first good one wins: ``npm pack`` when npm is on PATH (it honours the machine's npm
configuration), the npm registry's tarball over HTTPS, then the CDN file itself. Whatever the
source, the file is kept only if its SHA-384 matches the pinned SRI hash, so every source
yields the same bytes. When none works, one line says so and the exit status is still 0: the
app serves anyway, with htmx from the CDN.

Usage: ``python scripts/fetch_htmx.py OUT``. The version and SRI hash are pyproject.toml's
``[tool.companion.htmx]`` (the one home the app's config reads too); ``HTMX_VERSION`` and
``HTMX_SRI`` override them (tests), ``HTMX_REGISTRY`` and ``HTMX_CDN_BASE`` the sources.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import urllib.request
from collections.abc import Callable
from pathlib import Path

#: the pinned version and hash live in [tool.companion.htmx] of this file
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
#: where htmx sits in its npm package
MEMBER = "package/dist/htmx.min.js"
#: seconds to wait for each network source
TIMEOUT = 15
#: the largest download accepted (htmx.min.js is ~50 KB, its tarball ~220 KB)
MAX_BYTES = 5 * 1024 * 1024


def sri(data: bytes) -> str:
    """The ``sha384-...`` subresource-integrity hash of ``data``."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def from_tarball(data: bytes) -> bytes:
    """``htmx.min.js`` out of an npm package tarball."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        member = tar.extractfile(MEMBER)
        if member is None:
            raise OSError(f"{MEMBER} is not in the package")
        return member.read()


def download(url: str) -> bytes:
    """The body at ``url`` (at most :data:`MAX_BYTES`)."""
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        data = response.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise OSError(f"{url} is larger than expected")
    return data


def via_npm(version: str) -> bytes:
    """``npm pack htmx.org@version`` in a temporary directory."""
    npm = shutil.which("npm")
    if npm is None:
        raise OSError("npm is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [npm, "pack", f"htmx.org@{version}", "--silent"],
            cwd=tmp,
            check=True,
            capture_output=True,
            timeout=120,
        )
        tarball = next(Path(tmp).glob("htmx.org-*.tgz"))
        return from_tarball(tarball.read_bytes())


def sources(version: str) -> list[tuple[str, Callable[[], bytes]]]:
    """The sources to try, in order, each a (name, fetch) pair."""
    registry = os.environ.get("HTMX_REGISTRY", "https://registry.npmjs.org").rstrip("/")
    cdn = os.environ.get("HTMX_CDN_BASE", "https://cdn.jsdelivr.net/npm").rstrip("/")
    tarball = f"{registry}/htmx.org/-/htmx.org-{version}.tgz"
    return [
        ("npm", lambda: via_npm(version)),
        ("the npm registry", lambda: from_tarball(download(tarball))),
        ("the CDN", lambda: download(f"{cdn}/htmx.org@{version}/dist/htmx.min.js")),
    ]


def fetch(version: str, expected_sri: str) -> tuple[bytes | None, list[str]]:
    """The pinned file from the first source whose copy matches ``expected_sri``, and what
    went wrong with the sources tried before (or with all of them: ``None``)."""
    problems: list[str] = []
    for name, get in sources(version):
        try:
            data = get()
        except (OSError, subprocess.SubprocessError, tarfile.TarError, StopIteration) as exc:
            problems.append(f"{name}: {exc or type(exc).__name__}")
            continue
        if sri(data) != expected_sri:
            problems.append(f"{name}: hash mismatch")
            continue
        return data, problems
    return None, problems


def pinned() -> tuple[str, str]:
    """(version, SRI hash): the environment's ``HTMX_VERSION``/``HTMX_SRI`` if set, else
    pyproject.toml's ``[tool.companion.htmx]``."""
    with PYPROJECT.open("rb") as file:
        pin = tomllib.load(file)["tool"]["companion"]["htmx"]
    version = os.environ.get("HTMX_VERSION") or pin["version"]
    return version, os.environ.get("HTMX_SRI") or pin["sri"]


def main(argv: list[str]) -> int:
    """Write the file to ``argv[0]``; always 0 (a missing local copy must not stop serving)."""
    out = Path(argv[0] if argv else "static/vendor/htmx.min.js")
    version, expected = pinned()
    data, problems = fetch(version, expected)
    if data is None:
        print(
            f"htmx {version}: no local fallback copy ({'; '.join(problems)}); "
            "serving anyway, pages load htmx from the CDN.",
            file=sys.stderr,
        )
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(out)
    print(f"htmx {version} -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
