"""Narration: an event's code and parameters told as a sentence, in the reader's language.

The English sources are each system's ``rules/<system>/text.py`` (:func:`sentence`,
:func:`counted`, :func:`term`), every language a gettext catalog (``rules/locale/``); each catalog
is compiled once per process into one Python function per event code (:func:`catalog`), and
:func:`narrate` fills an answer's texts with the names its request gave. The template syntax, the
languages' rules and how it works: docs/narration.md; ``tests/narration/reference.py`` reads the
same rules the slow way.
"""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final, get_args, get_origin
from unicodedata import bidirectional

from babel import Locale
from babel.lists import format_list
from pydantic import BaseModel

from rules.models import GrammaticalClass

#: The languages of the catalogs, English (the source language) first: the fallback.
LANGUAGES: Final = ("en", "pl", "fi", "ar")
DEFAULT: Final = "en"
#: The gettext domain and the folder of the catalogs.
DOMAIN: Final = "dragonroll"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
#: First Strong Isolate and Pop Directional Isolate (Unicode bidi): a value inside them keeps its
#: own direction inside right-to-left text.
FSI: Final = "\u2068"
PDI: Final = "\u2069"
RTL: Final = frozenset({"ar"})
#: The comma a list of values (dice) is joined with; a list of names is joined as the language
#: joins them (CLDR's "and" list, :func:`babel.lists.format_list`).
COMMA: Final = {"ar": "\u060c "}
#: Where :func:`names` keeps a participant's grammatical gender: under this prefix and the key
#: its name is kept under (an id, or the field of a model alone in it). No id or field has it.
GENDER: Final = "\x00gender:"
#: The grammatical classes a ``{field:?word|feminine=word}`` field may choose by: the request's
#: ``gender`` values (``rules.models.GrammaticalClass``), a person's or a creature's gender or a
#: group's kind (``plural``: people; ``plural-nonhuman``: beasts or things; ``plural-feminine``:
#: women).
GENDERS: Final = frozenset(get_args(GrammaticalClass))
#: The groups: a group with anyone else takes the plural (:func:`together`).
GROUPS: Final = frozenset({"plural", "plural-nonhuman", "plural-feminine"})
#: Where a word lists no form of a group's own kind, the class whose form it takes (then the first
#: word): the languages whose words tell apart a group of people, of beasts or of women (Polish
#: past forms, Arabic, Finnish "he"/"ne") list them; the others write ``plural`` alone.
FALLBACK: Final = {"plural-nonhuman": "plural", "plural-feminine": "plural"}


# ---------------------------------------------------------------- the markers (extracted by Babel)


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a system's texts: its context (the key) and its English text(s)."""

    context: str
    text: str
    plural: str | None = None


def sentence(context: str, text: str) -> Message:
    """An event's sentence (``code``) or a variant of it (``code|param=value``)."""
    return Message(context, text)


def counted(context: str, one: str, many: str) -> Message:
    """A counted phrase ``code#param``: English singular and plural."""
    return Message(context, one, many)


def term(context: str, text: str) -> Message:
    """How a value of a parameter reads (``system.param=value``)."""
    return Message(context, text)


# ---------------------------------------------------------------- templates


@cache
def parse(template: str) -> tuple[tuple[str, str | None, str], ...]:
    return tuple(
        (literal, field, spec or "")
        for literal, field, spec, _ in string.Formatter().parse(template)
    )


def fields(template: str) -> set[str]:
    """The parameter names a template shows (each of ``{a+b:?word}``, a word agreeing with both)."""
    return {
        name
        for _, field, spec in parse(template)
        if field is not None
        for name in (field.split("+") if spec[:1] == "?" else (field,))
    }


def codes(messages: Iterable[Message]) -> frozenset[str]:
    return frozenset(
        m.context.split("|", 1)[0]
        for m in messages
        if m.plural is None and "=" not in m.context.split("|", 1)[0]
    )


@dataclass(frozen=True, eq=False)
class Texts:
    """The English source messages of a set of systems, by context: their events' ``TEXTS`` and
    their Foundry rolls' ``FLAVORS`` (``rules.system.System.texts`` and ``flavors``). Compared by
    identity, so a catalog is compiled once per set of systems and language."""

    messages: Mapping[str, Message]


