"""Corrections: editing a saved round, undo, the audit trail, double submits and stale pages,
deleting a game with confirmation and restoring it."""

from __future__ import annotations

import re
from datetime import timedelta

from companion.extensions import db
from companion.models import AuditEntry, Game, HandScore, Round, utcnow
from companion.services.deleted_games import recently_deleted
from tests.web.playkit import make_game, page_html, round_post, seat_ids, text


def save(client, game, double, **kwargs):
    return client.post(f"/g/{game.edit_token}/round", data=round_post(game, double, **kwargs))


def fresh(game: Game) -> Game:
    db.session.expire_all()
    return db.session.get(Game, game.id)


def points(game: Game) -> list[dict[str, int]]:
    """Per stored round (in order), player name -> points; burned rounds as {}."""
    game = fresh(game)
    names = {v: k for k, v in seat_ids(game).items()}
    return [{names[h.seat_id]: h.points for h in r.hands} for r in game.rounds]


def version(game: Game) -> str:
    return str(fresh(game).version)


# --- double submits and stale pages -------------------------------------------------------------


OUT_OF_DATE = (
    "This form is out of date: the game changed on another phone. Here is what is saved now."
)


def test_posting_the_same_round_twice_saves_it_once(client):
    game = make_game()
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    data2 = {**data, f"total_{seat_ids(game)['Bob']}": "14"}
    r = client.post(f"/g/{game.edit_token}/round", data=data2)
    assert r.status_code == 409
    words = text(r)
    assert "This round was already saved on another phone" in words
    assert OUT_OF_DATE not in words
    assert "Saved: the round with 6-6" in words
    assert "Bob: 12" in words and "Cy: 5" in words
    assert points(game) == [{"Ann": 0, "Bob": 12, "Cy": 5}]


def test_a_stale_version_is_refused_even_for_the_next_round(client):
    """The one "stale version -> 409" scenario: a second phone still showing the old page
    sends the next round (5-5) with the old version; nobody saved that round, so the page
    says the form is out of date (not "already saved") and shows what is saved now."""
    game = make_game()
    stale = version(game)
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    r = save(client, game, 5, totals={"Bob": 1, "Cy": 1}, out="Ann", version=int(stale))
    assert r.status_code == 409
    assert len(points(game)) == 1
    words = text(r)
    assert OUT_OF_DATE in words
    assert "already saved on another phone" not in words
    assert "Saved: the round with 6-6" in words and "Bob: 12" in words


def test_a_conflict_answers_htmx_with_a_409_fragment(client):
    game = make_game()
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    client.post(f"/g/{game.edit_token}/round", data=data)
    r = client.post(f"/g/{game.edit_token}/round", data=data, headers={"HX-Request": "true"})
    assert r.status_code == 409
    assert r.get_data(as_text=True).lstrip().startswith('<div id="round-area"')
    assert "already saved on another phone" in text(r)


# --- editing a saved round -----------------------------------------------------------------------


def test_editing_a_round_shows_its_values_and_saves_the_correction(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 12}, tiles={"Cy": ["2-1"]}, out="Ann")
    ids = seat_ids(game)
    r = client.get(f"/g/{game.edit_token}/round/1")
    body = r.get_data(as_text=True)
    assert "Correct the round with 6-6" in text(r)
    assert f'name="total_{ids["Bob"]}"' in body and 'value="12"' in body
    assert f'name="tiles_{ids["Cy"]}" value="2-1" data-points="3" checked' in body
    assert (
        f'<input aria-label="Went out" autocomplete="off" checked name="out_{ids["Ann"]}"' in body
    )
    r = client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(game, 6, totals={"Bob": 15, "Cy": 3}, out="Ann"),
    )
    assert r.status_code == 303
    assert points(game) == [{"Ann": 0, "Bob": 15, "Cy": 3}]
    entry = fresh(game).audit[-1]
    assert entry.action == "round_edited"
    assert entry.before["hands"][1]["points"] == 12 and entry.after["hands"][1]["points"] == 15
    follow = client.get(r.headers["Location"])
    assert "Round with 6-6 corrected." in text(follow)


