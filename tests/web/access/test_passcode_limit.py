"""A passcode limit that holds and does not lock the table out (issue 21, item 4): aged
cookies, many cookies, many addresses and 40 tries at once all stay within the limit; new
device ids are limited per address; the table's own phone is let in by the scorekeeper's or the
host's phone; behind a trusted proxy each phone has its own address."""

from __future__ import annotations

import re
import sqlite3
from datetime import timedelta

import pytest
from sqlalchemy import event, func, select, update

from companion import config
from companion.extensions import db
from companion.models import Device, RateCounter, utcnow
from tests.conftest import fresh_app
from tests.web.playkit import make_game, seat_ids
from tests.web.table.test_table_races import at_once

WRONG = {"passcode": "guess"}
RIGHT = {"passcode": "open sesame"}


class Passcode(config.TestConfig):
    COMPANION_PASSCODE = "open sesame"


def _app(cls: type):
    yield from fresh_app(cls)


@pytest.fixture()
def locked():
    yield from _app(Passcode)


def judged(responses) -> int:
    """How many tries were compared with the passcode (answered with the form, not 429)."""
    return sum(r.status_code == 200 for r in responses)


def test_aged_cookies_from_one_address_share_its_small_budget(locked):
    """30 cookies older than 10 minutes gave 140 judged guesses from one address."""
    phones = [locked.test_client() for _ in range(30)]
    for phone in phones:
        phone.post("/passcode", data=WRONG)  # makes its device
    # an hour later: the cookies are old, the counts' windows are over
    hour_ago = utcnow() - timedelta(hours=1)
    db.session.execute(update(Device).values(created_at=hour_ago))
    db.session.execute(update(RateCounter).values(window_start=hour_ago))
    db.session.commit()
    answers = [phone.post("/passcode", data=WRONG) for phone in phones for _ in range(5)]
    assert judged(answers) <= 10
    assert answers[-1].status_code == 429 and int(answers[-1].headers["Retry-After"]) > 0


def test_many_addresses_together_stay_within_the_strangers_budget(locked):
    """8 addresses gave 80 judged guesses (10 each)."""
    answers = []
    for n in range(8):
        address = {"REMOTE_ADDR": f"10.0.0.{n + 1}"}
        for _ in range(10):
            answers.append(locked.test_client().post("/passcode", data=WRONG, environ_base=address))
    assert judged(answers) <= 30


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def locked_file(request, tmp_path):
    """A passcode app on a database several connections share: a SQLite file, PostgreSQL."""
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_url")
    else:
        url = f"sqlite:///{tmp_path / 'p.db'}"
    yield from _app(type("PasscodeShared", (Passcode,), {"SQLALCHEMY_DATABASE_URI": url}))


def test_forty_tries_at_once_from_one_phone_get_five_judged(locked_file):
    """Check-then-count let 7 of 40 concurrent tries be judged against a limit of 5: here one
    try, then 40 at once, and 5 judged in all."""
    first = locked_file.test_client()
    assert first.post("/passcode", data=WRONG).status_code == 200  # makes its device: 1 try
    cookie = first.get_cookie("session")
    phones = []
    for _ in range(40):
        phone = locked_file.test_client()
        phone.set_cookie("session", cookie.value, domain=cookie.domain)
        phones.append(phone)
    answers = at_once([(lambda p=p: p.post("/passcode", data=WRONG)) for p in phones])
    assert all(not isinstance(a, Exception) for a in answers), answers
    assert judged(answers) == 4
    assert sum(a.status_code == 429 for a in answers) == 36


class FewNewPhones(Passcode):
    NEW_DEVICES_PER_ADDRESS = 5


@pytest.fixture()
def few_new():
    yield from _app(FewNewPhones)


