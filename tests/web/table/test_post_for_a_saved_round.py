"""A hand typed on a player's phone for a round the scorekeeper saved before it was posted
(docs/TABLE.md, "A post for a round just saved is answered"): the page had moved on to the
next round, its Post landed on the next round's empty box and was refused ("Type the points
left in your hand…", 422, twice), the typing was dropped, and "Taken into the round …" named
an older round the phone had posted in. Now the phone asks what the saved round holds
(``saved_only``: never a post) and says it, and the line names the round saved last."""

from __future__ import annotations

import re

from tests.web.games.test_corrections import undo
from tests.web.playkit import add_scored_rounds, round_post, text
from tests.web.table.test_table import FIRST_SIX, hand_post, post, table  # noqa: F401


def keeper_saves_six(client, game, bob: int = 9) -> None:
    data = round_post(game, 6, totals={"Bob": bob, "Cy": 3}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303


def test_typing_for_the_round_just_saved_is_answered_with_the_saved_hand(client, table):  # noqa: F811
    game, phone = table
    bob = phone("Bob")
    keeper_saves_six(client, game)
    r = post(bob, game, 6, total="8", saved_only="1")
    assert r.status_code == 409
    words = text(r)
    assert "The round with 6-6 was already saved" in words
    assert "Saved: 9 (the scorekeeper entered it)" in words
    assert "What you typed: 8" in words
    assert "tell the scorekeeper" in words
    row = hand_post(game, "Bob")  # asked, never posted (the save's own row only)
    assert row is None or row.device_id is None
    # the same as saved: said so, nothing to compare
    r = post(bob, game, 6, total="9", saved_only="1")
    assert r.status_code == 303
    assert "The round with 6-6 was already saved, with your hand as you typed it." in text(
        bob.get(r.location)
    )


def test_typing_this_phone_posted_and_the_round_took_is_not_answered_again(client, table):  # noqa: F811
    """The last hand posted completed the round (auto-save): the phone was told "Hand posted:
    every hand was in, so the round … saved itself", and its typing, kept until the page moved
    on, asked what the round holds: a second line said "was already saved", as if the post had
    come late. The round took this phone's own post as typed: the ask answers nothing. Typing
    other than the post taken is still answered."""
    game, phone = table
    bob = phone("Bob")
    assert post(bob, game, 6, total="5").status_code == 303
    keeper_saves_six(client, game, bob=5)
    r = post(bob, game, 6, total="5", saved_only="1")
    assert r.status_code == 204
    assert "already saved" not in text(bob.get(f"/p/{game.share_token}"))
    assert post(bob, game, 6, total="7", saved_only="1").status_code == 409


def test_asking_about_a_round_not_saved_posts_nothing(client, table):  # noqa: F811
    game, phone = table
    r = post(phone("Bob"), game, 6, total="8", saved_only="1")
    assert r.status_code == 204
    assert hand_post(game, "Bob") is None


def test_the_taken_line_names_the_round_saved_last_whoever_entered_it(client, table):  # noqa: F811
    """Bob posted 5 for the round with 6-6 (taken as posted); the scorekeeper entered his 9 for
    the round with 5-5: the line speaks of 5-5, not of 6-6."""
    game, phone = table
    bob = phone("Bob")
    assert post(bob, game, 6, total="5").status_code == 303
    keeper_saves_six(client, game, bob=5)
    assert "Taken into the round with 6-6: 5 points (as you posted)" in text(
        bob.get(f"/p/{game.share_token}")
    )
    data = round_post(game, 5, totals={"Bob": 9, "Cy": 3}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    words = text(bob.get(f"/p/{game.share_token}"))
    assert "Taken into the round with 5-5: 9 points (the scorekeeper entered it)" in words
    assert "round with 6-6: 5 points" not in words


def test_a_finished_games_page_is_headed_game_over_not_the_players_hand(client, table):  # noqa: F811
    game, phone = table
    bob = phone("Bob")
    assert "Bob's hand" in text(bob.get(f"/p/{game.share_token}"))
    add_scored_rounds(game, FIRST_SIX)
    data = round_post(game, 0, totals={"Ann": 4, "Bob": 2}, out="Cy")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    html = bob.get(f"/p/{game.share_token}").text
    assert re.search(r"<h1[^>]*>\s*Game over\s*</h1>", html), html[:2000]
    assert "Bob's hand" not in text(bob.get(f"/p/{game.share_token}"))
    assert len(re.findall(r"<h[1-6][^>]*>\s*Game over", html)) == 1


def compared_rounds(phone, game) -> list[str]:
    """The rounds (their doubles) whose "Saved with other values than this phone sent" still
    matters on ``phone``'s hand page (data-compare, read by static/js/offline.js)."""
    found = re.search(r'data-compare="([^"]*)"', phone.get(f"/p/{game.share_token}").text)
    assert found
    return found[1].split()


def test_a_saved_rounds_comparison_matters_until_the_phone_or_the_game_moves_on(client, table):  # noqa: F811
    """The round saved last matters (it can still be corrected before the game moves on);
    once Bob posts his next hand, the next round is saved or the round is undone (not saved:
    its form is open again), its comparison no longer does."""
    game, phone = table
    bob = phone("Bob")
    assert compared_rounds(bob, game) == []  # nothing saved yet: nothing to compare
    keeper_saves_six(client, game)
    assert compared_rounds(bob, game) == ["6"]
    assert post(bob, game, 5, total="4").status_code == 303  # Bob moved on
    assert compared_rounds(bob, game) == []
    data = round_post(game, 5, totals={"Bob": 4, "Cy": 3}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    assert compared_rounds(bob, game) == ["5"]  # the game moved on: 6-6's is over
    assert undo(client, game).status_code == 200
    assert compared_rounds(bob, game) == []  # 5-5 is not saved now: its form is open again
