"""Security headers: a Content-Security-Policy that allows the app's own scripts and the pinned
htmx CDN script (no inline script at all: the local fallback loader is static/js), plus the
usual hardening headers, ``Cache-Control: no-store`` on every page that carries a secret
(:func:`companion.web.redact.carries_secret`), and ``Strict-Transport-Security`` when the app knows
it is served over HTTPS. Behind reverse proxies (``TRUSTED_PROXIES``), werkzeug's ProxyFix
takes the phone's address and the scheme from the proxies' headers."""

from __future__ import annotations

from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

from .redact import carries_secret, mask_logs

#: HSTS over HTTPS: a year, as browsers' preload lists expect (subdomains are not the app's)
HSTS = "max-age=31536000"


def init_security(app: Flask) -> None:
    """Compute the CSP once and set it, with the other headers, on every response."""
    csp = "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' {app.config['HTMX_CDN']}",
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "font-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )

    mask_logs(app.logger)
    hops = int(app.config.get("TRUSTED_PROXIES") or 0)
    if hops:
        # Only the proxies' own X-Forwarded-For/-Proto (the last ``hops`` entries); never
        # X-Forwarded-Host: a proxy that passes the phone's header on would let it choose the
        # host the share page's links are built from (PUBLIC_URL / TRUSTED_HOSTS decide that).
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    https_url = str(app.config.get("PUBLIC_URL") or "").startswith("https://")

    @app.after_request
    def _headers(response: Response) -> Response:
        if carries_secret(request.path):
            # An edit link, a joined seat, a join secret is a permission: no browser, proxy or
            # shared-computer cache may keep a page (or fragment) that carries one.
            response.headers["Cache-Control"] = "no-store"
        if request.is_secure or https_url:
            response.headers.setdefault("Strict-Transport-Security", HSTS)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if _is_passive(response):
            return response
        response.headers.setdefault("X-Frame-Options", "DENY")
        if _is_static_image(response):
            response.headers.setdefault("Content-Security-Policy", IMAGE_POLICY)
            return response
        response.headers.setdefault("Content-Security-Policy", csp)
        response.headers.setdefault(
            "Permissions-Policy", "camera=(), microphone=(), geolocation=()"
        )
        return response


#: static files that are never a document: a policy of what a document may load, frame or use
#: means nothing on them (an SVG can be opened as a document, so it keeps the policy)
PASSIVE_TYPES = ("text/javascript", "application/javascript", "text/css", "image/png")
#: answers of any address that are never a document either: the web app manifest
PASSIVE_ANSWERS = ("application/manifest+json",)
#: the policy of a static SVG opened as a document: it may load and run nothing, and be framed
#: nowhere (the app's own icons need nothing; about 300 bytes less than the page's policy and
#: Permissions-Policy on the favicon of every first visit, issue 26)
IMAGE_POLICY = "default-src 'none'; frame-ancestors 'none'"


def _is_passive(response: Response) -> bool:
    """A static script, style sheet or raster image, the manifest, or an answer without a
    body (204: the scorekeeper's poll every few seconds while nothing changed): sent without
    the document's policy headers, about 300 bytes less on each (issue 26: at most 30 KB a
    first visit)."""
    if response.status_code == 204 or response.mimetype in PASSIVE_ANSWERS:
        return True
    return request.endpoint == "static" and response.mimetype in PASSIVE_TYPES


def _is_static_image(response: Response) -> bool:
    """A static SVG (an icon): a document when opened on its own, but one of shapes only."""
    return request.endpoint == "static" and response.mimetype == "image/svg+xml"