def test_new_device_ids_cost_something(few_new):
    """500 cookieless requests made 500 device rows."""
    answers = [few_new.test_client().post("/passcode", data=WRONG) for _ in range(8)]
    assert [a.status_code for a in answers[:5]] == [200] * 5
    assert {a.status_code for a in answers[5:]} == {429}
    assert "Too many new phones from this network address" in answers[-1].get_data(as_text=True)
    assert db.session.scalar(select(func.count(Device.id))) == 5
    # another address is not held back by this one
    other = few_new.test_client().post(
        "/passcode", data=WRONG, environ_base={"REMOTE_ADDR": "10.9.9.9"}
    )
    assert other.status_code == 200


def _code(page: str) -> str:
    found = re.search(r'class="admit-code"><strong>([A-Z0-9-]+)</strong>', page)
    assert found, page
    return found.group(1)


def test_the_tables_phone_is_let_in_by_the_scorekeepers_phone(locked):
    game = make_game(("Ann", "Bob"))
    keeper = locked.test_client()
    assert keeper.get(f"/g/{game.edit_token}").status_code == 200
    for _ in range(10):  # an attacker on the same address spends the budget
        locked.test_client().post("/passcode", data=WRONG)
    honest = locked.test_client()
    refused = honest.post("/passcode", data=RIGHT)
    assert refused.status_code == 429
    page = refused.get_data(as_text=True)
    assert "Ask the scorekeeper or the host" in page
    code = _code(page)
    # a wrong code lets nobody in; the right one (any case, without the dash) does
    wrong = keeper.post(f"/g/{game.edit_token}/admit", data={"code": "ZZZZ-ZZZZ"})
    assert "No phone shows that code" in wrong.get_data(as_text=True)
    r = keeper.post(f"/g/{game.edit_token}/admit", data={"code": code.replace("-", "").lower()})
    assert r.status_code == 303
    assert honest.post("/passcode", data=RIGHT).status_code == 303
    assert honest.get("/nights/new").status_code == 200
    # a phone that is not the scorekeeper cannot let phones in
    other = locked.test_client()
    assert other.post(f"/g/{game.edit_token}/admit", data={"code": code}).status_code == 403


def test_the_host_lets_a_phone_in_and_a_seated_phone_needs_no_one(locked):
    game = make_game(("Ann", "Bob"))
    host = locked.test_client()
    assert host.post("/passcode", data=RIGHT).status_code == 303
    for _ in range(10):
        locked.test_client().post("/passcode", data=WRONG)
    honest = locked.test_client()
    code = _code(honest.post("/passcode", data=RIGHT).get_data(as_text=True))
    assert host.post("/passcode/admit", data={"code": code}).status_code == 303
    assert honest.post("/passcode", data=RIGHT).status_code == 303
    # a phone that joined its seat (with the join link from the scorekeeper's screen) is the
    # table's: the address's budget does not hold it back
    bob = locked.test_client()
    assert (
        bob.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]}).status_code == 303
    )
    assert bob.post("/passcode", data=RIGHT).status_code == 303


class BehindProxy(Passcode):
    TRUSTED_PROXIES = 1


@pytest.fixture()
def proxied():
    yield from _app(BehindProxy)


def test_behind_a_trusted_proxy_each_phone_has_its_own_address(proxied, locked):
    via = {"REMOTE_ADDR": "127.0.0.1"}
    for _ in range(10):  # an attacker behind the proxy
        proxied.test_client().post(
            "/passcode", data=WRONG, environ_base=via, headers={"X-Forwarded-For": "10.0.0.66"}
        )
    honest = proxied.test_client().post(
        "/passcode", data=RIGHT, environ_base=via, headers={"X-Forwarded-For": "10.0.0.7"}
    )
    assert honest.status_code == 303
    # without TRUSTED_PROXIES the header is ignored: it cannot be used to dodge the limit
    for n in range(10):
        locked.test_client().post(
            "/passcode", data=WRONG, headers={"X-Forwarded-For": f"10.1.1.{n}"}
        )
    dodging = locked.test_client().post(
        "/passcode", data=WRONG, headers={"X-Forwarded-For": "10.1.1.99"}
    )
    assert dodging.status_code == 429