def test_saving_a_correction_with_nothing_changed_says_so_and_writes_nothing(client):
    """The same hands posted again (typed totals, tapped tiles, who went out): no audit entry,
    no new game version, and the notice says nothing changed (not "corrected")."""
    game = make_game()
    save(client, game, 6, totals={"Bob": 12}, tiles={"Cy": ["2-1"]}, out="Ann")
    entries = len(fresh(game).audit)
    before = version(game)
    r = client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(fresh(game), 6, totals={"Bob": 12}, tiles={"Cy": ["2-1"]}, out="Ann"),
    )
    assert r.status_code == 303
    assert len(fresh(game).audit) == entries and version(game) == before
    words = text(client.get(r.headers["Location"]))
    assert "Nothing changed in the round with 6-6." in words
    assert "corrected" not in words


def test_editing_uses_the_same_checks(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    r = client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(game, 6, tiles={"Bob": ["6-6"]}, totals={"Cy": "-3"}, out="Ann"),
    )
    assert r.status_code == 422
    words = text(r)
    assert "Bob: 6-6 is this round's centre double" in words
    assert "Cy: a score can't be negative." in words
    assert points(game) == [{"Ann": 0, "Bob": 12, "Cy": 5}]


def test_editing_with_a_stale_version_shows_what_is_saved(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    stale = int(version(game))
    client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(game, 6, totals={"Bob": 13, "Cy": 5}, out="Ann"),
    )
    r = client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(game, 6, totals={"Bob": 20, "Cy": 5}, out="Ann", version=stale),
    )
    assert r.status_code == 409
    assert "This round was changed on another phone" in text(r)
    assert points(game)[0]["Bob"] == 13


def test_a_refused_correction_keeps_what_was_typed_beside_what_is_saved(client):
    """Two phones correct the same round: the second is refused, but nothing it typed is
    dropped: its values stay in the form (saving again keeps them), the saved ones beside."""
    game = make_game()
    save(client, game, 6, totals={"Bob": 16, "Cy": 5}, out="Ann")
    stale = int(version(game))
    ids = seat_ids(game)
    client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(game, 6, totals={"Bob": 16, "Cy": 50}, out="Ann"),
    )
    r = client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(game, 6, totals={"Bob": 77, "Cy": 5}, out="Ann", version=stale),
    )
    assert r.status_code == 409
    body = r.get_data(as_text=True)
    assert re.search(rf'name="total_{ids["Bob"]}"[^>]*value="77"', body)
    assert "Cy: <strong>50</strong>" in body  # the saved values, beside
    assert "your values are still in the form" in text(r)
    assert points(game)[0] == {"Ann": 0, "Bob": 16, "Cy": 50}
    # saving again (the form now carries the new version) keeps what this phone typed
    again = re.search(r'name="version"[^>]*value="(\d+)"', body) or re.search(
        r'value="(\d+)"[^>]*name="version"', body
    )
    assert again and again.group(1) == version(game)


def test_a_burned_round_cannot_be_edited(client):
    game = make_game(missing_start_double="skip_to_next_lower")
    client.post(f"/g/{game.edit_token}/burn", data={"version": version(game), "double": "6"})
    assert client.get(f"/g/{game.edit_token}/round/1").status_code == 404


def test_correcting_the_last_round_can_reopen_or_finish_a_target_game(client):
    game = make_game(game_length="target_total", target_total=30)
    save(client, game, 6, totals={"Bob": 30, "Cy": 1}, out="Ann")
    assert fresh(game).status == "finished"
    client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(game, 6, totals={"Bob": 20, "Cy": 1}, out="Ann"),
    )
    game = fresh(game)
    assert game.status == "active" and game.finished_at is None


# --- undo ----------------------------------------------------------------------------------------


def undo(client, game, v=None):
    return client.post(
        f"/g/{game.edit_token}/undo", data={"version": v or version(game)}, follow_redirects=True
    )


