"""A player's own hand from a photo in real browsers (issue 15): the scorekeeper's phone and a
player's phone (Pixel 7). The player joins, opens "Count my pips from a photo" in My hand,
uploads a real photo from tests/data/photos/, sees it marked, corrects one tile, confirms; the
posted hand shows the tiles and the scorekeeper's form gets them without a reload."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from companion.extensions import db
from companion.models import Device, Game, HandPost
from companion.pips.synth import scene
from tests.browser.test_scorekeeper_browser import create_game, hand, start_night
from tests.pips.conftest import shared_photos_side_by_side

pytestmark = pytest.mark.browser

PHOTOS = Path(__file__).resolve().parents[1] / "data" / "photos"
PHOTO = "valid_4.jpg"  # one tile, 3-1 (red and blue pips)


def bo_joined(keeper: Page, context) -> Page:
    """A game of Ana, Bo and Cy started on ``keeper``, and Bo's phone (a page of ``context``)
    joined to it, on its hand page."""
    start_night(keeper)
    create_game(keeper, ["Ana", "Bo", "Cy"])
    join = urlsplit(keeper.locator(".table-box .share-link a").get_attribute("href") or "").path
    context.set_default_timeout(10_000)
    bo = context.new_page()
    bo.goto(join)
    bo.get_by_role("button", name="Bo", exact=True).click()
    bo.wait_for_url(re.compile(r"/p/[\w-]+$"))
    return bo


def bo_photo_read(keeper: Page, context, photo: bytes | None = None) -> Page:
    """Bo joined (:func:`bo_joined`) has sent ``photo`` (JPEG; :data:`PHOTO` when None) from
    the photo page of his hand; the page with the reading (or on its way to it)."""
    bo = bo_joined(keeper, context)
    bo.get_by_role("button", name="Count my pips from a photo").click()
    bo.wait_for_url(re.compile(r"/p/[\w-]+/photo$"))
    data = (PHOTOS / PHOTO).read_bytes() if photo is None else photo
    bo.get_by_label("Photo of the tiles, face up and apart").set_input_files(
        files=[{"name": PHOTO, "mimeType": "image/jpeg", "buffer": data}]
    )
    bo.get_by_role("button", name="Count the pips").click()
    return bo


@contextmanager
def bo_photo_read_on_a_small_phone(
    keeper: Page, browser, live_server, photo: bytes | None = None
) -> Iterator[Page]:
    """:func:`bo_photo_read` on a 360 px touch phone of its own, closed afterwards."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, base_url=live_server.url
    )
    try:
        yield bo_photo_read(keeper, context, photo)
    finally:
        context.close()


def test_a_player_posts_the_hand_from_a_photo(phone: Page, browser, playwright, live_server, shot):
    keeper = phone
    context = browser.new_context(**playwright.devices["Pixel 7"], base_url=live_server.url)
    try:
        bo = bo_joined(keeper, context)
        keeper.evaluate("window.__sameDocument = true")

        bo.get_by_role("button", name="Count my pips from a photo").click()
        bo.wait_for_url(re.compile(r"/p/[\w-]+/photo$"))
        bo.get_by_label("Photo of the tiles, face up and apart").set_input_files(
            files=[
                {
                    "name": PHOTO,
                    "mimeType": "image/jpeg",
                    "buffer": (PHOTOS / PHOTO).read_bytes(),
                }
            ]
        )
        bo.get_by_role("button", name="Count the pips").click()
        expect(bo.get_by_role("heading", name=re.compile(r"Points to post: \d+"))).to_be_visible()
        marked = bo.locator("svg.marked-photo")
        expect(marked.locator("a.tile-mark").first).to_be_visible()
        expect(bo.get_by_text(re.compile(r"\d+ tiles? found"))).to_be_visible()
        shot(bo, "hand-photo-marked")

        # Bo corrects the first tile (whatever was read) to 5-4 and confirms.
        pickers = bo.locator("select[name='tile'][data-read]")
        pickers.first.select_option("5-4")
        for i in range(1, pickers.count()):
            pickers.nth(i).select_option("none")  # keep only the corrected tile
        # the headline is what will be posted: the one 5-4 kept, 9 points (photo.js)
        expect(bo.get_by_role("heading", name="Points to post: 9")).to_be_visible()
        bo.get_by_role("button", name="Confirm these tiles").click()

        bo.wait_for_url(re.compile(r"/p/[\w-]+$"))
        expect(bo.get_by_text("Hand posted")).to_be_visible()
        expect(bo.locator(".post-state")).to_contain_text("1 tile")
        shot(bo, "hand-photo-posted")
        bo_hand = hand(keeper, "Bo")
        expect(bo_hand.locator("input[name^='tiles_'][value='5-4']")).to_have_count(1)
        expect(bo_hand.locator(".post-mark")).to_contain_text("5-4")
        assert keeper.evaluate("window.__sameDocument") is True
    finally:
        context.close()
    assert json.loads((PHOTOS / "labels.json").read_text())["photos"][PHOTO]["tiles"]


