"""Machine-filled catalogs for checking the translation machinery (never commit their output).

Extracts every message as ``make babel-extract`` does (babel.cfg), then fills each msgstr with
a ROT13 copy of the English: placeholders (``%(name)s``, ``{n}``), HTML tags and entities are
kept, every letter is changed, so a page rendered with such a catalog shows no English word
that went through gettext, and any English word left on it came from outside gettext. Plural
messages get every plural form of the language.

    .venv/bin/python scripts/i18n_machine_catalogs.py ru lt cs es de   # into companion/translations
    .venv/bin/python scripts/i18n_machine_catalogs.py --out /tmp/tr ru

The catalogs written into companion/translations are for a local check only (the real ones
are the translators'); ``--clean`` removes what this script wrote there.
"""

from __future__ import annotations

import argparse
import codecs
import re
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "companion" / "translations"
MARK = "machine-filled by scripts/i18n_machine_catalogs.py"
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "_l": None,
    "lazy_gettext": None,
    "plural_words": (1, 2),
}
#: what stays as it is: placeholders, HTML tags and entities
_KEEP = re.compile(r"%\([a-z_0-9]+\)[sd]|%[sd%]|\{[a-z]*\}|<[^>]*>|&[a-z#0-9]+;")


def scramble(text: str) -> str:
    """``text`` with every letter outside placeholders, tags and entities ROT13'd."""
    out, last = [], 0
    for keep in _KEEP.finditer(text):
        out.append(codecs.encode(text[last : keep.start()], "rot13"))
        out.append(keep.group())
        last = keep.end()
    out.append(codecs.encode(text[last:], "rot13"))
    return "".join(out)


def extracted() -> Catalog:
    """Every message of the app, as ``make babel-extract`` finds them."""
    sys.path.insert(0, str(ROOT))
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    catalog = Catalog()
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT),
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=(),
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def filled(template: Catalog, code: str) -> Catalog:
    """A catalog for ``code`` with every message machine-filled."""
    catalog = Catalog(locale=code, header_comment=f"# {MARK}", fuzzy=False)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            forms = [scramble(message.id[0])] + [scramble(message.id[1])] * (
                catalog.num_plurals - 1
            )
            catalog.add(message.id, tuple(forms), message.locations, context=message.context)
        else:
            catalog.add(
                message.id, scramble(message.id), message.locations, context=message.context
            )
    return catalog


def write(codes: Iterable[str], out: Path) -> None:
    template = extracted()
    for code in codes:
        folder = out / code / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        catalog = filled(template, code)
        with (folder / "messages.po").open("wb") as handle:
            write_po(handle, catalog)
        with (folder / "messages.mo").open("wb") as handle:
            write_mo(handle, catalog)
        print(f"{code}: {len(catalog)} messages -> {folder}")


def clean(out: Path) -> None:
    for po in out.glob("*/LC_MESSAGES/messages.po"):
        if MARK in po.read_text(encoding="utf-8")[:300]:
            shutil.rmtree(po.parent.parent)
            print(f"removed {po.parent.parent}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("codes", nargs="*")
    parser.add_argument("--out", type=Path, default=TRANSLATIONS)
    parser.add_argument("--clean", action="store_true")
    args = parser.parse_args()
    if args.clean:
        clean(args.out)
    else:
        write(args.codes, args.out)


if __name__ == "__main__":
    main()