def test_undo_removes_a_saved_round_then_reverts_an_edit(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    save(client, game, 5, totals={"Ann": 2, "Cy": 5}, out="Bob")
    client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(game, 6, totals={"Bob": 40, "Cy": 5}, out="Ann"),
    )
    assert points(game)[0]["Bob"] == 40
    r = undo(client, game)
    assert "Undone: Round with 6-6 corrected" in text(r)
    assert points(game) == [{"Ann": 0, "Bob": 12, "Cy": 5}, {"Ann": 2, "Bob": 0, "Cy": 5}]
    r = undo(client, game)
    assert "Undone: Round 2 (5-5) saved" in text(r)
    assert points(game) == [{"Ann": 0, "Bob": 12, "Cy": 5}]
    assert db.session.scalar(db.select(db.func.count(HandScore.id))) == 3
    assert "Centre double: 5-5" in text(r)
    undo(client, game)
    assert points(game) == []
    r = undo(client, game)
    assert "There is nothing to undo." in text(r)


def test_undo_restores_a_burned_double(client):
    game = make_game(missing_start_double="skip_to_next_lower")
    client.post(f"/g/{game.edit_token}/burn", data={"version": version(game), "double": "6"})
    assert "Centre double: 5-5" in text(client.get(f"/g/{game.edit_token}"))
    r = undo(client, game)
    assert "Undone: Nobody held 6-6" in text(r)
    assert "Centre double: 6-6" in text(r)
    assert fresh(game).rounds == []


def test_undo_reopens_a_finished_game(client):
    game = make_game(names=("Ann", "Bob"))
    for d in range(6, -1, -1):
        save(client, game, d, totals={"Bob": 5}, out="Ann")
    assert fresh(game).status == "finished"
    r = undo(client, game)
    game = fresh(game)
    assert game.status == "active" and game.finished_at is None
    assert "Centre double: 0-0" in text(r)


