"""Absolute links that other phones can open: the share page's links and QR codes.

An absolute link needs a scheme and a host. Taking them from the request's ``Host`` header as
it comes would let whoever sends the request choose where the links point (a DNS-rebinding
page, a poisoned proxy cache): a QR code of ``http://evil.example/g/<edit token>`` hands the
edit permission to that host. So the base of every absolute link is, in order:

1. ``PUBLIC_URL`` when configured (the address behind a reverse proxy, e.g.
   ``https://scores.example.org``);
2. the request's host when it is trusted: Flask's ``TRUSTED_HOSTS`` when configured (Flask then
   refuses every other host with 400), else this machine's own addresses, the ones ``make run``
   prints (loopback and LAN IPv4); a loopback address is swapped for the LAN address, as
   phones cannot reach "localhost";
3. otherwise this machine's LAN address and the port the server listens on, never the
   untrusted host.
"""

from __future__ import annotations

import socket
import subprocess
from functools import lru_cache
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, request
from flask_babel import gettext as _
from werkzeug.wsgi import host_is_trusted

#: host names and addresses of this machine itself
LOOPBACK = ("localhost", "127.0.0.1", "::1")


def lan_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses, without sending any traffic."""
    found: list[str] = []
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout
        found = [a for a in out.split() if a.count(".") == 3 and not a.startswith("127.")]
    except (OSError, subprocess.SubprocessError):
        pass
    if not found:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
            ips = {str(info[4][0]) for info in infos}
            found = sorted(ip for ip in ips if not ip.startswith("127."))
        except OSError:
            pass
    return found


@lru_cache(maxsize=1)
def machine_addresses() -> tuple[str, ...]:
    """This machine's LAN addresses, looked up once per process (the first is the one shown)."""
    return tuple(lan_addresses())


def check_public_url(value: str | None) -> str | None:
    """``value`` without a trailing slash when it is an ``http(s)://host[:port][/path]`` URL,
    None when empty.

    Raises:
        ValueError: naming the setting, for anything else (a typo must stop the start, not
            print wrong QR codes all evening).
    """
    if not value or not value.strip():
        return None
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"PUBLIC_URL must look like https://scores.example.org (got {value!r})")
    return value.strip().rstrip("/")


def init_public_url(app: Flask) -> None:
    """Check ``PUBLIC_URL`` once, when the app is made."""
    app.config["PUBLIC_URL"] = check_public_url(app.config.get("PUBLIC_URL"))


def trusted_hosts() -> list[str]:
    """The hosts links may be built from: ``TRUSTED_HOSTS`` when configured, else loopback
    and this machine's LAN addresses; plus ``PUBLIC_URL``'s host."""
    configured = current_app.config.get("TRUSTED_HOSTS")
    hosts = list(configured) if configured else [*LOOPBACK, *machine_addresses()]
    public = current_app.config.get("PUBLIC_URL")
    if public:
        hosts.append(urlsplit(public).hostname or "")
    return hosts


def _with_port(host: str, port: str | int | None) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"{shown}:{port}" if port and str(port) not in ("80", "443") else shown


def public_base() -> tuple[str, bool]:
    """The scheme and host (and path) absolute links start with, and whether the request's own
    host was set aside as untrusted.

    Raises:
        werkzeug.exceptions.BadRequest: (400, in words) when the host is untrusted and this
            machine has no LAN address to use instead.
    """
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return configured, False
    hostname = (urlsplit(request.host_url).hostname or "").lower()
    # served on a loopback address only (HOST=127.0.0.1): no LAN address answers
    lan = [] if current_app.config.get("LISTEN_HOST") in LOOPBACK else machine_addresses()
    if hostname in LOOPBACK and lan:
        port = urlsplit(request.host_url).port
        return f"{request.scheme}://{_with_port(lan[0], port)}", False
    if host_is_trusted(request.host, trusted_hosts()):
        return request.host_url.rstrip("/"), False
    if not lan:
        abort(
            400,
            description=_(
                "This page was opened at an address the server does not know, so it cannot "
                "make links for other phones. Open it at the address shown when the server "
                "started, or ask whoever runs it to set PUBLIC_URL."
            ),
        )
    port = request.environ.get("SERVER_PORT")
    return f"{request.scheme}://{_with_port(lan[0], port)}", True


def public_url(path: str, base: str | None = None) -> str:
    """``path`` (from ``url_for``) as an absolute URL other phones can open (see the module),
    on ``base`` when given (from :func:`public_base`). ``PUBLIC_URL`` is the address of the
    app's home page, so a mount point (``SCRIPT_NAME``) is not repeated after it."""
    base = base or public_base()[0]
    root = request.script_root
    if current_app.config.get("PUBLIC_URL") and root and path.startswith(root + "/"):
        path = path[len(root) :]
    return base + path