def test_the_top_menu_words_do_not_break_on_a_360_px_phone(browser, live_server):
    """At 360 px the menu's words wrapped mid-word ("Game / s", "Histor / y") on every page,
    the photo pages included: each menu link stays on one line."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, base_url=live_server.url
    )
    try:
        page = context.new_page()
        page.goto("/")
        lines = page.eval_on_selector_all(
            ".topbar nav a",
            """links => links.map(a => {
                const range = document.createRange();
                range.selectNodeContents(a);
                return [a.textContent.trim(), new Set([...range.getClientRects()]
                    .map(r => Math.round(r.top))).size];
            })""",
        )
        assert lines and all(n == 1 for _, n in lines), lines
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()


def test_confirm_is_held_back_while_a_tile_is_picked_twice_and_typing_is_kept(
    phone: Page, browser, playwright, live_server, shot
):
    """At 360 px: Bo types 23, opens the photo page (the 23 waits), reads valid_2.jpg and picks
    2-2 twice: photo.js marks both pickers and Confirm is held back with the server's words
    (nothing posted, nothing on the page lost); "Back to my hand" shows the 23 again."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, base_url=live_server.url
    )
    try:
        bo = bo_joined(phone, context)
        bo.get_by_label("Points left in my hand").fill("23")
        bo.get_by_role("button", name="Count my pips from a photo").click()
        bo.wait_for_url(re.compile(r"/p/[\w-]+/photo$"))
        bo.get_by_label("Photo of the tiles, face up and apart").set_input_files(
            files=[
                {
                    "name": "valid_2.jpg",
                    "mimeType": "image/jpeg",
                    "buffer": (PHOTOS / "valid_2.jpg").read_bytes(),
                }
            ]
        )
        bo.get_by_role("button", name="Count the pips").click()
        expect(bo.get_by_role("heading", name=re.compile(r"Points to post: \d+"))).to_be_visible()
        pickers = bo.locator("select[name='tile'][data-read]")
        assert pickers.count() >= 3
        pickers.nth(0).select_option("2-2")
        pickers.nth(1).select_option("2-2")
        for i in range(2, pickers.count()):
            pickers.nth(i).select_option("none")
        expect(bo.get_by_role("heading", name="Points to post: 8")).to_be_visible()
        expect(pickers.nth(0)).to_have_attribute("aria-invalid", "true")
        expect(pickers.nth(1)).to_have_attribute("aria-invalid", "true")
        words = pickers.nth(1).evaluate("s => s.validationMessage")
        assert "2-2 is picked more than once: a set has only one 2-2" in words
        # said beside both pickers too, not only when Confirm is pressed
        for i in (0, 1):
            expect(bo.locator(f"#fix-words-{i}")).to_be_visible()
            expect(bo.locator(f"#fix-words-{i}")).to_contain_text("2-2 is picked more than once")
        url = bo.url
        bo.get_by_role("button", name="Confirm these tiles").click()
        shot(bo, "hand-photo-picked-twice")
        assert bo.url == url  # held back: the reading and every pick still on the page
        expect(pickers.nth(0)).to_have_value("2-2")
        expect(bo.locator("svg.marked-photo")).to_be_visible()

        pickers.nth(1).select_option("none")  # the second was not a 2-2 after all
        expect(pickers.nth(0)).not_to_have_attribute("aria-invalid", "true")
        expect(bo.locator("#fix-words-0")).to_be_hidden()
        expect(bo.get_by_text("is picked more than once")).to_have_count(0)
        for i in range(pickers.count()):
            pickers.nth(i).select_option("none")
        words = pickers.nth(0).evaluate("s => s.validationMessage")
        assert "there is no tile left to post" in words
        expect(bo.locator("#fix-words-0")).to_contain_text("there is no tile left to post")

        bo.get_by_role("link", name=re.compile("Back to my hand")).click()
        bo.wait_for_url(re.compile(r"/p/[\w-]+$"))
        expect(bo.get_by_label("Points left in my hand")).to_have_value("23")
        shot(bo, "hand-typing-kept")
    finally:
        context.close()