def test_a_bad_trusted_proxies_value_stops_the_app_at_start():
    from companion.config import proxy_count

    assert proxy_count("") == 0 and proxy_count(" 2 ") == 2
    for bad in ("yes", "-1", "9"):
        with pytest.raises(ValueError, match="TRUSTED_PROXIES"):
            proxy_count(bad)


class FewNewPhonesWithCsrf(FewNewPhones):
    WTF_CSRF_ENABLED = True


def test_cookieless_forms_past_the_new_phone_limit_get_429_not_500():
    """A form refused for its CSRF token makes a device (companion.web.stale_forms): past the
    limit that is a 429 in words, never a server error."""
    for application in fresh_app(FewNewPhonesWithCsrf):
        application.config["PROPAGATE_EXCEPTIONS"] = False
        codes = [
            application.test_client().post("/nights/new", data={"place": "Attic"}).status_code
            for _ in range(7)
        ]
        assert codes[:5] == [400] * 5 and codes[5:] == [429, 429]
        assert db.session.scalar(select(func.count(Device.id))) == 5


@pytest.fixture()
def shared_file(tmp_path):
    """A passcode app on a SQLite file whose connections give up on a lock after 50 ms (the
    app's own busy timeout is 5 s: the same error, later)."""
    url = f"sqlite:///{tmp_path / 'busy.db'}"
    for app in _app(type("PasscodeFile", (Passcode,), {"SQLALCHEMY_DATABASE_URI": url})):
        db.engine.dispose()

        @event.listens_for(db.engine, "checkout")
        def _impatient(dbapi_connection, _record, _proxy):
            dbapi_connection.execute("PRAGMA busy_timeout=50")

        yield app, tmp_path / "busy.db"


