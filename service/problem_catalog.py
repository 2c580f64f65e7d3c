"""Babel's extractor of the ``problems`` gettext domain (``babel-problems.cfg``): every problem
kind's title and every text ``service.problem_texts`` tells in the reader's language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from service.problem_texts import CHECKS, DETAILS, ENGINE_PIECES, ERRORS, JSON, PREFIXES
from service.problems import KINDS

Extracted = tuple[int, str, tuple[str, ...], list[str]]


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[Extracted]:
    """Every problem kind's title (``service.problems.KINDS``, context ``title=<kind>``) and every
    detail, field message, prefix and JSON reason of ``service.problem_texts``, and the engine's
    messages and their parts."""
    for kind, (_, title) in KINDS.items():
        yield 0, "pgettext", (f"title={kind}", title), []
    for t in (*DETAILS, *ERRORS, *CHECKS, *PREFIXES, *JSON, *ENGINE_PIECES):
        if t.plural is None:
            yield 0, "pgettext", (t.context, t.text), []
        else:
            yield 0, "npgettext", (t.context, t.text, t.plural), [f"the form of {{{t.count}}}"]