def texts_of(systems: Iterable[Any]) -> Texts:
    return _texts_of(tuple(systems))


@cache
def _texts_of(systems: tuple[Any, ...]) -> Texts:
    out: dict[str, Message] = {}
    for system in systems:
        for message in (*system.texts, *system.flavors):
            if message.context in out:
                raise ValueError(f"two messages with the context {message.context!r}")
            out[message.context] = message
    return Texts(out)


def source_messages(texts: Texts) -> dict[str, Message]:
    return dict(texts.messages)


# ---------------------------------------------------------------- catalogs, compiled


@dataclass(frozen=True, slots=True)
class Words:
    """A system's words for whoever a request does not name, and for an empty list."""

    roles: Mapping[str, str]
    empty: str


#: One event's sentence, compiled for one language: (the event's parameters, the request's names)
#: -> its text.
Render = Callable[[Mapping[str, Any], Mapping[str, str]], str]
#: The value of a field no parameter fills (a role: ``{target}``).
MISSING: Final = object()


@dataclass(frozen=True, slots=True)
class Catalog:
    """One language's sentences, compiled."""

    lang: str
    rtl: bool
    #: code -> its sentence (for a code with variants: the one its parameters choose).
    sentences: Mapping[str, Render]
    #: The compiled catalog (``.mo``) the sentences were read from.
    translations: gettext.GNUTranslations


@dataclass(frozen=True, slots=True)
class Lists:
    """How one language joins a list's items: names as it joins names (Babel's
    :func:`~babel.lists.format_list`, CLDR's "and" list: "a, b and c", "a, b i c", "a, b ja c",
    "أ وب"), values (dice) with its comma; in Arabic each item in isolates."""

    locale: Locale
    comma: str
    #: What :func:`~babel.lists.format_list` makes of 0, 1, 2 ... :data:`SHORT` - 1 items, as
    #: ``str.format`` templates (``"{0}, {1} and {2}"``): a short list is one ``format`` call.
    templates: tuple[str, ...]

    def names(self, items: list[str]) -> str:
        count = len(items)
        if count < SHORT:
            return self.templates[count].format(*items)
        return format_list(items, locale=self.locale)

    def join(self, value: list[Any], shown: list[str]) -> str:
        """A list's items ``shown``: names (a list whose first item is a string) as
        :meth:`names`, values (dice) with the comma."""
        return self.names(shown) if value[0].__class__ is str else self.comma.join(shown)


#: The longest list :class:`Lists` joins from a template (a longer one: ``format_list`` itself).
SHORT: Final = 12


def lists(lang: str) -> Lists:
    """``lang``'s way of joining lists: its templates made by ``format_list`` from placeholders
    (private-use characters, which no CLDR pattern holds), the pattern's braces escaped."""
    locale = Locale.parse(lang)
    templates: list[str] = []
    for count in range(SHORT):
        marks = [chr(0xE000 + i) for i in range(count)]
        template = format_list(marks, locale=locale).replace("{", "{{").replace("}", "}}")
        for i, mark in enumerate(marks):
            template = template.replace(mark, f"{{{i}}}")
        templates.append(template)
    return Lists(locale, COMMA.get(lang, ", "), tuple(templates))


def translations(lang: str) -> gettext.GNUTranslations:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as f:
        return gettext.GNUTranslations(f)


def catalog(lang: str, texts: Texts) -> Catalog:
    """``lang``'s catalog of ``texts`` (the systems an app serves: ``texts_of``), built once per
    process from the source texts and the compiled catalog. A message the catalog lacks (a system
    added since the catalogs were made) is told in English."""
    return _catalog(lang, texts)