def test_a_locked_database_while_counting_tries_answers_429_not_500(shared_file):
    """12 new cookies and 36 concurrent guesses gave 3 x 500 "database is locked" from the
    count of a new phone: here another writer holds the file's lock while phones come in."""
    app, path = shared_file
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another worker's write, in progress
    try:
        answers = at_once(
            [(lambda: app.test_client().post("/passcode", data=WRONG)) for _ in range(6)]
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert all(not isinstance(a, Exception) for a in answers), answers
    assert {a.status_code for a in answers} == {429}
    assert all(int(a.headers["Retry-After"]) > 0 for a in answers)
    assert "Wait a few seconds" in answers[0].get_data(as_text=True)
    # the lock gone, the same phones get in to guess
    assert app.test_client().post("/passcode", data=WRONG).status_code == 200


def _spend_new_phones(app, n: int = 5) -> None:
    """An attacker on the table's address makes the address's new phones."""
    for _ in range(n):
        app.test_client().post("/passcode", data=WRONG)


class FewNewPhonesNoPasscode(config.TestConfig):
    NEW_DEVICES_PER_ADDRESS = 5


@pytest.mark.parametrize("setup", [FewNewPhones, FewNewPhonesNoPasscode])
def test_a_phone_refused_by_the_new_phone_limit_is_let_in_by_the_scorekeeper(setup):
    """Behind one address, an attacker who minted the address's new phones locked an honest
    phone out for 10 minutes with no code to show: now it shows one, the scorekeeper types it,
    and the phone joins its seat and posts its hand (with a passcode set or not)."""
    for few_new in _app(setup):
        _let_in_by_the_scorekeeper(few_new)


def _let_in_by_the_scorekeeper(few_new) -> None:
    game = make_game(("Ann", "Bob"))
    keeper = few_new.test_client()
    table = keeper.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert f'href="/g/{game.edit_token}/admit"' in table  # the scorekeeper finds the page
    other = make_game(("Cy", "Di"))
    for _ in range(4):  # (the other game's first phone keeps its score; the rest are refused)
        few_new.test_client().get(f"/g/{other.edit_token}")
    honest = few_new.test_client()
    seat = {"seat": seat_ids(game)["Bob"]}
    refused = honest.post(f"/j/{game.join_token}", data=seat)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "no-store" in refused.headers["Cache-Control"]
    opened = few_new.test_client().get(f"/g/{other.edit_token}")  # a page: opened again
    assert f'class="button" href="/g/{other.edit_token}"' in opened.get_data(as_text=True)
    page = refused.get_data(as_text=True)
    assert "Too many new phones from this network address" in page
    # a tester's finding: the heading said "Too many tries" to a phone that had tried nothing
    assert "<h1>Too many new phones</h1>" in page and "Too many tries" not in page
    assert "Ask the scorekeeper or the host" in page
    code = _code(page)
    # the same code on every refusal, and no row is stored for a refused phone
    assert _code(honest.post(f"/j/{game.join_token}", data=seat).get_data(as_text=True)) == code
    assert db.session.scalar(select(func.count(Device.id))) == 5
    admitted = keeper.post(f"/g/{game.edit_token}/admit", data={"code": code.lower()})
    assert admitted.status_code == 303
    assert "may open the page again" in keeper.get(admitted.location).get_data(as_text=True)
    joined = honest.post(f"/j/{game.join_token}", data=seat)
    assert joined.status_code == 303
    # the same code typed again (a tester's finding: "may open the page again") says it was
    # used and how to get a new one, and lets nobody in
    again = keeper.post(f"/g/{game.edit_token}/admit", data={"code": code})
    assert again.status_code == 200
    words = " ".join(again.get_data(as_text=True).split())
    assert "That code was already used" in words and "shows a new code on its page" in words
    assert "may open the page again" not in words
    posted = honest.post(f"/p/{game.share_token}", data={"double": "6", "total": "9"})
    assert posted.status_code == 303
    # the admission is used up: another refused phone is not let in by it
    assert few_new.test_client().get(f"/g/{other.edit_token}").status_code == 429


def test_a_new_phone_code_never_issued_or_too_old_lets_nobody_in(few_new, monkeypatch):
    from companion import access

    game = make_game(("Ann", "Bob"))
    keeper = few_new.test_client()
    assert keeper.get(f"/g/{game.edit_token}").status_code == 200
    _spend_new_phones(few_new, 4)
    made_up = keeper.post(f"/g/{game.edit_token}/admit", data={"code": "ABCD-EFGH"})
    assert made_up.status_code == 200
    assert "No phone shows that code" in made_up.get_data(as_text=True)
    for odd in ("ÄÖÜß-ÄÖÜß", "ABCD-EFG\u0663", "x" * 20):
        answer = keeper.post(f"/g/{game.edit_token}/admit", data={"code": odd})
        assert answer.status_code in (200, 400), odd
    honest = few_new.test_client()
    code = _code(honest.post("/passcode", data=RIGHT).get_data(as_text=True))
    later = utcnow() + 2 * access.NEW_PHONE_CODE_PERIOD
    monkeypatch.setattr(access, "utcnow", lambda: later)
    old = keeper.post(f"/g/{game.edit_token}/admit", data={"code": code})
    assert "No phone shows that code" in old.get_data(as_text=True)
    # the attacker is still at it: the phone shows a fresh code then, which works
    _spend_new_phones(few_new, 5)
    fresh = _code(honest.post("/passcode", data=RIGHT).get_data(as_text=True))
    assert fresh != code
    assert keeper.post(f"/g/{game.edit_token}/admit", data={"code": fresh}).status_code == 303
    assert honest.post("/passcode", data=RIGHT).status_code == 303


def test_an_admission_not_used_in_time_lapses(few_new, monkeypatch):
    from companion import access

    host = few_new.test_client()
    assert host.post("/passcode", data=RIGHT).status_code == 303
    _spend_new_phones(few_new, 4)
    honest = few_new.test_client()
    refused = honest.post("/passcode", data=RIGHT)
    assert refused.status_code == 429
    code = _code(refused.get_data(as_text=True))
    assert host.post("/passcode/admit", data={"code": code}).status_code == 303
    later = utcnow() + access.ADMISSION_WINDOW + timedelta(seconds=1)
    monkeypatch.setattr(access, "utcnow", lambda: later)
    _spend_new_phones(few_new, 5)  # the attacker is still at it
    assert honest.post("/passcode", data=RIGHT).status_code == 429
