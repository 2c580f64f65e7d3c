"""The language of a response's texts: the request's ``lang``, else ``Accept-Language`` (RFC 9110,
section 12.5.4), else English (docs/narration.md, "Languages").
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from rules.narration import DEFAULT, LANGUAGES

#: The response headers of each language, made once.
HEADERS: Final = {
    lang: ((b"content-language", lang.encode()), (b"vary", b"Accept-Language"))
    for lang in LANGUAGES
}


@lru_cache(maxsize=256)
def negotiate(header: bytes) -> str:
    """The catalog language ``header`` (an ``Accept-Language`` value) prefers; English without one.

    Cached: a client sends the same header on every request.
    """
    ranked: list[tuple[float, int, str]] = []
    refused: set[str] = set()
    for position, item in enumerate(header.decode("latin-1").split(",")):
        tag, _, params = item.strip().partition(";")
        primary = tag.strip().lower().split("-", 1)[0]
        q = _quality(params)
        if q is None or not primary:
            continue
        if q == 0:
            refused.add(primary)
            continue
        if primary == "*":
            ranked += [(q, position, lang) for lang in LANGUAGES]
        elif primary in LANGUAGES:
            ranked.append((q, position, primary))
    ranked.sort(key=lambda entry: (-entry[0], entry[1]))
    return next((lang for _, _, lang in ranked if lang not in refused), DEFAULT)


def _quality(params: str) -> float | None:
    """The q-value of a range's parameters (1 without one); ``None`` when it is not a number in
    0..1 (the range is then ignored)."""
    for param in params.split(";"):
        key, _, value = param.strip().partition("=")
        if key.strip().lower() == "q":
            try:
                q = float(value.strip())
            except ValueError:
                return None
            return q if 0 <= q <= 1 else None
    return 1.0