def test_a_tile_still_on_the_question_mark_stays_marked_after_a_refused_confirm(
    phone: Page, browser, live_server
):
    """The server refuses a Confirm with a tile on "?" and marks its picker aria-invalid;
    photo.js, run on the refused page, used to take the mark away again."""
    with bo_photo_read_on_a_small_phone(phone, browser, live_server) as bo:
        picker = bo.locator("select[name='tile'][data-read]").first
        expect(picker).to_be_visible()
        # as a phone whose script did not hold Confirm back would send it: the tile on "?"
        picker.evaluate("s => { s.add(new Option('?', '?')); s.value = '?'; s.form.submit(); }")
        expect(bo.get_by_text("Tile 1 is not picked yet")).to_be_visible()
        expect(bo.locator("select[name='tile'][data-read]").first).to_have_attribute(
            "aria-invalid", "true"
        )


def test_back_after_confirm_opens_the_photo_page_afresh(phone: Page, browser, live_server):
    """Back from the hand page after a Confirm landed on the answer to the photo's upload,
    which Chromium cannot show again without posting the photo anew ("Confirm Form
    Resubmission", net::ERR_CACHE_MISS): it now opens the photo page, ready for a photo."""
    with bo_photo_read_on_a_small_phone(phone, browser, live_server) as bo:
        pickers = bo.locator("select[name='tile'][data-read]")
        expect(pickers.first).to_be_visible()
        pickers.first.select_option("3-1")
        for i in range(1, pickers.count()):
            pickers.nth(i).select_option("none")
        bo.get_by_role("button", name="Confirm these tiles").click()
        bo.wait_for_url(re.compile(r"/p/[\w-]+$"))
        expect(bo.get_by_text("Hand posted")).to_be_visible()

        bo.go_back()
        expect(bo.get_by_role("heading", name="Bo's pips from a photo")).to_be_visible()
        expect(bo.get_by_label("Photo of the tiles, face up and apart")).to_be_attached()
        assert re.search(r"/p/[\w-]+/photo$", bo.url)


def test_a_tap_on_a_tile_of_the_photo_focuses_its_picker_and_the_label_follows_the_pick(
    phone: Page, browser, live_server
):
    """The tile's link only scrolled to its picker (the thumb then had to find it), and the
    number drawn on the photo kept the first reading whatever was picked."""
    with bo_photo_read_on_a_small_phone(phone, browser, live_server) as bo:
        mark = bo.locator("svg.marked-photo a.tile-mark").first
        expect(mark).to_be_visible()
        mark.locator("polygon").tap()
        picker = bo.locator("select[name='tile'][data-read]").first
        expect(picker).to_be_focused()
        picker.select_option("5-4")
        expect(mark.locator("text")).to_have_text("1: 5-4")
        picker.select_option("none")
        expect(mark.locator("text")).to_have_text("1: \u00d7")


