"""The picture of a game night's result to share: a 1200x630 PNG drawn with Pillow.

1200x630 pixels is the size link previews (Open Graph ``og:image``) show without cropping.
The card holds the night's date and place, the sets played, who won the night and the
night's standings (games won and points, lower is better), in the reader's language. The
same words are written into the PNG's text chunks (``Title``, ``Description``), so the
picture says what it shows to whoever cannot see it (and a test can read the winner).

Text is drawn with DejaVu Sans, shipped in ``static/fonts`` (free licence, Latin, Cyrillic,
Lithuanian and Czech letters); when those files are missing the system's DejaVu
(Debian ``fonts-dejavu-core``) is used.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import date
from functools import lru_cache
from pathlib import Path

from flask_babel import format_date, ngettext
from flask_babel import gettext as _
from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from ..config import ROOT
from .night_story import NightLine, StoryGame, name_list, night_standings

#: the picture's size in pixels (the Open Graph preview's 1.91:1)
WIDTH, HEIGHT = 1200, 630
#: the most players listed; more are summed up as "and N more"
MAX_LINES = 6
MARGIN = 60
#: colours: the app's dark green band, cream paper, ink, muted ink, gold for the winner
BAND, PAPER, INK, MUTED, GOLD = "#1d4d3b", "#fbf7ee", "#1b1b1b", "#5b5b5b", "#b8860b"

#: where DejaVu Sans is looked for, first found wins: the shipped copy, then system places
FONT_DIRS = (
    ROOT / "static" / "fonts",
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts"),
)


class FontMissing(RuntimeError):
    """No DejaVu Sans file was found in :data:`FONT_DIRS`."""


@lru_cache(maxsize=16)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold or regular) at ``size`` pixels."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).is_file():
            return ImageFont.truetype(str(folder / name), size)
    raise FontMissing(f"{name} not found in {', '.join(str(d) for d in FONT_DIRS)}")


def _fit(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` cut with an ellipsis so it is at most ``width`` pixels wide."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


#: the headline's largest font size in pixels, and the sizes it may shrink to (largest first)
HEADLINE_SIZES = tuple(range(58, 23, -2))
#: below this size a headline too long for one line wraps onto two rather than shrinking further
TWO_LINES_BELOW = 46
HEADLINE_TOP = 148


def _wrap(text: str, face: ImageFont.FreeTypeFont, width: int, most: int) -> list[str] | None:
    """``text`` broken between words into at most ``most`` lines each at most ``width``
    pixels wide, or None when it does not fit."""
    out: list[str] = []
    for word in text.split(" "):
        joined = f"{out[-1]} {word}" if out else word
        if out and face.getlength(joined) <= width:
            out[-1] = joined
        elif face.getlength(word) <= width and len(out) < most:
            out.append(word)
        else:
            return None
    return out


def headline_layout(text: str, width: int) -> tuple[int, list[str]]:
    """The headline's font size (pixels) and lines so that the whole sentence shows within
    ``width`` pixels: every tied winner and the verb ("Вечер делят: …", "… teilen sich den
    Abend"). It shrinks first, then wraps onto two lines; only a sentence too long even then
    is cut with an ellipsis (a cut once hid a shared winner)."""
    for size in HEADLINE_SIZES:
        face = font(size, True)
        fitted = _wrap(text, face, width, 1 if size >= TWO_LINES_BELOW else 2)
        if fitted:
            return size, fitted
    size = HEADLINE_SIZES[-1]
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    return size, [_fit(draw, text, font(size, True), width)]


def headline(lines: Sequence[NightLine]) -> str:
    """Who won the night, in words (most games won; a tie names everyone level)."""
    if not lines:
        return _("No finished games")
    top = [ln.name for ln in lines if ln.wins == lines[0].wins]
    if len(top) > 1:
        return _("%(names)s share the night", names=name_list(top))
    return _("%(name)s won the night", name=top[0])


def _detail(line: NightLine) -> str:
    wins = ngettext("%(num)s win", "%(num)s wins", line.wins)
    games = ngettext("%(num)s game", "%(num)s games", line.games)
    points = ngettext("%(num)s point", "%(num)s points", line.points)
    return f"{wins} · {games} · {points}"


def draw_card(played_on: date, place: str, games: Sequence[StoryGame]) -> bytes:
    """The night's card as PNG bytes (needs an app context for the reader's language)."""
    lines = night_standings(games)
    sets = sorted({g.set_size for g in games})
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN

    draw.rectangle((0, 0, WIDTH, 120), fill=BAND)
    title = _("Chicken Foot · game night")
    draw.text((MARGIN, 28), _fit(draw, title, font(30), inner), font=font(30), fill="#dfe9e4")
    when = format_date(played_on, "long")
    draw.text((MARGIN, 66), _fit(draw, when, font(34, True), inner), font=font(34, True),
              fill="white")  # fmt: skip

    top = headline(lines)
    size, top_lines = headline_layout(top, inner)
    y = HEADLINE_TOP
    for text in top_lines:
        draw.text((MARGIN, y), text, font=font(size, True), fill=GOLD)
        y += round(size * 1.2)
    below = max(0, y - HEADLINE_TOP - 70)  # how far a wrapped headline pushes the rest down
    facts = [place] if place else []
    facts.append(", ".join(_("double-%(n)s", n=n) for n in sets))
    facts.append(ngettext("%(num)s game", "%(num)s games", len(games)))
    sub = " · ".join(f for f in facts if f)
    draw.text((MARGIN, 228 + below), _fit(draw, sub, font(30), inner), font=font(30), fill=MUTED)

    shown = lines if len(lines) <= MAX_LINES else lines[: MAX_LINES - 1]
    y = 290 + below
    rows = len(shown) + (len(shown) < len(lines))
    step = min(52, (HEIGHT - 10 - y) // max(rows, 1))  # a wrapped headline: rows a bit closer
    for i, line in enumerate(shown):
        face = font(36, bold=i == 0)
        draw.text((MARGIN, y), f"{i + 1}.", font=face, fill=MUTED)
        detail = _detail(line)
        detail_w = int(draw.textlength(detail, font=font(32)))
        draw.text((WIDTH - MARGIN - detail_w, y + 3), detail, font=font(32), fill=INK)
        name_w = inner - 70 - detail_w - 30
        draw.text((MARGIN + 70, y), _fit(draw, line.name, face, name_w), font=face, fill=INK)
        y += step
    if len(shown) < len(lines):
        more = ngettext("and %(num)s more player", "and %(num)s more players",
                        len(lines) - len(shown))  # fmt: skip
        draw.text((MARGIN + 70, y + 4), more, font=font(30), fill=MUTED)

    info = PngInfo()
    info.add_itxt("Title", f"{title} · {when}")
    info.add_itxt("Headline", "\n".join(top_lines))  # as drawn: a test sees nothing was cut
    info.add_itxt("Description", " · ".join([top, sub, *(f"{ln.name}: {_detail(ln)}"
                                                        for ln in lines)]))  # fmt: skip
    out = io.BytesIO()
    # zlib's default level without Pillow's optimize pass: 4x faster (0.13 s instead of 0.55 s
    # on the shared machine) for a file 4 % larger
    image.save(out, "PNG", pnginfo=info, compress_level=6)
    return out.getvalue()
