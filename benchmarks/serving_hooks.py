"""gunicorn server hooks for the benchmark servers (``-c python:serving_hooks``, see
:func:`serving.serve`): each worker says when it has loaded the app, so that timing starts once
every worker of a fresh server is up, not while one of them is still warming up."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from companion.serve import prepare_worker

READY_DIR = "BENCH_READY_DIR"
"""Environment variable: the directory in which each booted worker leaves a file named by its
pid."""


def post_worker_init(worker: Any) -> None:
    """Called by gunicorn in a worker once the app is loaded (and warmed up), before it serves
    anything. Prepares it as ``make run``'s server does (:func:`companion.serve.prepare_worker`)
    first."""
    prepare_worker(worker)
    directory = os.environ.get(READY_DIR)
    if directory:
        Path(directory, str(worker.pid)).touch()
