"""WTForms' and Flask-WTF's own messages in the player's language.

Flask-WTF translates a form's built-in messages ("This field is required.", "Not a valid
integer value.") with the catalogs WTForms ships, which lack Lithuanian and file Czech under
``cs_CZ``, and use other words than our glossaries. So every request's form translations are
the app's own catalog first (the built-in messages are listed below, so they are extracted and
translated with the rest), then WTForms' catalog for the language as a fallback.

Flask-WTF reads them from ``request.wtforms_translations`` (its per-request cache), which
:func:`install_form_translations` fills before each request with a lazy object: nothing is
loaded unless a form shows a message.
"""

from __future__ import annotations

from typing import Any

from babel import support
from flask import Flask, request
from flask_babel import get_babel, get_locale
from flask_babel import lazy_gettext as _l
from wtforms.i18n import messages_path

#: the built-in messages a form of this app can show (WTForms 3 and Flask-WTF wording)
BUILT_IN = (
    _l("This field is required."),
    _l("Not a valid integer value."),
    _l("Not a valid decimal value."),
    _l("Not a valid date value."),
    _l("Not a valid datetime value."),
    _l("Not a valid choice."),
    _l("Invalid Choice: could not coerce."),
    _l("'%(value)s' is not a valid choice for this field."),
    _l("Invalid input."),
    _l("Number must be at least %(min)s."),
    _l("Number must be at most %(max)s."),
    _l("Number must be between %(min)s and %(max)s."),
    _l("The CSRF token is missing."),
    _l("The CSRF token is invalid."),
    _l("The CSRF token has expired."),
    _l("The CSRF tokens do not match."),
    _l("The CSRF session token is missing."),
)
#: WTForms files some languages under a region (its Czech is cs_CZ)
_WTFORMS_LOCALE = {"cs": "cs_CZ"}


class _FormTranslations:
    """gettext for WTForms: the app's catalog, then WTForms' own; loaded on first use."""

    def __init__(self, folders: list[str]) -> None:
        self._folders = folders
        self._loaded: Any = None

    def _translations(self) -> Any:
        if self._loaded is None:
            # The language is asked for here, not before the request: a response that shows
            # no words (a static file, a redirect) is then in no language and does not say
            # ``Vary: Accept-Language`` (companion.web.languages.vary_by_language).
            code = str(get_locale() or "en")
            own = support.Translations.load(self._folders[0], [code])
            theirs = support.Translations.load(
                messages_path(), [_WTFORMS_LOCALE.get(code, code)], domain="wtforms"
            )
            if isinstance(own, support.Translations):
                own.add_fallback(theirs)
                self._loaded = own
            else:
                self._loaded = theirs
        return self._loaded

    def ugettext(self, string: str) -> str:
        return str(self._translations().ugettext(string))

    def ungettext(self, singular: str, plural: str, n: int) -> str:
        return str(self._translations().ungettext(singular, plural, n))


def _set_form_translations() -> None:
    folders = list(get_babel().translation_directories)
    request.wtforms_translations = _FormTranslations(folders)  # type: ignore[attr-defined]


def install_form_translations(app: Flask) -> None:
    """Give every request's forms the app's translations (see the module's docstring)."""
    app.before_request(_set_form_translations)
