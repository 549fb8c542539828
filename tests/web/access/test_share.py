"""The share page: the read-only link and the edit link, each with an inline SVG QR code."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
import segno
from sqlalchemy import select

from companion import create_app
from companion.config import TestConfig
from companion.extensions import db
from companion.games import views
from companion.models import Game, utcnow
from companion.web import public_url
from tests.web.setup_helpers import start_game, start_night


def same_phone_get(client, path: str, base_url: str):
    """GET ``path`` on another host name as the same phone: its session cookie is sent there
    too (keeping score is the right of the phone's cookie, not of the host it used)."""
    cookie = client.get_cookie("session")
    if cookie is not None:
        client.set_cookie("session", cookie.value, domain=urlsplit(base_url).hostname or "")
    return client.get(path, base_url=base_url)


@pytest.fixture()
def game(client) -> Game:
    start_game(client, start_night(client))
    return db.session.scalars(select(Game)).one()


@pytest.fixture()
def no_lan(monkeypatch):
    monkeypatch.setattr(public_url, "machine_addresses", lambda: ())


@pytest.fixture()
def lan(monkeypatch):
    monkeypatch.setattr(public_url, "machine_addresses", lambda: ("192.168.1.20",))


def test_share_page_shows_both_links_with_qr_codes(client, game, no_lan):
    page = client.get(f"/g/{game.edit_token}/share")
    assert page.status_code == 200
    view_link = f"http://localhost/s/{game.share_token}?lang=en"
    edit_link = f"http://localhost/g/{game.edit_token}?lang=en"
    assert f'<a href="{view_link}">{view_link}</a>' in page.text
    assert f'<a href="{edit_link}">{edit_link}</a>' in page.text
    assert "whoever has this link can change the scores" in page.text
    svgs = re.findall(r"<svg.*?</svg>", page.text, re.S)
    assert len(svgs) == 2
    assert all('class="qr"' in svg for svg in svgs)
    # the codes are segno's for exactly these links
    assert svgs[0] == views.qr_svg(view_link, "QR code of the read-only scoreboard link")
    expected = segno.make(view_link, error="m").svg_inline(
        scale=4, dark="#000", light="#fff", svgclass="qr", lineclass=None, omitsize=True
    )
    assert re.sub(r"<title>.*?</title>", "", svgs[0]) == expected
    assert f'href="/g/{game.edit_token}"' in page.text  # back to the game


def test_share_page_has_no_inline_styles_or_scripts(client, game):
    page = client.get(f"/g/{game.edit_token}/share").text
    assert "style=" not in page
    assert "<style" not in page
    assert "onclick" not in page


def test_localhost_links_use_the_lan_address(client, game, lan):
    page = same_phone_get(client, f"/g/{game.edit_token}/share", "http://127.0.0.1:8000")
    assert f"http://192.168.1.20:8000/s/{game.share_token}" in page.text
    # the LAN address make run prints is trusted as it is
    page = same_phone_get(client, f"/g/{game.edit_token}/share", "http://192.168.1.20:8000")
    assert f"http://192.168.1.20:8000/s/{game.share_token}" in page.text
    assert "does not know" not in page.text


def _links(page) -> list[str]:
    return re.findall(r'<a href="(https?://[^"]+)">', page.text)


def test_links_never_point_at_an_untrusted_host(client, game, lan):
    """A request whose Host header names another site (DNS rebinding, a poisoned cache) gets
    links and QR codes for this machine's address, never for that host."""
    page = same_phone_get(client, f"/g/{game.edit_token}/share", "http://evil.example:8000")
    assert page.status_code == 200
    links = _links(page)
    assert links == [
        f"http://192.168.1.20:8000/s/{game.share_token}?lang=en",
        f"http://192.168.1.20:8000/g/{game.edit_token}?lang=en",
    ]
    assert "evil.example" not in "".join(re.findall(r"<svg.*?</svg>", page.text, re.S))
    assert "address the server does not know (evil.example:8000)" in page.text


def test_untrusted_host_without_a_lan_address_is_refused_in_words(client, game, no_lan):
    page = same_phone_get(client, f"/g/{game.edit_token}/share", "http://evil.example")
    assert page.status_code == 400
    assert "evil.example/" not in page.text
    assert "set PUBLIC_URL" in page.text


def _app(**settings):
    config = type("Config", (TestConfig,), settings)
    application = create_app(config)
    with application.app_context():
        db.create_all()
    return application


def test_public_url_is_used_whatever_the_host(lan):
    app = _app(PUBLIC_URL="https://scores.example.org/")
    client = app.test_client()
    with app.app_context():
        start_game(client, start_night(client))
        game = db.session.scalars(select(Game)).one()
        for host in ("http://127.0.0.1:8000", "http://evil.example", "http://192.168.1.20"):
            page = same_phone_get(client, f"/g/{game.edit_token}/share", host)
            assert _links(page) == [
                f"https://scores.example.org/s/{game.share_token}?lang=en",
                f"https://scores.example.org/g/{game.edit_token}?lang=en",
            ], host
        db.session.remove()


def test_configured_trusted_hosts_are_used_and_others_refused(lan):
    app = _app(TRUSTED_HOSTS=["localhost", "table.lan", ".example.org"])
    client = app.test_client()
    with app.app_context():
        start_game(client, start_night(client))
        game = db.session.scalars(select(Game)).one()
        share = f"/g/{game.edit_token}/share"
        page = same_phone_get(client, share, "http://table.lan:9000")
        assert f"http://table.lan:9000/s/{game.share_token}?lang=en" in _links(page)
        page = same_phone_get(client, share, "https://cf.example.org")
        assert f"https://cf.example.org/s/{game.share_token}?lang=en" in _links(page)
        assert same_phone_get(client, share, "http://evil.example").status_code == 400
        db.session.remove()


@pytest.mark.parametrize("bad", ["scores.example.org", "ftp://x.org", "https://", "https://x/?a=1"])
def test_a_malformed_public_url_stops_the_start(bad):
    with pytest.raises(ValueError, match="PUBLIC_URL"):
        create_app(type("Config", (TestConfig,), {"PUBLIC_URL": bad}))


def test_share_page_needs_the_edit_token(client, game):
    assert client.get(f"/g/{game.share_token}/share").status_code == 404
    assert client.get("/g/unknown/share").status_code == 404
    game.deleted_at = utcnow()
    db.session.commit()
    # a deleted game's edit links lead to its "undo delete" page, never to the share page
    assert client.get(f"/g/{game.edit_token}/share").headers["Location"].endswith("/deleted")


def test_the_shared_link_opens_the_read_only_scoreboard(client, game, no_lan):
    page = client.get(f"/g/{game.edit_token}/share").text
    link = re.search(r'href="http://localhost(/s/[^"]+)"', page).group(1)
    assert client.get(link).status_code == 200