def test_a_double_tapped_undo_undoes_only_once(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    save(client, game, 5, totals={"Ann": 2, "Cy": 5}, out="Bob")
    v = version(game)
    undo(client, game, v)
    r = undo(client, game, v)
    assert "The game changed on another phone; nothing was undone." in text(r)
    assert len(points(game)) == 1


def test_the_undo_button_says_what_it_will_undo(client):
    game = make_game()
    assert "Undo the last change" not in text(client.get(f"/g/{game.edit_token}"))
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    words = text(client.get(f"/g/{game.edit_token}"))
    assert "Undo the last change Round 1 (6-6) saved: Ann 0 (went out), Bob 12, Cy 5" in words


# --- the audit trail -----------------------------------------------------------------------------


def test_the_audit_trail_lists_changes_with_old_and_new_values(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(game, 6, totals={"Bob": 15, "Cy": 5}, out="Ann"),
    )
    undo(client, game)
    r = client.get(f"/g/{game.edit_token}/audit")
    assert r.status_code == 200
    words = text(r)
    assert "Undone: Round with 6-6 corrected" in words
    assert "Round with 6-6 corrected: Ann 0 (went out), Bob 15, Cy 5 (undone)" in words
    assert "Bob 12 15" in words  # the correction: old 12, new 15
    assert "Bob 15 12" in words  # the undo: back from 15 to 12
    assert "Ann — 0 (went out)" in words  # the first save: nothing before
    assert '<time datetime="' in r.get_data(as_text=True)
    entries = fresh(game).audit
    assert [e.action for e in entries] == ["round_saved", "round_edited", "undo"]
    assert [e.undone for e in entries] == [False, True, False]


def test_an_empty_audit_trail(client):
    game = make_game()
    assert "No changes yet." in text(client.get(f"/g/{game.edit_token}/audit"))


# --- delete and restore --------------------------------------------------------------------------


def test_delete_asks_first_then_hides_the_game_and_can_be_undone(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    r = client.get(f"/g/{game.edit_token}/delete")
    assert r.status_code == 200
    words = text(r)
    assert "Delete this game?" in words and "Ann, Bob, Cy" in words and "1 round scored." in words
    assert fresh(game).deleted_at is None  # asking deletes nothing
    r = client.post(f"/g/{game.edit_token}/delete", data={"version": version(game)})
    assert r.status_code == 303 and r.headers["Location"].endswith("/deleted")
    assert fresh(game).deleted_at is not None
    # the edit link now leads to "undo delete"; the read-only link is gone
    assert client.get(f"/g/{game.edit_token}").headers["Location"].endswith("/deleted")
    assert client.get(f"/s/{game.share_token}").status_code == 404
    assert recently_deleted([game.edit_token]) == [fresh(game)]
    r = client.get(r.headers["Location"])
    assert "Undo delete" in text(r)
    r = client.post(f"/g/{game.edit_token}/restore", data={}, follow_redirects=True)
    assert "The game is back." in text(r)
    assert fresh(game).deleted_at is None
    assert points(game) == [{"Ann": 0, "Bob": 12, "Cy": 5}]
    assert [e.action for e in fresh(game).audit][-2:] == ["game_deleted", "game_restored"]


def test_delete_with_a_stale_version_does_nothing(client):
    game = make_game()
    stale = version(game)
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    r = client.post(f"/g/{game.edit_token}/delete", data={"version": stale}, follow_redirects=True)
    assert "it was not deleted" in text(r)
    assert fresh(game).deleted_at is None


def test_restore_is_only_for_24_hours_and_only_for_deleted_games(client):
    game = make_game()
    assert client.get(f"/g/{game.edit_token}/deleted").status_code == 404
    assert client.post(f"/g/{game.edit_token}/restore").status_code == 404
    client.post(f"/g/{game.edit_token}/delete", data={"version": version(game)})
    game = fresh(game)
    game.deleted_at = utcnow() - timedelta(hours=25)
    db.session.commit()
    assert client.get(f"/g/{game.edit_token}/deleted").status_code == 404
    assert client.post(f"/g/{game.edit_token}/restore").status_code == 404
    assert recently_deleted([game.edit_token]) == []
    assert client.get("/g/junk/deleted").status_code == 404


def test_delete_needs_the_form(client):
    game = make_game()
    r = client.post(f"/g/{game.edit_token}/delete", data={})
    # without a version the check fails: the page asks again and nothing is deleted
    assert r.status_code in (200, 303)
    assert fresh(game).deleted_at is None


def test_nothing_half_saved_when_the_database_refuses(client, monkeypatch):
    game = make_game()
    # another phone saved round 1 behind this request's back: the unique (game, number) refuses
    from companion.services import round_store as rounds

    real = rounds.check_version
    ids = seat_ids(game)

    def sneak(g, v):
        real(g, v)
        with db.session.no_autoflush:
            other = Round(game_id=g.id, number=1, start_double=5, status="burned")
            db.session.add(other)
            db.session.flush()

    monkeypatch.setattr(rounds, "check_version", sneak)
    r = save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    assert r.status_code == 409
    assert db.session.scalar(db.select(db.func.count(HandScore.id))) == 0
    assert db.session.scalar(db.select(db.func.count(AuditEntry.id))) == 0
    assert ids


def test_an_htmx_correction_answers_with_the_game_fragment(client):
    game = make_game()
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    r = client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(game, 6, totals={"Bob": 15, "Cy": 5}, out="Ann"),
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 200
    assert r.headers["HX-Push-Url"] == f"/g/{game.edit_token}"
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="round-area"') and "<html" not in body
    assert "Round with 6-6 corrected." in text(r)
    assert "Centre double: 5-5" in text(r)


def test_the_audit_trail_shows_how_the_round_ended_and_who_started(client):
    game = make_game()
    ids = seat_ids(game)
    save(client, game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    client.post(
        f"/g/{game.edit_token}/round/1",
        data=round_post(
            game, 6, totals={"Ann": 2, "Bob": 12, "Cy": 5}, blocked=True, starter=str(ids["Cy"])
        ),
    )
    words = text(client.get(f"/g/{game.edit_token}/audit"))
    assert "Ann 0 (went out) 2" in words
    assert "round ended someone went out blocked" in words
    assert "started the round — Cy" in words
    assert "double — played" in words  # the first save: a new round


# --- deleted games, unknown links, undo wording ------------------------------------------------


FLASK_DEFAULT_404 = "If you entered the URL manually"


def delete(client, game) -> None:
    r = client.post(f"/g/{game.edit_token}/delete", data={"version": str(game.version)})
    assert r.status_code == 303


def test_deleted_game_edit_link_leads_to_undo_delete(client):
    game = make_game()
    delete(client, game)
    for path in ("", "/audit", "/round/1", "/delete"):
        r = client.get(f"/g/{game.edit_token}{path}")
        assert r.status_code == 303, path
        assert r.headers["Location"] == f"/g/{game.edit_token}/deleted"
    page = client.get(f"/g/{game.edit_token}", follow_redirects=True)
    assert page.status_code == 200
    assert "Undo delete" in text(page)


def test_deleted_game_htmx_post_navigates_to_undo_delete(client):
    game = make_game()
    delete(client, game)
    r = client.post(f"/g/{game.edit_token}/round", data={}, headers={"HX-Request": "true"})
    assert r.status_code == 204
    assert r.headers["HX-Redirect"] == f"/g/{game.edit_token}/deleted"


def test_game_deleted_long_ago_says_so(client):
    game = make_game()
    game.deleted_at = utcnow() - timedelta(days=2)
    db.session.commit()
    for url in (f"/g/{game.edit_token}", f"/s/{game.share_token}", f"/g/{game.edit_token}/deleted"):
        r = client.get(url)
        assert r.status_code == 404, url
        assert FLASK_DEFAULT_404 not in text(r)
    assert "This game was deleted." in text(client.get(f"/g/{game.edit_token}"))


def test_unknown_game_link_is_a_friendly_404(client):
    for url in ("/g/nosuchtoken", "/s/nosuchtoken", "/g/" + "x" * 60):
        r = client.get(url)
        assert r.status_code == 404
        words = text(r)
        assert FLASK_DEFAULT_404 not in words
        assert "There is no game at this link." in words


def test_undo_asks_first_with_javascript(client):
    game = make_game()
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 4, "Cy": 2}, out="Ann"),
    )
    body = page_html(client, game)
    form = re.search(r'<form[^>]*action="/g/[^"]+/undo"[^>]*>', body).group(0)
    assert 'data-confirm="Undo this change?"' in form
    # the question ends with what the form shows (static/js/app.js adds it): sent once
    detail = re.search(r"<span[^>]*data-confirm-detail[^>]*>([^<]*)</span>", body).group(1)
    assert detail.startswith("Round 1 (6-6) saved: Ann 0 (went out)")