def test_the_photos_labels_are_readable_and_its_tiles_easy_to_tap_at_360_px(
    phone: Page, browser, live_server, shot
):
    """A fresh tester at 360 px: the numbers drawn on the photo were about 6 CSS px (their size
    was set by the tile, in the photo's own pixels) and a small tile's tap area was under
    40 px. Each label is now at least 12 CSS px and each tile a 40 px target or more."""
    with bo_photo_read_on_a_small_phone(phone, browser, live_server) as bo:
        marked = bo.locator("svg.marked-photo")
        expect(marked.locator("a.tile-mark").first).to_be_visible()
        shot(bo, "hand-photo-labels-360")
        shown = marked.bounding_box()
        assert shown is not None and 300 <= shown["width"] <= 360, shown
        labels = marked.locator("a.tile-mark text")
        assert labels.count() >= 1
        for label in labels.all():
            box = label.bounding_box()
            size = label.evaluate(
                """text => parseFloat(text.getAttribute("font-size"))
                    * text.ownerSVGElement.getBoundingClientRect().width
                    / text.ownerSVGElement.viewBox.baseVal.width"""
            )
            assert size >= 12 and box is not None and box["height"] >= 12, (size, box)
        for hit in marked.locator("a.tile-hit").all():
            box = hit.bounding_box()
            assert box is not None and min(box["width"], box["height"]) >= 40, box
        # a tap beside the tile's outline, inside its tap circle, still opens its picker
        hit = marked.locator("a.tile-hit").first.bounding_box()
        bo.touchscreen.tap(hit["x"] + hit["width"] / 2, hit["y"] + 3)
        expect(bo.locator("select[name='tile'][data-read]").first).to_be_focused()


def each_label_tapped_focuses_its_picker(
    bo: Page, shot, name: str, at_least: int, parts: tuple[float, ...]
) -> None:
    """On the reading shown on ``bo``: one label per picker (at least ``at_least``), a
    screenshot ``name``, and a tap on each label, at each of ``parts`` of its width (level
    with its middle), focuses its own tile's picker."""
    marked = bo.locator("svg.marked-photo")
    expect(marked.locator("a.tile-mark").first).to_be_visible()
    labels = marked.locator("a.tile-mark text")
    pickers = bo.locator("select[name='tile'][data-read]")
    assert labels.count() == pickers.count() >= at_least
    shot(bo, name)
    for index in range(labels.count()):
        label = labels.nth(index)
        for part in parts:
            bo.evaluate("document.activeElement.blur()")
            label.scroll_into_view_if_needed()
            box = label.bounding_box()
            assert box is not None
            bo.touchscreen.tap(box["x"] + part * box["width"], box["y"] + box["height"] / 2)
            expect(pickers.nth(index)).to_be_focused()


def test_a_tap_on_each_label_of_a_crowded_photo_focuses_its_own_tiles_picker(
    phone: Page, browser, live_server, shot
):
    """Twelve small tiles in a slanting row on a 4000 px photo, at 360 px: a label moved off
    its small tile lay over the next tile's outline, where a tap went to that tile (and the
    number read there was the wrong tile's). A tap on each label now opens its own picker."""
    halves = [(6, 5), (4, 1), (3, 3), (2, 0), (5, 2), (6, 1), (4, 4), (3, 1), (5, 0), (2, 2)]
    photo = scene([*halves, (6, 3), (1, 0)], angle=0.6, gap=1.3, tile_w=150, size=(4000, 3000))
    with bo_photo_read_on_a_small_phone(phone, browser, live_server, photo.data) as bo:
        # anywhere on the label: its ends lay over the neighbours' outlines
        each_label_tapped_focuses_its_picker(
            bo, shot, "hand-photo-crowded-labels-360", 10, (0.1, 0.3, 0.5, 0.7, 0.9)
        )


def test_a_tap_on_each_label_of_a_wide_photo_focuses_its_own_tiles_picker(
    phone: Page, browser, live_server, shot
):
    """The five shared photos side by side (5:1) at 360 px: labels as tall as the tiles, some
    drawn below the photo with a leader line; a tap on each still opens its own picker."""
    photo = shared_photos_side_by_side()
    with bo_photo_read_on_a_small_phone(phone, browser, live_server, photo) as bo:
        each_label_tapped_focuses_its_picker(bo, shot, "hand-photo-wide-labels-360", 8, (0.5,))


