"""One term for one thing: each catalog's glossary (``rules/locale/<lang>/glossary.txt``: a preferred
term and its forbidden variants) holds over every text of the catalog (every sentence, variant,
counted form and term; for English the source texts), and every preferred term is used somewhere,
so the list stays the catalog's. A line may be scoped to one system (``dragon: dobrobyt* | ...``):
it then holds over that system's texts alone (a game's own word need not bind another game), and
its term must be used there. Also what a glossary cannot say: English "a" before a number."""

from __future__ import annotations

import re
from functools import cache

import pytest

from rules.narration import LANGUAGES, LOCALE_DIR
from rules.registry import IDS
from tests.narration.catalogs import po, source_messages

#: A glossary line's scope: ``<system id>: `` before its terms.
SCOPE = re.compile(r"^([a-z][a-z0-9_]*):\s+")


def _in(scope: str | None, context: str | None) -> bool:
    return scope is None or str(context or "").startswith(f"{scope}.")


@cache
def texts(lang: str, scope: str | None = None) -> tuple[str, ...]:
    """Every text of ``lang``'s catalog, or of one system's messages: each translation and each
    plural form (English: the source's singular and plural)."""
    if lang == "en":
        return tuple(
            words(text)
            for code, m in source_messages().items()
            if _in(scope, code)
            for text in (m.text, m.plural)
            if text
        )
    out: list[str] = []
    for message in po(lang):
        if not message.id or not _in(scope, message.context):
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        out.extend(words(form) for form in forms if form)
    return tuple(out)


def words(text: str) -> str:
    """``text`` with each field shown as ``{}`` (a parameter's name is no word of the text)."""
    return re.sub(r"\{[^{}]*\}", "{}", text)


def pattern(term: str) -> re.Pattern[str]:
    """A glossary term as a pattern: words at a word's start and end, ``*`` any letters."""
    words = []
    for word in term.split():
        body = re.escape(word.strip("*"))
        head = r"\w*" if word.startswith("*") else r"(?<!\w)"
        tail = r"\w*" if word.endswith("*") else r"(?!\w)"
        words.append(head + body + tail)
    return re.compile(r"\s+".join(words), re.IGNORECASE)


@cache
def glossary(lang: str) -> tuple[tuple[str | None, str, tuple[str, ...]], ...]:
    """(scope, preferred, forbidden variants) for each line of ``lang``'s glossary; the scope is a
    system's id, or None for a line over every text."""
    path = LOCALE_DIR / lang / "glossary.txt"
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        scoped = SCOPE.match(line)
        scope = scoped.group(1) if scoped else None
        preferred, _, forbidden = line[scoped.end() if scoped else 0 :].partition("|")
        variants = tuple(v.strip() for v in forbidden.split(",") if v.strip())
        out.append((scope, preferred.strip(), variants))
    return tuple(out)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_scope_is_a_system(lang: str) -> None:
    scopes = {scope for scope, _, _ in glossary(lang) if scope is not None}
    assert scopes <= set(IDS), f"{lang}: scoped to no system: {sorted(scopes - set(IDS))}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_uses_a_forbidden_variant(lang: str) -> None:
    found = [
        f"{variant!r} (say {preferred!r}): {text!r}"
        for scope, preferred, variants in glossary(lang)
        for variant in variants
        for text in texts(lang, scope)
        if pattern(variant).search(text)
    ]
    assert found == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_preferred_term_is_used(lang: str) -> None:
    unused = [
        f"{scope}: {preferred}" if scope else preferred
        for scope, preferred, _ in glossary(lang)
        if preferred and not any(pattern(preferred).search(text) for text in texts(lang, scope))
    ]
    assert glossary(lang)
    assert unused == []


def test_the_patterns_read_as_documented() -> None:
    assert pattern("smocz* koś*").search("przez smoczą kość")
    assert not pattern("hp").search("hpx")
    assert pattern("*نرد*").search("بسبب نرد التنين")
    assert not pattern("place {}").search(words("The GM places {id}"))


def test_english_never_writes_a_before_a_number() -> None:
    """ "a 8", "a 11": English "a" never stands before a number a field shows."""
    found = [t for t in texts("en") if re.search(r"(?<!\w)a \{\}", t, re.IGNORECASE)]
    assert found == []