def test_undo_without_javascript_says_what_was_undone_and_links_the_audit_trail(client):
    game = make_game(names=("Ann", "<b>Bob</b>", "Cy"))
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"<b>Bob</b>": 4, "Cy": 2}, out="Ann"),
    )
    db.session.expire_all()
    game = db.session.get(Game, game.id)
    r = client.post(
        f"/g/{game.edit_token}/undo", data={"version": str(game.version)}, follow_redirects=True
    )
    body = r.get_data(as_text=True)
    assert "Undone: Round 1 (6-6) saved: Ann 0 (went out), &lt;b&gt;Bob&lt;/b&gt; 4" in body
    assert f'<a href="/g/{game.edit_token}/audit">See it in the audit trail</a>' in body
    assert "<b>Bob</b> 4" not in body


def test_stale_form_after_an_undo_says_out_of_date(client):
    game = make_game()
    stale = game.version
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann"),
    )
    db.session.expire_all()
    client.post(f"/g/{game.edit_token}/undo", data={"version": str(game.version)})
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 2, "Cy": 3}, out="Ann", version=stale),
        headers={"HX-Request": "true"},
    )
    words = text(r)
    assert OUT_OF_DATE in words and "already saved" not in words
    assert "Saved: the round with" not in words  # nothing is saved: no card


