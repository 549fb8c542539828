"""Security headers: a Content-Security-Policy that allows the pinned htmx CDN script and the
inline fallback loader by hash, plus the usual hardening headers."""

from __future__ import annotations

import base64
import hashlib

from flask import Flask, Response, render_template, request

from .redact import is_edit_path, mask_logs

FALLBACK_TEMPLATE = "_htmx_fallback.js"


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def init_security(app: Flask) -> None:
    """Compute the CSP once and set it, with the other headers, on every response."""
    with app.app_context(), app.test_request_context():
        fallback = render_template(FALLBACK_TEMPLATE)
    app.config["HTMX_FALLBACK_SCRIPT"] = fallback
    csp = "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' {app.config['HTMX_CDN']} {_sha256(fallback)}",
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

    @app.after_request
    def _headers(response: Response) -> Response:
        if is_edit_path(request.path):
            # An edit link is a permission: no browser, proxy or shared-computer cache may
            # keep a page (or fragment) reached by one.
            response.headers["Cache-Control"] = "no-store"
        response.headers.setdefault("Content-Security-Policy", csp)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Permissions-Policy", "camera=(), microphone=(), geolocation=()"
        )
        return response