@cache
def _catalog(lang: str, texts: Texts) -> Catalog:
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for {lang!r}: one of {', '.join(LANGUAGES)}")
    tr = translations(lang)
    source = texts.messages
    terms: dict[tuple[str, str], dict[str, str]] = {}
    for context, message in source.items():
        if "=" in context and "|" not in context:
            system, table = context.split("=", 1)[0].split(".", 1)
            value = context.split("=", 1)[1]
            terms.setdefault((system, table), {})[value] = tr.pgettext(context, message.text)
    build = _Compiler(tr, source, terms, lang in RTL, lists(lang))
    sentences: dict[str, Render] = {}
    variants: dict[str, tuple[tuple[str, ...], dict[tuple[str, ...], Render]]] = {}
    for context, message in source.items():
        if message.plural is not None or ("=" in context and "|" not in context):
            continue
        code, *choices = context.split("|")
        compiled = build.sentence(code, tr.pgettext(context, message.text))
        if not choices:
            sentences[code] = compiled
            continue
        pairs = [choice.split("=", 1) for choice in choices]
        params = tuple(param for param, _ in pairs)
        known = variants.setdefault(code, (params, {}))
        if known[0] != params:
            raise ValueError(f"{context}: the variants of {code} choose on {known[0]}")
        known[1][tuple(value for _, value in pairs)] = compiled
    for code, (params, chosen) in variants.items():
        sentences[code] = _choice(code, params, chosen)
    return Catalog(lang, lang in RTL, sentences, tr)


def _choice(
    code: str, params: tuple[str, ...], variants: Mapping[tuple[str, ...], Render]
) -> Render:
    """A code's variants as one generated function that renders the one its parameters choose:
    the exact one (each parameter's key, :func:`_key`, is the variant's value), else the first
    with ``*`` where the key differs."""
    namespace: dict[str, Any] = {"key": _key}
    lines = ["def render(p, n):"]
    for i, param in enumerate(params):
        lines.append(f"    k{i} = p.get({param!r})")
        lines.append(f"    k{i} = k{i} if k{i}.__class__ is str else key(k{i})")
    exact = [(values, v) for values, v in variants.items() if "*" not in values]
    wild = [(values, v) for values, v in variants.items() if "*" in values]
    for j, (values, sentence) in enumerate(exact + wild):
        namespace[f"r{j}"] = sentence
        test = [f"k{i} == {value!r}" for i, value in enumerate(values) if value != "*"]
        lines.append(f"    if {' and '.join(test) or 'True'}:")
        lines.append(f"        return r{j}(p, n)")
    keys = ", ".join(f"k{i}" for i in range(len(params)))
    lines.append(f"    raise KeyError({code + ': no variant for'!r}, {params!r}, ({keys},))")
    exec(compile("\n".join(lines), f"<{code}>", "exec"), namespace)
    render: Render = namespace["render"]
    return render


@dataclass(frozen=True, slots=True)
class _Compiler:
    """Compiles one language's templates into :data:`Render` functions."""

    tr: gettext.GNUTranslations
    source: Mapping[str, Message]
    terms: Mapping[tuple[str, str], Mapping[str, str]]
    rtl: bool
    lists: Lists

    def sentence(self, code: str, template: str) -> Render:
        return self.compile(code, template, whole=True)

    def compile(self, code: str, template: str, *, whole: bool) -> Render:
        """``template`` as the source of one Python function, compiled (:func:`_generate`).

        ``whole``: a sentence, not a counted phrase's form (its counted fields are looked up, its
        first letter made upper case)."""
        system = code.split(".", 1)[0]
        words = Words(
            self.terms.get((system, "role"), {}),
            self.terms.get((system, "list"), {}).get("empty", ""),
        )
        fields: list[Field] = []
        for field, spec in [(f, s) for _, f, s in parse(template) if f is not None]:
            phrase = self.source.get(f"{code}#{field}") if whole else None
            forms, counts = self.forms(code, field, phrase) if phrase is not None else (None, ())
            table = self.terms.get(
                (system, spec[1:] if spec[:1] == "@" else "notation" if spec == NOTATION else field)
            )
            lookup = {**words.roles, **(table or {})}
            fields.append(
                Field(field, spec, table, lookup, words, self.rtl, self.lists, forms, counts)
            )
        return _generate(code, template, fields, self.tr, self.lists, whole=whole, rtl=self.rtl)

    def forms(
        self, code: str, field: str, phrase: Message
    ) -> tuple[dict[int, Render], tuple[str, ...]]:
        """A counted phrase's forms, compiled, by the plural index of the language; and its texts
        for the counts 0 to 99 when it shows nothing but its count (else none)."""
        plural = self.tr.plural  # type: ignore[attr-defined]
        context = f"{code}#{field}"
        out: dict[int, Render] = {}
        shown: set[str] = set()
        for n in range(1000):
            index = plural(n)
            if index not in out:
                form = self.tr.npgettext(context, phrase.text, phrase.plural or phrase.text, n)
                out[index] = self.compile(code, form, whole=False)
                shown |= fields(form)
        if shown - {field}:
            return out, ()
        return out, tuple(out[plural(n)]({field: n}, {}) for n in range(100))


