"""The photo page's tile pickers on a 360 px phone: a "not sure" tile's label ("Tile 1 (not
sure: check it)") sat beside a select as wide as its longest option ("? (looks like 4-3:
pick it)") and was squeezed to one letter per line, about 900 px tall in German. The label
and its select now wrap onto lines of their own, in English, German and Russian alike."""

from __future__ import annotations

import html

import pytest
from flask_babel import force_locale, gettext

from companion import create_app

pytestmark = pytest.mark.browser


def picker_label(index: int) -> str:
    """One "not sure" tile's label and picker, as templates/pips/_photo_reading.html draws it."""
    words = (
        gettext("Tile %(n)d", n=index + 1),
        gettext("(not sure: check it)"),
        gettext("? (looks like %(t)s: pick it)", t="4-3"),
    )
    tile, unsure, guess = (html.escape(w) for w in words)
    return (
        f'<label class="fix unsure" id="fix-{index}">{tile} <strong>{unsure}</strong>'
        f'<select name="tile"><option value="?" selected>{guess}</option>'
        f'<option value="4-3">4-3</option></select></label>'
    )


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
def test_a_not_sure_tiles_label_does_not_break_per_letter_at_360_px(
    browser, live_server, shot, lang
):
    app = create_app()
    with app.test_request_context(), force_locale(lang):
        labels = "".join(picker_label(i) for i in range(2))
    context = browser.new_context(viewport={"width": 360, "height": 740}, base_url=live_server.url)
    try:
        page = context.new_page()
        page.goto("/")  # the app's stylesheet, as every page links it
        page.evaluate(
            """labels => {
                document.querySelector("main").innerHTML =
                    '<form class="photo-confirm"><fieldset>' + labels + '</fieldset></form>';
            }""",
            labels,
        )
        shot(page, f"photo-labels-360-{lang}")
        for box in page.locator(".photo-confirm .fix").all():
            height = box.bounding_box()["height"]
            assert height < 150, (lang, height)  # three short lines at most, not 900 px
        strong = page.locator(".photo-confirm .fix strong").first.bounding_box()
        assert strong["width"] > 60, (lang, strong)  # words, not a column of letters
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= 360, (lang, scroll)
    finally:
        context.close()
