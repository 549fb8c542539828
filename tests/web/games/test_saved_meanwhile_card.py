"""The card of a round saved meanwhile with other values, as a fresh tester read it at 360 px
(the outbox's entry: static/js/offline.js; the round area's: templates/games/_round_area.html):

* its words name what the scorekeeper sees below them, the button "Put mine back in the form"
  (in every language by that button's own name), not "the link below";
* the saved round's list starts at the top of its box (no empty line where the heading the
  outbox takes away was);
* "Open the round as saved" (a link drawn as a button) and the two real buttons beside it are
  in one font: a button takes the page's, not the browser's own."""

from __future__ import annotations

import html
import re

import pytest

from tests.web.games.test_keeper_page_findings import DE, saved_elsewhere_then_mine
from tests.web.playkit import make_game

pytestmark = pytest.mark.usefixtures("fresh_translations")


def attribute(page: str, name: str) -> str:
    (value,) = re.findall(rf'{name}="([^"]*)"', page)
    return html.unescape(value)


@pytest.mark.parametrize("headers", [{}, DE], ids=["en", "de"])
def test_the_keepers_words_name_the_put_mine_back_button(client, headers) -> None:
    game = make_game()
    r = saved_elsewhere_then_mine(client, game, headers, totals={"Bob": 9, "Cy": 7}, out="Ann")
    page = r.get_data(as_text=True)
    words = attribute(page, "data-saved-other-keeper")
    button = attribute(page, "data-put-back")
    assert f">{button}</button>" in page  # the round area's button has the same name
    assert button in words
    assert "link" not in words.lower() and "Link" not in words
    if not headers:
        assert words.endswith("If yours is right, tap Put mine back in the form.")


def rule(css: str, selector: str) -> str:
    """The declarations of the first rule whose selector list holds ``selector``."""
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        if selector in [s.strip() for s in selectors.split(",")]:
            return body
    raise AssertionError(selector)


def test_buttons_and_links_drawn_as_buttons_share_the_pages_font(client) -> None:
    css = client.get("/static/css/app.css").get_data(as_text=True)
    shared = rule(css, "button")
    assert rule(css, ".button") == shared  # one rule for both
    assert "font-family:inherit" in shared.replace(" ", "")


def test_the_saved_rounds_list_starts_at_the_top_of_its_box(client) -> None:
    css = client.get("/static/css/app.css").get_data(as_text=True)
    assert "margin:4px 0" in rule(css, ".outbox-answer ul").replace(": ", ":")