#: How the generated function shows a field ``i`` that is not counted, from its value ``v``: one
#: branch per kind of value, the rules of docs/narration.md written straight (names and words
#: are never empty, so ``or`` picks the first found). An int is its number (:func:`_number`); a
#: string its name in the request (``n``), else its word (``w{i}``: the field's terms over the
#: system's roles), else itself; a list its items joined, each a name, a role's word (``R``) or a
#: number; anything else (an empty list, a flag, null, a field no parameter fills) its
#: :meth:`Field.show` (``s{i}``), the same rules in one place. ``tests/narration/test_compiled.py``
#: compares every branch with the reference.
_PLAIN = """\
    v = {get}
    if v.__class__ is int:
        t{i} = {number}
    elif v.__class__ is str:
        t{i} = {string}
    elif v.__class__ is list and v:
        t{i} = {items}
    else:
        t{i} = {other}"""
#: A list's items joined (/dragon/battle's dice, a third of its narration when Field.show did it):
#: names as the language joins them (``J``, :meth:`Lists.names`), values with its comma (``S``).
_ITEM = "(n.get(x) or R.get(x) or x) if x.__class__ is str else str(x)"
_ITEMS = f"(J if v[0].__class__ is str else S.join)([{_ITEM} for x in v])"
#: In a left-to-right language, a name with a right-to-left letter in isolates (:func:`ltr`).
_ITEMS_LTR = (
    "(J if v[0].__class__ is str else S.join)"
    "([L(n.get(x) or R.get(x) or x) if x.__class__ is str else str(x) for x in v])"
)
#: In Arabic each item in isolates.
_ITEMS_RTL = f"(J if v[0].__class__ is str else S.join)([FSI + ({_ITEM}) + PDI for x in v])"
#: A counted field: a small count's text precomputed (narrating /dos/complex, 21% fewer
#: instructions), any other count's phrase in the form its plural index (``P``) takes.
#: A list is counted by its length (two names take the dual: "متعادلان").
_COUNTED = """\
    v = {get}
    t{i} = C{i}[v] if v.__class__ is int and 0 <= v < {size} else {form}"""
#: A field that shows a word chosen by the grammatical gender of whom its value names (``G``:
#: gender -> word; ``D``: the word that needs none), ``{field:?word|feminine=word}``.
_GENDERED = """\
    v = {get}
    g = n.get(GK + v) if v.__class__ is str else gender(v, n, {name!r})
    t{i} = G{i}.get(g) or D{i}"""
#: A word that agrees with several participants together (``{a+b:?word|feminine=word}``: two women
#: "ترميان"), the gender they take together (:func:`together`).
_GENDERED_MANY = """\
    g = together([gender(p.get(f, M), n, f) for f in F{i}])
    t{i} = G{i}.get(g) or D{i}"""


def _number(spec: str) -> str | None:
    """The source of an int's text from ``v`` by its field's spec; ``None`` for a term (``@``)."""
    if not spec:
        return "str(v)"
    if spec == "pos":
        return "str(v + 1)"
    return None if spec[0] == "@" else f"format(v, {spec!r})"


def _upper(source: str, first: bool) -> str:
    return f"capital({source})" if first else source