def test_a_links_language_is_taken_on_the_photo_page_and_kept_in_its_address(
    phone: Page, browser, live_server
):
    """A tester opened the photo page with "?lang=lt": the address dropped it at once
    (photo.js gave every photo page the upload form's address), as if it were not taken. The
    page is in the link's language (a phone whose browser asks for none of the app's) and
    its address keeps the query; the answer to the upload stays in that language."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="fr-FR", base_url=live_server.url
    )
    try:
        bo = bo_joined(phone, context)
        bo.goto(urlsplit(bo.url).path + "/photo?lang=lt")
        expect(bo.locator("html")).to_have_attribute("lang", "lt")
        bo.wait_for_load_state("load")  # photo.js (deferred) has run
        assert bo.url.endswith("/photo?lang=lt"), bo.url
        bo.reload()
        expect(bo.locator("html")).to_have_attribute("lang", "lt")
        bo.locator("#photo").set_input_files(
            files=[
                {"name": PHOTO, "mimeType": "image/jpeg", "buffer": (PHOTOS / PHOTO).read_bytes()}
            ]
        )
        bo.locator("form.photo-upload button[type=submit]").click()
        expect(bo.locator("svg.marked-photo")).to_be_visible()
        expect(bo.locator("html")).to_have_attribute("lang", "lt")
        assert re.search(r"/p/[\w-]+/photo$", bo.url), bo.url  # the answer's address: no post
    finally:
        context.close()


def test_a_tile_the_photo_missed_is_added_and_counted_at_360_px(phone: Page, browser, live_server):
    """A tile the reader missed could not be added on the page: it is added under "The photo
    missed a tile?", the headline counts it as it is picked, and Confirm posts it."""
    with bo_photo_read_on_a_small_phone(phone, browser, live_server) as bo:
        pickers = bo.locator("select[name='tile'][data-read]")
        expect(pickers.first).to_be_visible()
        pickers.first.select_option("3-1")
        for i in range(1, pickers.count()):
            pickers.nth(i).select_option("none")
        headline = bo.locator("[data-hand-points]").first
        expect(headline).to_have_text("4")
        bo.get_by_text("The photo missed a tile? Add it here.").tap()
        bo.get_by_label("Added tile 1").select_option("6-5")
        expect(headline).to_have_text("15")
        bo.get_by_role("button", name="Confirm these tiles").click()
        bo.wait_for_url(re.compile(r"/p/[\w-]+$"))
        expect(bo.get_by_text("Hand posted")).to_be_visible()
        expect(bo.get_by_text("6-5").first).to_be_visible()


def test_the_count_found_is_asked_about_and_a_missed_tile_added_from_there_at_360_px(
    phone: Page, browser, live_server
):
    """The page said "1 tile sure" though the reader can miss a tile without a word: it
    now asks, on the first screen, whether the tiles found are every tile in the hand, and
    its link opens "The photo missed a tile?" with the first added tile's picker focused."""
    with bo_photo_read_on_a_small_phone(phone, browser, live_server) as bo:
        question = bo.locator("[data-count-check]")
        expect(question).to_have_text(
            "Is that every tile in the hand? If not, add the missed tile."
        )
        expect(question).to_be_in_viewport()  # seen before scrolling to Confirm
        expect(bo.get_by_text("1 tile found, read sure")).to_be_visible()
        added = bo.get_by_label("Added tile 1")
        expect(added).to_be_hidden()  # folded in "The photo missed a tile?"
        question.get_by_role("link", name="If not, add the missed tile.").tap()
        expect(added).to_be_visible()
        expect(added).to_be_focused()
        added.select_option("6-5")
        expect(bo.locator("[data-hand-points]").first).to_have_text("15")