def test_the_auto_save_switch_on_the_correction_page_keeps_the_typed_correction(client):
    """The table box's auto-save switch on the correction page submits the correction as typed
    (form="round-form"): the setting switches, the page comes back with Bob's typed 25 in its
    box (nothing saved, nothing lost), and the switch says its state. Without JS and with htmx
    (the swapped round area, the switch out of band)."""
    game = make_game()
    save(client, game, 6, totals={"Bob": 12, "Cy": 3}, out="Ann")
    ids = seat_ids(game)
    page = client.get(f"/g/{game.edit_token}/round/1").get_data(as_text=True)
    assert 'id="round-form"' in page
    assert re.search(r'<button[^>]*name="auto_save" value="1"[^>]*form="round-form"', page)
    assert "Auto-save: off · Turn on" in page
    typed = round_post(fresh(game), 6, totals={"Bob": 25, "Cy": 3}, out="Ann")
    r = client.post(f"/g/{game.edit_token}/round/1", data={**typed, "auto_save": "1"})
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert re.search(rf'name="total_{ids["Bob"]}"[^>]* value="25"', body), "Bob's 25 kept"
    assert "Auto-save is on." in text(r) and "Auto-save: on · Turn off" in text(r)
    assert fresh(game).auto_save and points(game) == [{"Ann": 0, "Bob": 12, "Cy": 3}]
    # with htmx: the round area with the typed form, and the switch swapped out of band
    typed = round_post(fresh(game), 6, totals={"Bob": 25, "Cy": 3}, out="Ann")
    r = client.post(
        f"/g/{game.edit_token}/round/1",
        data={**typed, "auto_save": "0"},
        headers={"HX-Request": "true"},
    )
    body = r.get_data(as_text=True)
    assert re.search(rf'name="total_{ids["Bob"]}"[^>]* value="25"', body)
    assert re.search(r'<form[^>]*id="auto-save"[^>]*hx-swap-oob="true"', body)
    assert "Auto-save: off · Turn on" in body and not fresh(game).auto_save
    # saving the correction afterwards works: the page's form has the game's version now
    version_now = re.search(r'name="version"[^>]* value="(\d+)"', body)
    assert version_now and version_now.group(1) == str(fresh(game).version)
    typed = round_post(fresh(game), 6, totals={"Bob": 25, "Cy": 3}, out="Ann")
    r = client.post(f"/g/{game.edit_token}/round/1", data=typed)
    assert r.status_code == 303 and points(game) == [{"Ann": 0, "Bob": 25, "Cy": 3}]


def test_the_auto_save_switch_keeps_a_correction_typed_over_another_phones_change_stale(
    app, client
):
    """The switch shows the correction again unchecked; when another phone corrected the same
    round after this page was opened, the form must keep the version it was shown at, so that
    its Save is refused with both values instead of silently replacing the other phone's."""
    game = make_game()
    save(client, game, 6, totals={"Bob": 12, "Cy": 3}, out="Ann")
    typed = round_post(fresh(game), 6, totals={"Bob": 25, "Cy": 3}, out="Ann")
    # another scorekeeper's phone corrects Cy's hand meanwhile (same session: the check is
    # the game's version, not the phone)
    other = round_post(fresh(game), 6, totals={"Bob": 12, "Cy": 30}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round/1", data=other).status_code == 303
    r = client.post(f"/g/{game.edit_token}/round/1", data={**typed, "auto_save": "1"})
    assert r.status_code == 200 and fresh(game).auto_save
    shown = re.search(r'name="version"[^>]* value="(\d+)"', r.get_data(as_text=True))
    assert shown and shown.group(1) == typed["version"]
    r = client.post(f"/g/{game.edit_token}/round/1", data=typed)
    assert r.status_code == 409, r.status_code
    assert points(game) == [{"Ann": 0, "Bob": 12, "Cy": 30}]  # the other phone's, kept