def _field(i: int, field: Field, *, rtl: bool, first: bool) -> tuple[str, dict[str, Any]]:
    """The source that computes field ``i``'s text ``t{i}``, and the names it uses.

    ``first``: the sentence starts with this text, so its first letter is made upper case here,
    and only where it may be lower case: a word's table and a count's texts are made so once
    (here); digits, and in a right-to-left language a value in isolates, never are."""
    get = f"p.get({field.name!r}, M)" if field.name in field.words.roles else f"p[{field.name!r}]"
    if field.forms is not None:
        counts = tuple(map(capital, field.counts)) if first else field.counts
        form = _upper(f"c{i}[P(len(v) if v.__class__ is list else v)](p, n)", first)
        source = _COUNTED.format(get=get, i=i, size=len(counts), form=form)
        return source, {f"c{i}": field.forms, f"C{i}": counts}
    if field.spec == NOTATION:  # a dice notation: Field.show, with the language's die letter
        return f"    t{i} = {_upper(f's{i}({get}, p, n)', first)}", {f"s{i}": field.show}
    if field.spec[:1] == "?":
        default, chosen = gendered(field.spec)
        if first:
            default, chosen = capital(default), {g: capital(w) for g, w in chosen.items()}
        used = {f"G{i}": chosen, f"D{i}": default}
        if "+" in field.name:  # the word agrees with several participants together
            used[f"F{i}"] = tuple(field.name.split("+"))
            return _GENDERED_MANY.format(i=i), used
        return _GENDERED.format(get=get, i=i, name=field.name), used
    other = _upper(f"s{i}(v, p, n)", first)
    number = _number(field.spec)
    if rtl:
        number = other if number is None else f"FSI + {number} + PDI"
        string = f"FSI + n[v] + PDI if v in n else w{i}.get(v) or FSI + v + PDI"
        items = _ITEMS_RTL
    else:
        digits = field.spec in ("", "pos")  # a format spec (``+d``, ``x``) may give a letter
        number = other if number is None else _upper(number, first and not digits)
        string = _upper(f"L(n[v]) if v in n else w{i}.get(v) or L(v)", first)
        items = _upper(_ITEMS_LTR, first)
    source = _PLAIN.format(get=get, i=i, number=number, string=string, items=items, other=other)
    words = (
        {value: capital(word) for value, word in field.lookup.items()} if first else field.lookup
    )
    return source, {f"s{i}": field.show, f"w{i}": words}


def _generate(
    code: str,
    template: str,
    fields: list[Field],
    tr: gettext.GNUTranslations,
    lists: Lists,
    *,
    whole: bool,
    rtl: bool,
) -> Render:
    """The function that renders ``template``, as Python source, compiled: for each field the
    lines that compute its text ``t{i}`` (:func:`_field`) from the event's params ``p`` and the
    request's names ``n``, then one f-string of the literals and the texts.

    A sentence's first letter is made upper case when it is compiled: a literal's now, a first
    field's where its text is computed (:func:`_field`), or, when that text could be empty with a
    lower-case letter or another field after it, the whole sentence's at run time.

    Against one closure call per field and ``str.format``, narrating /dragon/battle (names
    included) takes 197 k instructions a request instead of 506 k (callgrind, docs/narration.md).
    """
    pieces = parse(template)
    opens = whole and pieces[0][0] == "" and pieces[0][1] is not None  # with a field's text
    # what follows that field, should its text be empty: nothing, another field ("") or a literal
    follows = pieces[1][0][:1] if len(pieces) > 1 else None
    upper_first = opens and (follows is None or (follows != "" and not follows.islower()))
    namespace: dict[str, Any] = {"M": MISSING, "FSI": FSI, "PDI": PDI, "capital": capital}
    namespace.update(L=ltr, gender=gender, together=together)
    namespace.update(J=lists.names, S=lists.comma, GK=GENDER)
    namespace["P"] = tr.plural  # type: ignore[attr-defined]
    namespace["R"] = fields[0].words.roles if fields else {}
    lines = ["def render(p, n):"]
    for i, field in enumerate(fields):
        source, names = _field(i, field, rtl=rtl, first=upper_first and i == 0)
        lines.append(source)
        namespace.update(names)
    texts: list[str] = []
    shown = 0
    for literal, name, _ in pieces:
        if literal:
            texts.append(repr(capital(literal) if whole and not texts else literal))
        if name is not None:
            texts.append(f"f'{{t{shown}}}'")
            shown += 1
    text = " ".join(texts) or "''"
    if opens and not upper_first:
        text = f"capital({text})"
    lines.append(f"    return {text}")
    exec(compile("\n".join(lines), f"<{code}>", "exec"), namespace)
    render: Render = namespace["render"]
    return render


