"""Audit trails a page at a time (issue 11): a long trail is never loaded whole."""

from __future__ import annotations

import re

from companion.extensions import db
from companion.models import AuditEntry
from companion.services.audit import AUDIT_PAGE
from tests.web.playkit import add_scored_rounds, make_game


def long_trail(entries: int):
    game = make_game(("Ann", "Bob", "Cy"), set_size=6)
    add_scored_rounds(game, [{"Ann": 0, "Bob": 5, "Cy": 7}] * 7)  # finished: in the history
    for i in range(entries):
        db.session.add(AuditEntry(game=game, action="note", summary=f"Change number {i + 1}"))
    db.session.commit()
    return game


def summaries(body: str) -> list[int]:
    return [int(n) for n in re.findall(r"Change number (\d+)", body)]


def test_the_audit_page_shows_the_newest_entries_and_links_older_pages(client):
    game = long_trail(45)
    first = client.get(f"/g/{game.edit_token}/audit").get_data(as_text=True)
    assert summaries(first) == list(range(45, 45 - AUDIT_PAGE, -1))
    assert f'start="{45}"' in first
    assert f"/g/{game.edit_token}/audit?page=2" in first and "Older changes" in first
    last = client.get(f"/g/{game.edit_token}/audit?page=3").get_data(as_text=True)
    assert summaries(last) == list(range(5, 0, -1))
    assert "Older changes" not in last and "Newer changes" in last
    beyond = client.get(f"/g/{game.edit_token}/audit?page=99").get_data(as_text=True)
    assert summaries(beyond) == summaries(last)


def test_the_history_game_page_shows_the_latest_entries_with_a_link_to_older_ones(client):
    game = long_trail(30)
    page = client.get(f"/history/games/{game.id}").get_data(as_text=True)
    assert summaries(page) == list(range(30, 30 - AUDIT_PAGE, -1))
    assert f"/history/games/{game.id}/audit?page=2" in page
    older = client.get(f"/history/games/{game.id}/audit?page=2").get_data(as_text=True)
    assert summaries(older) == list(range(10, 0, -1))
    assert client.get("/history/games/999/audit").status_code == 404
