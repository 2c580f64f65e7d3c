"""The catalogs as the tests read them: each language's .po (Babel's reader), and which languages
are still waiting for their translations (their tests are expected to fail until they land)."""

from __future__ import annotations

from functools import cache

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from rules import narration
from rules.narration import LANGUAGES, LOCALE_DIR, Message
from rules.registry import TEXTS

#: Languages whose catalogs are not translated yet (the `translations` branch writes them). A test of
#: a complete catalog is marked to fail for them, strictly: remove a language once it lands.
PENDING: frozenset[str] = frozenset()
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")


def catalog(lang: str) -> narration.Catalog:
    """``lang``'s compiled catalog of the registry's systems' texts (``rules.narration.catalog``)."""
    return narration.catalog(lang, TEXTS)


def source_messages() -> dict[str, Message]:
    """The registry's systems' source messages, by context."""
    return narration.source_messages(TEXTS)


def po_path(lang: str) -> str:
    return str(LOCALE_DIR / lang / "LC_MESSAGES" / "dragonroll.po")


@cache
def po(lang: str) -> Catalog:
    with open(po_path(lang), "rb") as f:
        return read_po(f, locale=lang)


def languages(*langs: str) -> list[object]:
    """``langs`` as parameters, the pending ones marked to fail until their catalog lands."""
    return [
        pytest.param(
            lang,
            marks=pytest.mark.xfail(
                strict=True,
                reason=f"the {lang} catalog is not translated yet (translations branch)",
            ),
        )
        if lang in PENDING
        else lang
        for lang in langs
    ]
