"""htmx in one place (companion/web/htmx.py): a history restore gets the whole page, every answer
that depends on ``HX-Request`` says ``Vary: HX-Request``, and refused saves keep their status."""

from __future__ import annotations

import json
import re

from tests.web.playkit import make_game, round_post, text

HTMX = {"HX-Request": "true"}
#: what htmx 2 sends after a history cache miss on a pushed address (Back button)
RESTORE = {"HX-Request": "true", "HX-History-Restore-Request": "true"}


def is_whole_page(body: str) -> bool:
    return "<html" in body and '<nav aria-label="Main">' in body


def test_history_restore_of_a_checker_verdict_gets_the_whole_page(client):
    url = "/checker/?pos=9-5+on+C"
    fragment = client.get(url, headers=HTMX).get_data(as_text=True)
    assert not is_whole_page(fragment)
    restored = client.get(url, headers=RESTORE)
    assert restored.status_code == 200
    assert is_whole_page(restored.get_data(as_text=True))
    assert "HX-Push-Url" not in restored.headers


def test_history_restore_of_the_game_page_gets_the_whole_page(client):
    game = make_game()
    saved = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 4, "Cy": 2}, out="Ann"),
        headers=HTMX,
    )
    pushed = saved.headers["HX-Push-Url"]
    restored = client.get(pushed, headers=RESTORE)
    assert restored.status_code == 200
    body = restored.get_data(as_text=True)
    assert is_whole_page(body) and "Centre double: 5-5" in text(restored)
    # the scoreboard-only answer is for a swap of #scoreboard, never for a restore
    board = client.get(pushed, headers={**RESTORE, "HX-Target": "scoreboard"})
    assert is_whole_page(board.get_data(as_text=True))


def test_answers_that_depend_on_hx_request_say_vary(client):
    game = make_game()
    for headers in ({}, HTMX, RESTORE):
        for url in ("/checker/?pos=9-5+on+C", f"/g/{game.edit_token}"):
            r = client.get(url, headers=headers)
            assert "HX-Request" in r.headers.get("Vary", ""), (url, headers)


def test_answers_that_do_not_depend_on_it_do_not_vary_on_it(client):
    r = client.get("/checker/rules")
    assert "HX-Request" not in r.headers.get("Vary", "")


def test_a_refused_checker_question_keeps_its_422_for_htmx(client):
    r = client.post("/checker/position", data={"pos": "not a position"}, headers=HTMX)
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="checker"') and "<html" not in body


def test_htmx_is_configured_to_swap_409_and_422_only(client):
    html = client.get("/").get_data(as_text=True)
    meta = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", html)
    assert meta is not None
    handling = json.loads(meta.group(1))["responseHandling"]
    swapped = [
        code
        for code in ("200", "204", "286", "400", "403", "409", "422", "429", "500")
        if next(h for h in handling if re.search(h["code"], code))["swap"]
    ]
    assert swapped == ["200", "286", "409", "422"]
    errors = [
        code
        for code in ("409", "422", "403", "500")
        if next(h for h in handling if re.search(h["code"], code)).get("error")
    ]
    assert errors == ["403", "500"]


def test_a_refused_typed_position_leaves_the_address_bar_alone(client):
    """The checker is boosted, so htmx would push the POST's own address (/checker/position,
    GET 405) for a swapped 422: reloading then lost the typed position."""
    for url, data in (
        ("/checker/position", {"pos": "9-5 on C; 7-7 on S9"}),
        ("/checker/ask", {"q": "move", "pos": "9-5 on C", "tile": "banana"}),
    ):
        r = client.post(url, data=data, headers=HTMX)
        assert r.status_code == 422, url
        assert r.headers.get("HX-Push-Url") == "false", url
