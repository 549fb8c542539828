"""The catalogs' wording (issue 26): each translation keeps its message's placeholders and `%`
escapes, each language speaks to the player in one register, and the draw pile has the word
the language's players use at the table (the calque of "chicken yard" at most once, in the
rule book, as the game's nickname).

The register markers are words only one register uses (ru «вы»-imperatives, de «Sie», es
usted forms, cs vykání, lt «jūs»-imperatives); docs/glossary/<lang>.md names the register.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from companion.config import LANGUAGES, ROOT
from tests.web.setup_helpers import start_night

TRANSLATIONS = ROOT / "companion" / "translations"
TRANSLATED = [code for code in LANGUAGES if code != "en"]

#: a %-directive as Python's %-formatting reads it, or any other `%` (which it refuses:
#: "incomplete format" or "unsupported format character" - a 500 on a page)
_DIRECTIVE = re.compile(r"%(?:\((\w+)\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?([diouxXeEfFgGcrsa%])?")


def directives(text: str) -> Counter[str]:
    """The %-directives of a text: ``%(name)s`` -> "%(name)s", ``%%`` -> "%%", a `%` that
    formatting refuses -> "% (broken)"."""
    found: Counter[str] = Counter()
    for match in _DIRECTIVE.finditer(text):
        name, kind = match.groups()
        if kind is None:
            found["% (broken)"] += 1
        elif kind == "%":
            found["%%"] += 1
        else:
            found[f"%({name}){kind}" if name else f"%{kind}"] += 1
    return found


def catalog(code: str) -> list[Message]:
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return [m for m in read_po(handle, locale=code) if m.id]


def texts(value: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, tuple | list) else (value,)


def test_directives_are_read_as_python_formatting_reads_them():
    assert directives("%(name)s has 5%% of %(n)d") == Counter({"%(name)s": 1, "%%": 1, "%(n)d": 1})
    assert directives("%") == Counter({"% (broken)": 1})
    assert directives("50 %.") == Counter({"% (broken)": 1})
    assert directives("50 % de") == Counter({"%d": 1})  # "% d": a space flag, then d


def placeholder_problems(message: Message) -> list[str]:
    """What a translation of one message changed in its placeholders: a plural form may leave
    its count out ("одно очко"), nothing else may be dropped, added or broken."""
    ids = texts(message.id)
    wanted = directives(ids[-1]) | directives(ids[0])
    problems = []
    for form in texts(message.string):
        got = directives(form)
        if "% (broken)" in got:
            problems.append(f"a lone %: {form!r}")
        extra = set(got) - set(wanted) - {"% (broken)"}
        missing = set(wanted) - set(got)
        if len(ids) > 1:  # plural forms: the count may be spelled out in a form
            missing -= {d for d in missing if d.startswith(("%(num)", "%(n)", "%(count)"))}
        if extra or missing:
            problems.append(f"{ids[0]!r}: added {sorted(extra)}, dropped {sorted(missing)}")
    return problems


def test_a_lone_percent_sign_is_found():
    assert placeholder_problems(Message("Rate", "%")) == ["a lone %: '%'"]
    assert placeholder_problems(Message("Won %(n)s%%", "%(n)s %% ganadas")) == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_translation_keeps_its_placeholders(code):
    problems = [p for message in catalog(code) for p in placeholder_problems(message)]
    assert problems == [], f"{code}: {problems[:10]}"


#: words of the register a language does NOT use (its glossary names the one it does)
OTHER_REGISTER = {
    # «вы»: its pronouns and the -йте/-ите/-ьте imperatives and present forms ("Добавьте")
    "ru": r"\b(?:[Вв]ы|[Вв]ас|[Вв]ам|[Вв]аш\w*|\w+(?:йте|йтесь|ите|итесь|ьте|ьтесь))\b",
    # «Sie»: "schreiben Sie", "Ihnen", "Ihre" (a capital "Sie" after a colon is "they")
    "de": r"\b(?:[a-zäöüß]\w*en Sie|Ihnen|Ihre[mnrs]?)\b",
    # usted / vosotros: pronouns and the usted imperatives of the verbs the catalog uses (the
    # same forms are subjunctives after "que" or "se": "pide que revise", "que se guarde")
    "es": r"(?i)(?<!que )(?<!se )\b(?:usted(?:es)?|vosotros|vuestr[oa]s?|escr[ií]ba|pulse"
    r"|introduzca|marque|elija|toque|revise|compruebe|borre|guarde|seleccione|pegue|[uú]nase)(?:l[oa]s?|le|se)?\b",
    # jūs: its pronouns and the -kite/-ite imperatives ("Išsaugokite", "patikrinkite")
    "lt": r"(?i)\b(?:jūs|jūsų|jums|\w+kite|\w+kitės)\b",
    # vykání: its pronouns, "jste" and the -te imperatives ("Uložte", "pište", "zkontrolujte";
    # "sečte", "přečte" are the third person singular)
    "cs": r"(?i)\b(?:vy|vás|vám|váš|vaše|vaši|vašeho|vašem|vaší|vašich|jste"
    r"|\w+(?:ujte|ejte|ijte|ete|ěte|íte|ožte|ište|ňte|ďte|ťte|řte))\b",
}

#: the calque of "chicken yard" for the draw pile, allowed once (the rule book's nickname)
CALQUE = {
    "ru": r"(?:куриный|куриного|курином|куриным)\s+двор",
    "de": r"Hühnerh[oö]f",
    "es": r"gallinero",
    "lt": r"viščiukų\s+kiem",
    "cs": r"kuřecí\w*\s+dv[ůo]",
}
#: the draw pile as each language's players name it (docs/glossary/<lang>.md says why)
DRAW_PILE = {"ru": "базар", "de": "Talon", "es": "pozo", "lt": "atsarg", "cs": "hromád"}


def said(message: Message) -> str:
    return " ".join(texts(message.string))


@pytest.mark.parametrize("code", sorted(OTHER_REGISTER))
def test_one_register_per_language(code):
    marker = re.compile(OTHER_REGISTER[code])
    mixed = [(m.id, marker.findall(said(m))) for m in catalog(code) if marker.search(said(m))]
    assert mixed == []


@pytest.mark.parametrize("code", sorted(CALQUE))
def test_the_draw_pile_is_the_tables_word_and_the_calque_at_most_once(code):
    calque = re.compile(CALQUE[code], re.IGNORECASE)
    found = [m.id for m in catalog(code) if calque.search(said(m))]
    assert len(found) <= 1, found
    yard = [m.id for m in catalog(code) if "chicken yard" in texts(m.id)[0]]
    tables_word = [m for m in yard if DRAW_PILE[code] in translation(code, texts(m)[0])]
    assert len(yard) > 15 and len(tables_word) >= len(yard) - 1


@pytest.mark.parametrize("code", sorted(OTHER_REGISTER))
def test_the_glossary_names_the_register_and_says_no_native_speaker_reviewed(code):
    glossary = (ROOT / "docs" / "glossary" / f"{code}.md").read_text("utf-8")
    assert "## Register" in glossary
    assert "No native speaker has reviewed" in glossary


def translation(code: str, msgid: str) -> str:
    found = [said(m) for m in catalog(code) if texts(m.id)[0] == msgid]
    assert len(found) == 1, (code, msgid)
    return found[0]


#: (language, msgid, a wording a fluent player would not write, what the message says instead)
MISREAD = [
    ("ru", "Count %(who)s's pips from a photo", "Очки %(who)s", ": %(who)s"),  # no case
    ("ru", "not joined", "не подключён", "телефон не подключён"),  # no gender for the name
    ("ru", "joined on a phone", "подключён с", "телефон подключён"),
    ("ru", "Ask the rules checker", "Спросить проверку", "Проверить по правилам"),
    ("ru", "The pasted text is not valid JSON.", "не правильный", "некорректный JSON"),
    # "raus" reads as "eliminated"
    ("de", "Went out", "Raus", "Alle abgelegt"),
    ("de", "Out", "Raus", "Fertig"),
    ("de", "Nobody went out: the round was blocked", "ist raus", "Niemand hat alle Steine"),
    ("de", "Please correct the marked fields.", "korrigier ", "korrigiere"),  # clipped
    ("de", "first", "1", "1."),  # the German ordinal's period
    ("es", "Players: join on your phone", "únete", "Cada jugador se une"),  # plural subject
    ("es", "'%(name)s' is not a house-rule switch.", "opción de la casa", "reglas de la casa"),
    ("es", "Rate", "%", "Tasa"),
    ("lt", "Players: join on your phone", "prisijunkite", "Kiekvienas žaidėjas"),
    ("cs", "Players: join on your phone", "připojte", "Každý hráč"),
    ("cs", "not joined", "nepřipojen", "telefon nepřipojen"),  # "Olga: nepřipojen"
    ("cs", "Ask the rules checker", "Zeptat se kontroly", "Ověřit podle pravidel"),
    ("es", "joined on a phone", "unido", "se unió"),  # "Olga: unido"
]


@pytest.mark.parametrize(("code", "msgid", "wrong", "right"), MISREAD)
def test_what_read_wrong_is_worded_as_players_say_it(code, msgid, wrong, right):
    text = translation(code, msgid)
    assert right in text and wrong not in text.replace(right, ""), text


@pytest.mark.usefixtures("fresh_translations")
def test_the_download_line_is_a_whole_sentence_in_german(client):
    """ "Download %(what)s:" with a fragment put in started the German line in lower case
    ("diesen Spieleabend herunterladen:"); each case is now a sentence of its own."""
    night_id = start_night(client)
    de = {"Accept-Language": "de"}
    assert (
        "Diesen Spieleabend herunterladen:"
        in client.get(f"/history/nights/{night_id}", headers=de).text
    )
    assert "Alle Spieleabende herunterladen:" in client.get("/history/", headers=de).text


@pytest.mark.usefixtures("fresh_translations")
def test_german_ordinals_have_their_period(client):
    """ "the open 4 on the second spoke" in German is "offene 4 am 2. Arm": an ordinal written
    with its period needs no case ending, wherever the place is put."""
    foot = "9-9 centre; 9-5 on C, 9-4 on C, 9-3 on C, 9-8 on C, 5-5 on S1"
    html = client.get(
        "/checker/",
        query_string={"q": "move", "pos": f"{foot}, 5-1 on D1, 3-8 on S3"},
        headers={"Accept-Language": "de"},
    ).text
    assert "offene 1 am 1. Zeh am Hühnerfuß auf 5-5" in html
    assert "offene 8 am 3. Arm" in html
    assert "an Arm" not in html


#: placeholders that always hold a player's name (or a list of names)
NAME_KEYS = r"(?:who|name|names|player|holder|kept|gone|winner|leader)"
#: words after which a Russian or Czech name would need a case ending it cannot get
GOVERNING = {
    "ru": r"\b(?:к|у|с|со|для|от|о|об|про|без|перед|за|между|впереди|позади)",
    "cs": r"\b(?:k|ke|u|s|se|pro|od|o|bez|před|za|mezi|do)",
}


@pytest.mark.parametrize("code", sorted(GOVERNING))
def test_a_name_never_follows_a_word_that_needs_its_case(code):
    """«к %(kept)s», «с %(names)s» would print «к Ольга»: the name stands after «игрок» /
    «hráč» in the right case («к игроку Ольга») or on its own."""
    pattern = re.compile(rf"{GOVERNING[code]}\s+%\({NAME_KEYS}\)s")
    found = [m.id for m in catalog(code) if pattern.search(said(m))]
    assert found == []


@pytest.mark.parametrize("code", sorted(GOVERNING))
def test_a_name_is_never_the_subject_of_a_verb_with_a_gender_ending(code):
    """«%(player)s не мог(ла)», «%(who)s poslal(a)»: the verb's subject is «игрок» / «hráč»."""
    pattern = re.compile(rf"%\({NAME_KEYS}\)s\s+(?:\w+\s+)?\w+\((?:а|ла|a|la)\)")
    found = [m.id for m in catalog(code) if pattern.search(said(m))]
    assert found == []


@pytest.mark.usefixtures("fresh_translations")
def test_a_games_house_rules_are_worded_in_the_players_language(app, client):
    """The history game page listed each house rule's meaning untranslated ("Four spokes (the
    Maltese cross).") under a translated summary."""
    from companion.extensions import db
    from companion.history.demo import generate

    with app.app_context():
        generate(db.session, games=1, nights=1, players=4)
    page = client.get("/history/games/1", headers={"Accept-Language": "de"}).text
    assert "Vier Arme (das Malteserkreuz)." in page
    assert "Four spokes" not in page and "One tile per turn." not in page
