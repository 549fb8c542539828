"""Serving the app under gunicorn for the benchmark scripts (shared by web_bench and
history_bench): a free port and a server that is answering before timing starts."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(app_spec: str, env: dict[str, str], port: int, probe: str = "/") -> subprocess.Popen:
    """gunicorn with two workers serving ``app_spec`` (``module:factory()`` under
    benchmarks/), with ``env`` added to the environment; returns once ``probe`` answers.

    Raises RuntimeError when the server does not answer within 120 s.
    """
    full_env = {**os.environ, **env, "PYTHONPATH": str(ROOT / "benchmarks")}
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [str(gunicorn), "-w", "2", "-b", f"127.0.0.1:{port}", app_spec],
        cwd=ROOT,
        env=full_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return answering(process, port, probe)


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
