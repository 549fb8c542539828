"""Each gunicorn worker of ``make run`` (and of the benchmarks) does ahead what gunicorn
otherwise does on its first request: look for its optional C parser and parse the trusted
proxies' addresses (docs/PERFORMANCE.md: the ratings API's cold request)."""

from __future__ import annotations

from types import SimpleNamespace

from gunicorn.config import Config
from gunicorn.http import message

from companion.serve import gunicorn_options, prepare_worker


def test_the_served_workers_are_prepared_before_serving():
    assert gunicorn_options("127.0.0.1", 8000, 2)["post_worker_init"] is prepare_worker


def test_a_prepared_worker_has_nothing_left_to_look_up_on_its_first_request(monkeypatch):
    monkeypatch.setattr(message, "_fast_parser_available", None)  # as in a fresh worker
    cfg = Config()
    cfg.set("forwarded_allow_ips", "127.0.0.1")
    assert cfg._forwarded_allow_networks is None
    prepare_worker(SimpleNamespace(cfg=cfg))
    assert message._fast_parser_available is not None  # the C parser was looked for
    assert cfg._forwarded_allow_networks is not None  # the proxies' networks are parsed
