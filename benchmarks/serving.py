"""Serving the app under gunicorn for the benchmark scripts (shared by web_bench and
history_bench): a free port and a server that is answering before timing starts."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import serving_hooks

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


WORKERS = 2
"""gunicorn workers per benchmark server (one per core of the reference machine)."""


def serve(app_spec: str, env: dict[str, str], port: int, probe: str = "/") -> subprocess.Popen:
    """gunicorn with :data:`WORKERS` workers serving ``app_spec`` (``module:factory()`` under
    benchmarks/), with ``env`` added to the environment; returns once ``probe`` answers and
    every worker has loaded (and warmed up) the app. Returning as soon as one worker answers
    timed a fresh server's first request while its other worker was still warming up on the
    same cores (seen at 50,000 games: a game page's first request 27 ms of which 19 ms CPU,
    the other worker ready 46 ms after it started).

    Raises RuntimeError when the server does not answer within 120 s.
    """
    ready = Path(tempfile.mkdtemp(prefix="bench-ready-"))
    full_env = {
        **os.environ,
        **env,
        "PYTHONPATH": str(ROOT / "benchmarks"),
        serving_hooks.READY_DIR: str(ready),
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [str(gunicorn), "-c", "python:serving_hooks", "-w", str(WORKERS)]
        + ["-b", f"127.0.0.1:{port}", app_spec],
        cwd=ROOT,
        env=full_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        answering(process, port, probe)
        workers_ready(process, ready)
    finally:
        shutil.rmtree(ready, ignore_errors=True)
    return process


def workers_ready(process: subprocess.Popen, ready: Path) -> None:
    """Wait until :data:`WORKERS` workers have left their mark in ``ready`` (see
    :mod:`serving_hooks`). Raises RuntimeError (and stops ``process``) after 120 s."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if len(list(ready.iterdir())) >= WORKERS:
            return
        time.sleep(0.05)
    process.terminate()
    raise RuntimeError(f"gunicorn did not start {WORKERS} workers in 120 s")


def answering(process: subprocess.Popen, port: int, probe: str = "/") -> subprocess.Popen:
    """``process`` once it answers ``probe`` on ``port`` (any HTTP status counts).

    Raises RuntimeError (and stops ``process``) when it does not answer within 120 s.
    """
    deadline = time.monotonic() + 120  # workers compile templates before they answer
    while time.monotonic() < deadline and process.poll() is None:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{probe}", timeout=30).read()
            return process
        except urllib.error.HTTPError:  # it answers, even if not with 200
            return process
        except (urllib.error.URLError, OSError):  # refused, reset or timed out: not up yet
            time.sleep(0.2)
    process.terminate()
    raise RuntimeError("gunicorn did not start in 120 s")
