"""Error responses keep the headers that tell a client what to do next (issue 8, item 9):
``Retry-After`` on 429, ``Allow`` on 405, for HTML pages and the JSON API alike."""

from __future__ import annotations

from companion import config, create_app
from companion.extensions import db


class _PasscodeConfig(config.TestConfig):
    COMPANION_PASSCODE = "open sesame"


def test_405_says_which_methods_are_allowed(client):
    page = client.delete("/")
    assert page.status_code == 405
    assert set(page.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "HEAD"}
    assert "text/html" in page.headers["Content-Type"]


def test_405_on_the_api_says_which_methods_are_allowed(client):
    answer = client.get("/api/v1/rules/answer")
    assert answer.status_code == 405
    assert "POST" in answer.headers["Allow"]
    assert answer.headers["Content-Type"].startswith("application/json")


def test_429_says_when_to_try_again():
    app = create_app(_PasscodeConfig)
    with app.app_context():
        db.create_all()
        client = app.test_client()
        codes = [client.post("/passcode", data={"passcode": "wrong"}).status_code for _ in range(6)]
        assert codes[-1] == 429
        page = client.post("/passcode", data={"passcode": "wrong"})
        assert page.status_code == 429
        assert 0 < int(page.headers["Retry-After"]) <= 60
        assert "Too many wrong passcodes" in page.text
        db.session.remove()
        db.drop_all()


def test_error_pages_speak_a_players_words_not_the_servers(client):
    """A mistyped link, a huge id or a POST-only address opened in the browser gets words a
    player reads at the table, not Werkzeug's "The requested URL was not found on the server"."""
    stock = ("requested URL", "on the server", "manually", "method is not allowed", "Not Found")
    for page in (
        client.get("/history/games/2147483648"),
        client.get("/no-such-page"),
        client.get("/history/nights/0"),
        client.delete("/"),
    ):
        assert page.status_code in (404, 405)
        assert not any(words in page.text for words in stock), page.text
        assert "Check the link" in page.text or "nothing to open" in page.text
    # a view's own words are kept
    assert "There is no game at this link" in client.get("/g/" + "x" * 22).text