#: The spec of a field that shows a dice notation (``{dice:notation}``: "1d12+3"), its "d" the
#: language's (``system.notation=d``: "1k12+3"; in Arabic "فصّ" between the isolated numbers).
NOTATION: Final = "notation"
#: A formula of dice terms and numbers joined by operators ("1d8+1d6+4", "2d6 - 1").
_NOTATION: Final = re.compile(r"(?:\d*d\d+|\d+)(?:\s*[-+*/×]\s*(?:\d*d\d+|\d+))*")
#: One dice term (count, sides) or one number of such a formula.
_NOTATION_TERM: Final = re.compile(r"(\d*)d(\d+)|(\d+)")


def notation(value: str, die: str, isolate: Callable[[str], str]) -> str:
    """A dice notation ``NdM+...`` with ``die`` for every "d", each number isolated on its own (in
    Arabic "1", "فصّ", "8", "+", "1", "فصّ", "6", "+", "4", each number in isolates); any other
    string as itself (isolated)."""
    if _NOTATION.fullmatch(value) is None:
        return isolate(value)

    def term(match: re.Match[str]) -> str:
        count, sides, number = match.groups()
        if number is not None:
            return isolate(number)
        return (isolate(count) if count else "") + die + isolate(sides)

    return _NOTATION_TERM.sub(term, value)


@cache
def gendered(spec: str) -> tuple[str, dict[str, str]]:
    """A gendered field's spec ``?word|feminine=word|...``: the word that needs no class (shown
    when the participant has none), and the word of each class, a group's kind that the spec does
    not list taking the word of the class it falls back to (:data:`FALLBACK`) when listed."""
    if "{" in spec or "}" in spec:
        raise ValueError(
            f"{spec!r}: a word that agrees shows no field (write the field outside it)"
        )
    default, *choices = spec[1:].split("|")
    chosen: dict[str, str] = {}
    for choice in choices:
        gender, _, word = choice.partition("=")
        if gender not in GENDERS:
            raise ValueError(f"{spec!r}: {gender!r} is not one of {', '.join(sorted(GENDERS))}")
        chosen[gender] = word
    for kind, parent in FALLBACK.items():
        if kind not in chosen and parent in chosen:
            chosen[kind] = chosen[parent]
    return default, chosen


def gender(value: Any, names: Mapping[str, str], field: str) -> str | None:
    """The grammatical class of whom ``value`` names (the request's ``gender`` beside the name,
    :func:`names`): a string is an id or a role; a list of names the class they take together
    (:func:`together`); anything else (a role no parameter fills) the class of the field's role."""
    if value.__class__ is str:
        return names.get(GENDER + value)
    if value.__class__ is list or value.__class__ is tuple:
        return together([names.get(GENDER + v) if v.__class__ is str else None for v in value])
    return names.get(GENDER + field)


def together(genders: list[str | None]) -> str | None:
    """The class several participants take together: the one they share. People of different
    genders take the masculine when one of them is (a mixed group in Arabic and Polish:
    "متعادلان", "dołączyliby"), else none. A group with anyone else takes a group's class, never
    the Arabic dual ("العفاريت وبلو يتبادلون"): a group of people where a man, a group of people
    or someone of no class is among them; else a group of women where a woman is; else a group of
    beasts or things."""
    first = genders[0] if genders else None
    if all(g == first for g in genders):
        return first
    if GROUPS.isdisjoint(genders):
        return "masculine" if "masculine" in genders else None
    if None in genders or "masculine" in genders or "plural" in genders:
        return "plural"
    if "feminine" in genders or "plural-feminine" in genders:
        return "plural-feminine"
    return "plural-nonhuman"


