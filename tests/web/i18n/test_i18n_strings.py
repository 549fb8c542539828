"""Everything a player reads goes through gettext (issue 13).

Two scanners, each with a small allow-list and a self-test proving it catches what it is for:

* templates: text between tags and the attributes a player reads or hears (``title``,
  ``placeholder``, ``aria-label``, ``alt``, ``data-confirm``...) outside ``{{ _() }}`` and
  ``{% trans %}``;
* Python modules of the web layer: sentence-like string literals and f-strings that are not an
  argument of ``_``/``_l``/``ngettext`` (an f-string sentence would reach a page untranslated).
  The engine's sentences are checked by tests/web/i18n/test_i18n_words.py (templates + params).
"""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser

from companion.config import ROOT

TEMPLATES = ROOT / "templates"
PACKAGE = ROOT / "companion"

# --- templates ---------------------------------------------------------------------------------

#: attributes whose text a player reads or hears
READ_ATTRIBUTES = {
    "title",
    "placeholder",
    "aria-label",
    "aria-description",
    "aria-roledescription",
    "alt",
    "label",
    "data-confirm",
}
#: words that are the same in every language: file and section names of the rule model, the
#: position notation's keyword (``9-5 on S1``, shown in collapsed technical details) and UTC
#: and the suffix of a field's error list id (templates/history/_errors.html)
ALLOWED_TEMPLATE_WORDS = {"RULES", "md", "docs", "UTC", "on", "errors"}
_WORD = re.compile(r"[^\W\d_]{2,}")


def _strip_jinja(source: str) -> str:
    """The template with its Jinja removed: comments and ``{% trans %}`` blocks dropped,
    statements dropped, expressions replaced by a space (their text is gettext's or data)."""
    source = re.sub(r"{#.*?#}", "", source, flags=re.S)
    source = re.sub(r"{%-?\s*trans\b.*?{%-?\s*endtrans\s*-?%}", " ", source, flags=re.S)
    source = re.sub(r"{{.*?}}", " ", source, flags=re.S)
    return re.sub(r"{%.*?%}", "", source, flags=re.S)


class _TextFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.found: list[tuple[int, str]] = []

    def _check(self, text: str) -> None:
        words = [w for w in _WORD.findall(text) if w not in ALLOWED_TEMPLATE_WORDS]
        if words:
            self.found.append((self.getpos()[0], " ".join(text.split())[:80]))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack.append(tag)
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self._check(value)
            if name == "value" and tag == "input" and ("type", "submit") in attrs and value:
                self._check(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1] in ("script", "style")):
            self._check(data)


def template_strings(source: str) -> list[tuple[int, str]]:
    """(line, text) of every text a player reads that is not gettext's."""
    finder = _TextFinder()
    finder.feed(_strip_jinja(source))
    finder.close()
    return finder.found


def test_the_template_scanner_finds_text_outside_gettext():
    source = (
        '<p title="Open the game">{{ _("Fine") }}</p>\n<button aria-label="{{ _(\'ok\') }}">'
        'Save now</button>{% trans %}Also fine{% endtrans %}<td{% if z %} class="zero"'
        '{% endif %}>{{ n }}</td><input type="submit" value="Go on">'
    )
    found = [text for _, text in template_strings(source)]
    assert found == ["Open the game", "Save now", "Go on"]


def test_no_template_shows_text_outside_gettext():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for line, text in template_strings(path.read_text(encoding="utf-8"))
    ]
    assert found == []


# --- Python ------------------------------------------------------------------------------------

GETTEXT = {"_", "_l", "gettext", "lazy_gettext", "ngettext", "lazy_ngettext", "pgettext"}
#: calls whose string arguments never reach a player: logging, programming errors, SQL,
#: regular expressions, parsing
NOT_FOR_PLAYERS = {
    "debug",
    "info",
    "warning",
    "error",
    "exception",
    "critical",
    "TypeError",
    "AttributeError",
    "RuntimeError",
    "AssertionError",
    "NotImplementedError",
    "KeyError",
    "LookupError",
    "compile",
    "text",
    "execute",
    "strftime",
    "strptime",
}
#: modules whose words are not a player's: the JSON API and its OpenAPI description are a
#: format for programs (English, like JSON keys), the command line speaks to the host
NOT_PLAYER_FACING = {"api", "cli.py", "serve.py", "engine"}
#: (module, text start) of literals that are data or command-line output, not page text
ALLOWED_PYTHON = {
    ("history/demo.py", "Club house"),  # place names of the demo data
    ("history/demo.py", "Library café"),
    ("history/demo.py", "Demo data needs"),  # the demo-data command's refusal
    ("services/exchange/export.py", "There is no game"),  # the CLI's export; the page answers 404
    ("services/exchange/importing.py", "Refused: "),  # ImportReport.lines(): the CLI's report
    ("services/exchange/importing.py", "Imported: added"),
    ("services/exchange/importing.py", "Already there"),
    ("services/exchange/importing.py", "Invisible control"),
    ("services/exchange/importing.py", "Restored (they"),
    ("services/exchange/importing.py", "Left deleted ("),
}
#: a sentence: a capitalised word then a lower-case one ("Round saved"), or words ending in
#: a full stop, colon, question or exclamation mark ("must be text.")
_SENTENCE = re.compile(r"^[A-Z][a-z]+,? [a-z]|[a-z]{2,} [a-z]{2,}.*[.:!?]$")


def _call_name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def python_strings(source: str) -> list[tuple[int, str]]:
    """(line, text) of sentence-like literals and f-strings outside gettext, docstrings and
    the calls of :data:`NOT_FOR_PLAYERS`."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        else:
            continue
        parent = parents.get(node)
        # a placeholder counts as a word: "Saved {} rounds." is a sentence
        sentence = _SENTENCE.search(text.strip().replace("{}", "nn"))
        if isinstance(parent, ast.JoinedStr | ast.Expr) or not sentence:
            continue  # a part of an f-string, a docstring, or not a sentence
        up: ast.AST | None = parent
        while up is not None and not isinstance(up, ast.FunctionDef | ast.ClassDef):
            if isinstance(up, ast.Call) and _call_name(up.func) in GETTEXT | NOT_FOR_PLAYERS:
                break
            up = parents.get(up)
        else:  # reached the function, class or module around it: nothing translated it
            found.append((node.lineno, text.strip()[:80]))
    return found


def test_the_python_scanner_finds_sentences_outside_gettext():
    source = '''
def view(n, name):
    """A docstring is fine."""
    log.warning("Something odd happened here.")
    flash(_("Round saved."))
    flash(f"Saved {n} rounds.")
    problems.append("The deal is short.")
    return render_template("x.html", title=f"{name} has won the game!", ok=_("%(n)s fine.", n=n))
'''
    found = [text for _, text in python_strings(source)]
    assert found == ["Saved {} rounds.", "The deal is short.", "{} has won the game!"]


def test_no_python_module_shows_a_sentence_outside_gettext():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] in NOT_PLAYER_FACING:
            continue
        for line, text in python_strings(path.read_text(encoding="utf-8")):
            if not any(str(relative) == m and text.startswith(t) for m, t in ALLOWED_PYTHON):
                found.append(f"companion/{relative}:{line}: {text}")
    assert found == []
