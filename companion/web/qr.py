"""QR codes of the game's links, and the join QR code and link of the scorekeeper's page (one
home: the games blueprint draws them on the game page and the table blueprint's poll sends
them again when the join secret changed)."""

from __future__ import annotations

import segno
from flask_babel import gettext as _

from ..access import join_link
from ..models import Game
from .languages import with_language
from .public_url import public_url


def qr_svg(url: str, title: str) -> str:
    """``url`` as an inline SVG QR code (segno): black on white in every colour scheme so any
    camera reads it; no style attributes (the CSP forbids them), sized by CSS class ``qr``."""
    code = segno.make(url, error="m")
    return code.svg_inline(
        scale=4,
        dark="#000",
        light="#fff",
        svgclass="qr",
        lineclass=None,
        omitsize=True,
        title=title,
    )


def join_box(game: Game) -> dict[str, str]:
    """The join link and its QR code for the game page ("Players: join on your phone")."""
    link = public_url(with_language(join_link(game)))
    return {"join_link": link, "join_qr": qr_svg(link, _("QR code to join the game"))}