#: The bidi classes of right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko ...).
_RTL_CLASSES: Final = frozenset({"R", "AL"})


def ltr(text: str) -> str:
    """A name or a request's string in a left-to-right sentence, in isolates (FSI ... PDI) when it
    holds a right-to-left letter: an Arabic name that starts a Polish sentence would otherwise turn
    a ``dir="auto"`` chat line right to left, and move its final punctuation."""
    if text.isascii():
        return text
    for c in text:
        if bidirectional(c) in _RTL_CLASSES:
            return f"{FSI}{text}{PDI}"
    return text


def capital(text: str) -> str:
    return text[0].upper() + text[1:] if text and text[0].islower() else text


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a template: how any value of it is shown (docs/narration.md, "The three kinds
    of message")."""

    name: str
    spec: str
    table: Mapping[str, str] | None
    #: The table's terms over the system's roles: a string's word.
    lookup: Mapping[str, str]
    words: Words
    rtl: bool
    lists: Lists
    #: A counted field's phrase: its forms by the language's plural index.
    forms: Mapping[int, Render] | None = None
    #: A counted field's text for the counts 0 .. 99, when its phrase shows only its count.
    counts: tuple[str, ...] = ()

    def isolate(self, text: str) -> str:
        return f"{FSI}{text}{PDI}" if self.rtl else text

    def own(self, text: str) -> str:
        """A name or a request's own string: isolated in a right-to-left language; in a
        left-to-right one where it holds a right-to-left letter (:func:`ltr`)."""
        return f"{FSI}{text}{PDI}" if self.rtl else ltr(text)

    def show(self, value: Any, params: Mapping[str, Any], names: Mapping[str, str]) -> str:
        kind = type(value)
        if kind is int:
            spec = "" if self.spec == NOTATION else self.spec
            if not spec:
                return self.isolate(str(value))
            if spec == "pos":
                return self.isolate(str(value + 1))
            if spec[0] == "@":
                word = self.table.get(str(value)) if self.table is not None else None
                return word if word is not None else self.isolate(str(value))
            return self.isolate(format(value, spec))
        if kind is str and self.spec == NOTATION:
            return notation(value, (self.table or {}).get("d", "d"), self.isolate)
        if kind is str:
            name = names.get(value)
            if name is not None:
                return self.own(name)
            word = self.lookup.get(value)
            return word if word is not None else self.own(value)  # a word: no isolates
        if kind is list or kind is tuple:
            if not value:
                return self.words.empty
            roles = self.words.roles
            shown = [
                self.own(names.get(v) or roles.get(v) or v)
                if v.__class__ is str
                else self.isolate(str(v))
                for v in value
            ]
            return self.lists.join(value, shown)
        if value is MISSING:
            return _role(self.name, names, self.words, self.rtl)
        key = _key(value)  # a flag or null: only ever a variant's key or a term
        word = self.lookup.get(key)
        return word if word is not None else self.isolate(key)


# ---------------------------------------------------------------- rendering


def narrate(events: list[Any], lang: str, names: Mapping[str, str], texts: Texts) -> None:
    """Fill in the ``text`` of each event (``{"code", "params", "text"}``), in ``lang``, from
    ``texts`` (those of the systems the app serves, handed to its endpoints)."""
    sentences = catalog(lang, texts).sentences
    for event in events:
        event["text"] = sentences[event["code"]](event["params"], names)


def render(cat: Catalog, code: str, params: Mapping[str, Any], names: Mapping[str, str]) -> str:
    return cat.sentences[code](params, names)


def flavor(
    lang: str,
    context: str,
    params: Mapping[str, Any],
    names: Mapping[str, str],
    texts: Texts,
) -> str:
    """A Foundry roll's flavor (``<system>.foundry.<key>``, a system's ``FLAVORS``) in ``lang``,
    rendered as an event's sentence is (``rules.foundry``)."""
    return render(catalog(lang, texts), context, params, names)


def _role(field: str, names: Mapping[str, str], words: Words, rtl: bool) -> str:
    """A field no parameter fills: who the request names by that role (``target``), else the
    role's term; an unknown field is an error in the catalog."""
    name = names.get(field)
    if name is not None:
        return f"{FSI}{name}{PDI}" if rtl else ltr(name)
    word = words.roles.get(field)
    if word is None:
        raise KeyError(f"no parameter or role {field!r}")
    return word


def _key(value: Any) -> str:
    """A parameter's value as a variant or term key: flags as ``true``/``false``, null and an
    empty list as ``none``."""
    if value.__class__ is str:
        return value
    if (value.__class__ is list or value.__class__ is tuple) and not value:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "none"
    return str(value)


# ---------------------------------------------------------------- names from the request


def names(request: BaseModel) -> dict[str, str]:
    """id -> name for everyone the request names, and role -> name (or id) for a model that sits
    in a field of its own: ``attacker`` (no id), the riders' ``initiator`` (an id, maybe a name).
    An empty name is no name. A participant's grammatical ``gender`` is kept under
    :data:`GENDER` and the same key."""
    out: dict[str, str] = {}
    _collect(request, None, out)
    return out


def _collect(model: Any, key: str | None, out: dict[str, str]) -> None:
    """Add what ``model`` (and the models in it) names to ``out``; ``key``: the field it sits in
    alone (``None`` in a list or a dict). Only the fields that may hold a model naming someone are
    visited (:func:`_plan`)."""
    plan = _plan(model.__class__)  # not isinstance(model, BaseModel): an ABC check, the most cost
    if plan is None:
        return
    has_id, has_name, has_gender, nested = plan
    name = model.name if has_name else None
    id_ = model.id if has_id else None
    if name and id_ is not None:
        out[id_] = name
    label = name or id_
    if key is not None and label is not None:
        out[key] = label
    gender = model.gender if has_gender else None
    if gender is not None:
        if id_ is not None:
            out[GENDER + id_] = gender
        if key is not None:
            out[GENDER + key] = gender
    for field in nested:
        value = getattr(model, field)
        kind = value.__class__
        if kind is list or kind is tuple:
            for item in value:
                _collect(item, None, out)
        elif kind is dict:
            for item in value.values():
                _collect(item, None, out)
        elif value is not None:
            _collect(value, field, out)


@cache
def _plan(cls: type) -> tuple[bool, bool, bool, tuple[str, ...]] | None:
    """For a model class: whether it has an ``id``, a ``name`` and a ``gender``, and its fields that may hold a
    model that names anyone where it sits (worked out once per class); ``None`` for any other
    class."""
    if not issubclass(cls, BaseModel):
        return None
    fields = cls.model_fields
    nested = tuple(
        name
        for name, info in fields.items()
        if name not in {"dice", "seed"}
        and any(_names_anyone(*m) for m in _models_in(info.annotation))
    )
    return "id" in fields, "name" in fields, "gender" in fields, nested


@cache
def _names_anyone(cls: type[BaseModel], alone: bool) -> bool:
    """Whether a ``cls`` may name anyone: in a field of its own (``alone``) when it has an ``id``
    or a ``name``; in a list or a dict only when it has both; or when a model inside it may."""
    fields = cls.model_fields
    own = {"id", "name"} & fields.keys()
    return (
        len(own) == 2
        or (alone and bool(own))
        or any(
            _names_anyone(*m)
            for name, info in fields.items()
            if name not in {"dice", "seed"}
            for m in _models_in(info.annotation)
        )
    )


#: The annotations whose models sit in a collection, not in a field of their own.
_COLLECTIONS: Final = frozenset({list, tuple, dict, set, frozenset})


def _models_in(annotation: Any, alone: bool = True) -> tuple[tuple[type[BaseModel], bool], ...]:
    """The model classes an annotation may hold, each with whether it sits alone in the field
    (``list[Side] | Side | None`` -> ``((Side, False), (Side, True))``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return ((annotation, alone),)
    inside = alone and get_origin(annotation) not in _COLLECTIONS
    return tuple(m for arg in getattr(annotation, "__args__", ()) for m in _models_in(arg, inside))