def test_without_javascript_the_count_questions_link_still_opens_the_added_tile(
    phone: Page, browser, live_server
):
    """The link is a plain one to the first added tile's picker: without photo.js the
    browser opens the folded "The photo missed a tile?" around it."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        has_touch=True,
        base_url=live_server.url,
        java_script_enabled=False,
    )
    try:
        bo = bo_photo_read(phone, context)
        bo.get_by_role("link", name="If not, add the missed tile.").tap()
        expect(bo.get_by_label("Added tile 1")).to_be_visible()
    finally:
        context.close()


def ana_posted(live_server, share_path: str, tiles: list[str]) -> None:
    """Ana's hand for the round with 9-9 posted from a phone of hers (stored straight in the
    live server's database), in the game of ``share_path`` ("/p/<share token>")."""
    share = share_path.rsplit("/", 1)[-1]
    with live_server.app.app_context():
        game = db.session.scalar(db.select(Game).where(Game.share_token == share))
        ana = next(s for s in game.seats if s.player.name == "Ana")
        device = Device()
        db.session.add(device)
        db.session.flush()
        db.session.add(
            HandPost(game_id=game.id, double=9, seat_id=ana.id, tiles=tiles, device_id=device.id)
        )
        db.session.commit()
        db.session.remove()


def test_the_centre_double_and_a_tile_ana_posted_are_flagged_as_they_are_picked(
    phone: Page, browser, live_server, shot
):
    """At 360 px: Ana posted 5-4; Bo reads valid_4.jpg (one tile, 3-1) for the round with 9-9
    and picks 9-9, the centre double (in the middle of the table, in nobody's hand): photo.js
    says so beside the picker at once, in the words of the Confirm that would refuse it, and
    holds the Confirm back (nothing lost). He picks 5-4: that is flagged as Ana's, but only
    flagged (her hand may be the wrong one: the post decides). He picks 5-3: no flag."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, base_url=live_server.url
    )
    context.set_default_timeout(10_000)
    try:
        bo = bo_joined(phone, context)
        ana_posted(live_server, urlsplit(bo.url).path, ["5-4"])
        bo.get_by_role("button", name="Count my pips from a photo").click()
        bo.wait_for_url(re.compile(r"/p/[\w-]+/photo$"))
        bo.get_by_label("Photo of the tiles, face up and apart").set_input_files(
            files=[
                {"name": PHOTO, "mimeType": "image/jpeg", "buffer": (PHOTOS / PHOTO).read_bytes()}
            ]
        )
        bo.get_by_role("button", name="Count the pips").click()
        expect(bo.get_by_role("heading", name=re.compile(r"Points to post: \d+"))).to_be_visible()
        picker = bo.locator("select[name='tile'][data-read]").first
        flag = bo.locator("#fix-words-0")
        expect(flag).to_be_hidden()

        picker.select_option("9-9")
        centre = "Bo: 9-9 is this round's centre double, so it can't be in a hand."
        expect(flag).to_be_visible()
        expect(flag).to_have_text(centre)
        expect(picker).to_have_attribute("aria-invalid", "true")
        expect(picker).to_have_attribute("aria-describedby", "fix-words-0")
        assert picker.evaluate("s => s.validationMessage") == centre
        expect(bo.get_by_role("heading", name="Points to post: 18")).to_be_visible()
        # readable at 360 px: the words wrap inside the page, nothing runs off its side
        box = flag.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert bo.evaluate("document.documentElement.scrollWidth") <= 360
        flag.scroll_into_view_if_needed()
        shot(bo, "hand-photo-centre-double-flagged")
        url = bo.url
        bo.get_by_role("button", name="Confirm these tiles").click()
        assert bo.url == url  # held back: the reading and the pick still on the page
        expect(picker).to_have_value("9-9")

        picker.select_option("5-4")
        expect(flag).to_have_text(
            "5-4 is already in Ana's posted hand: check your tiles (or ask Ana to check theirs)."
        )
        expect(picker).to_have_attribute("aria-invalid", "true")
        assert picker.evaluate("s => s.validationMessage") == ""  # flagged, not held back

        picker.select_option("5-3")
        expect(flag).to_be_hidden()
        expect(picker).not_to_have_attribute("aria-invalid", "true")
        expect(picker).not_to_have_attribute("aria-describedby", re.compile("fix-words"))
        assert picker.evaluate("s => s.validationMessage") == ""
    finally:
        context.close()
