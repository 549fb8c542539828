"""A fresh tester's finding on the scorekeeper's page, as its markup says it (the behaviour at
360 px: tests/browser/test_keeper_page_findings_browser.py): "Put mine back in the form" opens
the correction at the round (``#round-area``), not at the page's top (the join panel)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask_babel import refresh

from companion.models import Game
from tests.web.playkit import make_game, round_post

pytestmark = pytest.mark.usefixtures("fresh_translations")


def saved_elsewhere_then_mine(client, game: Game, headers: dict | None = None, **saved) -> Any:
    """Another scorekeeper phone saves the round with 6-6 (``saved``: round_post's arguments),
    then this phone's Save of Ann 3, Bob 12, Cy 7 is refused with it: the 409 (a whole page,
    asked with ``headers``)."""
    client.get(f"/g/{game.edit_token}")  # this phone keeps score
    other = round_post(game, 6, **saved)
    assert client.post(f"/g/{game.edit_token}/round", data=other).status_code == 303
    mine = round_post(game, 6, totals={"Ann": 3, "Bob": 12, "Cy": 7}, version=game.version - 1)
    refresh()  # Flask-Babel keeps the first request's locale in the test's app context
    r = client.post(f"/g/{game.edit_token}/round", data=mine, headers=headers or {})
    assert r.status_code == 409
    return r


def test_put_mine_back_opens_the_correction_at_the_round(app, client):
    game = make_game()
    r = saved_elsewhere_then_mine(client, game, None, totals={"Bob": 12, "Cy": 7}, out="Ann")
    page = r.get_data(as_text=True)
    action = f"/g/{game.edit_token}/round/1#round-area"
    assert f'<form method="post" action="{action}">' in page
    assert "Put mine back in the form" in page
    # the fragment names the part of the correction's page that holds the form
    correction = client.get(f"/g/{game.edit_token}/round/1").get_data(as_text=True)
    assert re.search(r'<div id="round-area">.*id="round-form"', correction, re.S)
