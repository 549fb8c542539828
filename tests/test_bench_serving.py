"""The benchmark servers (benchmarks/serving.py): timing starts once every gunicorn worker has
loaded and warmed up the app, not as soon as the first one answers (a fresh server's first
request was otherwise timed beside its other worker's warm-up, on the same cores)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from gunicorn.config import Config

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import serving  # noqa: E402
import serving_hooks  # noqa: E402


def worker(pid: int) -> SimpleNamespace:
    """A stand-in for a booted gunicorn worker: its pid and settings."""
    return SimpleNamespace(pid=pid, cfg=Config())


class BootingServer:
    """A stand-in for gunicorn's process: one more worker is up each time it is polled."""

    def __init__(self, ready: Path, exit_code: int | None = None) -> None:
        self.ready = ready
        self.exit_code = exit_code
        self.polls = 0
        self.terminated = False

    def poll(self) -> int | None:
        if self.exit_code is None:
            serving_hooks.post_worker_init(worker(1000 + self.polls))
        self.polls += 1
        return self.exit_code

    def terminate(self) -> None:
        self.terminated = True


def test_a_worker_leaves_its_mark_once_it_has_loaded_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv(serving_hooks.READY_DIR, str(tmp_path))
    serving_hooks.post_worker_init(worker(4242))
    assert [p.name for p in tmp_path.iterdir()] == ["4242"]


def test_timing_waits_for_every_worker(tmp_path, monkeypatch):
    monkeypatch.setenv(serving_hooks.READY_DIR, str(tmp_path))
    server = BootingServer(tmp_path)
    serving.workers_ready(server, tmp_path)  # type: ignore[arg-type]
    assert len(list(tmp_path.iterdir())) == serving.WORKERS
    assert server.polls == serving.WORKERS
    assert not server.terminated


def test_a_server_that_exits_while_booting_is_an_error(tmp_path):
    server = BootingServer(tmp_path, exit_code=3)
    with pytest.raises(RuntimeError, match="workers"):
        serving.workers_ready(server, tmp_path)  # type: ignore[arg-type]
    assert server.terminated
