"""The README's and the docs' examples are what the service answers (issue 36): every ``curl``
example in a ``sh`` block is sent in-process (``httpx.ASGITransport``, :class:`tests.conftest.Api`),
and every field its ``# ->`` lines show is checked against the real answer; a chat message shown in
each language under an example (``**English**``, ``**Polski**`` ...) is the answer's event texts.

The ``# ->`` lines are a fragment of the answer, JSON with ``...`` for what is left out: ``"k": ...``
any value, ``{...}`` any object, ``[a, ...]`` a list that starts with ``a``, ``{"k": 1, ...}`` an object
with at least that key; an object shows only the keys it lists. A fragment's field is one of the
answer's own, or of an object inside it (``"hit": {"p": 0.893, ...}``); a bare object is one somewhere
in the answer. A number written with decimals is the answer's rounded to as many. A leading status
(``422 {...}``) is the answer's status. Text after the fragment on its line (``(null on a tie)``) and
lines that are not JSON are comments, not checked.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Api

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: A value left out (``...``) and the rest of a list (``[a, ...]``).
ANY = object()
MORE = object()


@dataclass
class Example:
    page: str
    line: int
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    shown: list[tuple[int | None, list[Any]]] = field(default_factory=list)
    messages: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.page}:{self.line} {self.path}"


class Fragment:
    """A tolerant reader of JSON with ``...``: :meth:`read` gives the values it could read."""

    NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")

    def __init__(self, text: str) -> None:
        self.s, self.i = text, 0

    def ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i] in " \t\n":
            self.i += 1

    def at(self, token: str) -> bool:
        self.ws()
        if self.s.startswith(token, self.i):
            self.i += len(token)
            return True
        return False

    def value(self) -> Any:
        self.ws()
        if self.at("..."):
            return ANY
        if self.at("{"):
            return self.obj()
        if self.at("["):
            return self.arr()
        if self.s.startswith('"', self.i):
            text, self.i = json.decoder.scanstring(self.s, self.i + 1)
            return text
        for word, value in (("true", True), ("false", False), ("null", None)):
            if self.at(word):
                return value
        match = self.NUMBER.match(self.s, self.i)
        if match is None:
            raise ValueError(f"no value at {self.s[self.i : self.i + 20]!r}")
        self.i = match.end()
        return Decimal(match[0]) if match[1] else int(match[0])

    def obj(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while not self.at("}"):
            if self.at("..."):
                continue
            key = self.value()
            if not isinstance(key, str) or not self.at(":"):
                raise ValueError(f"no member at {self.i}")
            out[key] = self.value()
            self.at(",")
        return out

    def arr(self) -> list[Any]:
        out: list[Any] = []
        while not self.at("]"):
            item = self.value()
            out.append(MORE if item is ANY else item)
            self.at(",")
        return out

    def read(self) -> list[Any]:
        """The fragment's values: ``{"k": v}`` for each top-level member, an object or list as
        itself; it stops at the first text that is not JSON (a comment)."""
        out: list[Any] = []
        while True:
            start = self.i
            try:
                if self.at("{") or self.at("["):
                    self.i = start
                    out.append(self.value())
                else:
                    key = self.value()
                    if not isinstance(key, str) or not self.at(":"):
                        raise ValueError("no member")
                    out.append({key: self.value()})
            except (ValueError, IndexError):
                self.i = start
                return out
            if not self.at(","):
                return out


class Decimal(float):
    """A number shown with decimals: the answer's, rounded to as many."""

    def __new__(cls, text: str) -> Decimal:
        value = super().__new__(cls, text)
        value.places = len(
            text.split(".", 1)[1].split("e", maxsplit=1)[0].split("E", maxsplit=1)[0]
        )
        return value

    places: int


def matches(pattern: Any, actual: Any) -> bool:
    if pattern is ANY:
        return True
    if isinstance(pattern, dict):
        return isinstance(actual, dict) and all(
            k in actual and matches(v, actual[k]) for k, v in pattern.items()
        )
    if isinstance(pattern, list):
        if not isinstance(actual, list):
            return False
        if pattern and pattern[-1] is MORE:
            head = pattern[:-1]
            return len(actual) >= len(head) and all(map(matches, head, actual))
        return len(actual) == len(pattern) and all(map(matches, pattern, actual))
    if isinstance(pattern, Decimal):
        return isinstance(actual, (int, float)) and round(actual, pattern.places) == pattern
    if isinstance(pattern, bool) or actual is True or actual is False:
        return pattern is actual
    if isinstance(pattern, str) and "..." in pattern:  # ".../dice-exhausted": text left out
        parts = map(re.escape, pattern.split("..."))
        return isinstance(actual, str) and re.fullmatch(".*".join(parts), actual) is not None
    return bool(pattern == actual)


def anywhere(pattern: Any, actual: Any) -> bool:
    """``pattern`` matches ``actual`` or a value inside it."""
    if matches(pattern, actual):
        return True
    if isinstance(actual, dict):
        return any(anywhere(pattern, v) for v in actual.values())
    if isinstance(actual, list):
        return any(anywhere(pattern, v) for v in actual)
    return False


def command(words: list[str], variables: dict[str, str]) -> tuple[str, str, dict[str, str], Any]:
    """A curl command's method, path, headers and JSON body (the block's shell variables in it)."""
    words = [
        re.sub(r"\$(?:\{([A-Z_]+)\}|([A-Z_]+))", lambda m: variables[m[1] or m[2]], w)
        for w in words
    ]
    headers: dict[str, str] = {}
    body: Any = None
    method, path = "GET", ""
    rest = iter(words[1:])
    for word in rest:
        if word == "-H":
            name, _, value = next(rest).partition(":")
            headers[name.strip().lower()] = value.strip()
        elif word == "-d":
            body, method = json.loads(next(rest)), "POST"
        elif word == "-X":
            method = next(rest)
        elif word.startswith(("localhost", "http")):
            path = "/" + word.split("://", 1)[-1].split("/", 1)[1]
    return method, path, headers, body


def examples(page: Path) -> list[Example]:
    """Every curl example of ``page``'s ``sh`` blocks, with what its ``# ->`` lines show and the
    chat messages that follow its block."""
    out: list[Example] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    name = str(page.relative_to(ROOT))
    i, in_sh = 0, False
    variables: dict[str, str] = {}
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            in_sh = not in_sh and line.strip() in ("```sh", "```bash", "```console")
            if not in_sh and out and out[-1].page == name:
                messages(lines, i + 1, out[-1])
            i += 1
            continue
        assignment = re.match(r"([A-Z_]+)=", line) if in_sh else None
        if not (in_sh and (line.lstrip().startswith("curl ") or assignment)):
            i += 1
            continue
        start, text = i, line
        while True:  # the command's lines: until its quotes close and no line ends with "\"
            try:
                words = shlex.split(text.replace("\\\n", " "), comments=False)
                if not text.rstrip().endswith("\\"):
                    break
            except ValueError:
                pass
            i += 1
            text += "\n" + lines[i]
        if assignment is not None:
            variables[assignment[1]] = words[0].split("=", 1)[1]
            i += 1
            continue
        try:
            method, path, headers, body = command(words, variables)
        except ValueError as e:
            raise ValueError(f"{name}:{start + 1}: {e}") from e
        example = Example(name, start + 1, method, path, headers, body)
        i += 1
        while i < len(lines) and lines[i].startswith("# ->"):
            shown = [lines[i][4:]]
            i += 1
            while i < len(lines) and lines[i].startswith("#    "):
                shown.append(lines[i][1:])
                i += 1
            example.shown.append(fragment(shown))
        out.append(example)
    return out


def fragment(lines: list[str]) -> tuple[int | None, list[Any]]:
    """What ``# ->`` lines show: a status, if one leads, and the values of each line."""
    status = None
    first = lines[0].strip()
    match = re.match(r"(\d{3})\s+(.*)", first)
    if match:
        status, first = int(match[1]), match[2]
    values: list[Any] = []
    text = " ".join([first, *(line.strip() for line in lines[1:])])
    reader = Fragment(text)
    while reader.i < len(text):
        got = reader.read()
        values += got
        # past a comment: on to the next member, object or list that starts a value
        nxt = re.compile(r'[,;]?\s+(?="[^"]+":|\{")').search(text, reader.i + 1)
        if nxt is None:
            break
        reader.i = nxt.end()
    return status, values


#: The headings a chat message in each language sits under.
LANGUAGE_HEADINGS = {
    "**English**": "en",
    "**Polski**": "pl",
    "**Suomi**": "fi",
    "**العربية**": "ar",
}


def messages(lines: list[str], i: int, example: Example) -> None:
    """The chat messages after an example's block: a language's heading, then a ``>`` quote."""
    while i < len(lines) and not lines[i].startswith(("```", "## ")):
        lang = LANGUAGE_HEADINGS.get(lines[i].strip())
        if lang is not None:
            i += 1
            quote: list[str] = []
            while i < len(lines) and (lines[i].startswith(">") or not lines[i].strip()):
                if lines[i].startswith(">"):
                    quote.append(lines[i][1:].strip())
                elif quote:
                    break
                i += 1
            example.messages[lang] = " ".join(quote)
            continue
        i += 1


EXAMPLES = [e for page in PAGES for e in examples(page)]


def test_the_front_door_has_examples_to_check() -> None:
    readme = [e for e in EXAMPLES if e.page == "README.md"]
    assert len(readme) >= 8, [str(e) for e in readme]
    assert sum(len(e.shown) for e in readme) >= 6
    assert any(e.messages for e in readme)
    assert any(e.path == "/dice/roll" and e.shown for e in readme)


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_an_example_shows_what_the_service_answers(api: Api, example: Example) -> None:
    # curl sends the host it was given (the examples' localhost:8000): /mcp checks it
    headers = {"host": "localhost:8000"}
    headers.update((k, v) for k, v in example.headers.items() if k != "content-type")
    if example.method == "POST":
        answer = api.post(example.path, json=example.body, headers=headers)
    else:
        answer = api.request(example.method, example.path, headers=headers)
    expected = {s for s, _ in example.shown if s is not None} or {200}
    assert answer.status_code in expected, f"{example}: {answer.status_code} {answer.text[:300]}"
    if not answer.headers.get("content-type", "").startswith("application/"):
        return
    body = answer.json()
    for _, values in example.shown:
        for value in values:
            if isinstance(value, dict) and len(value) == 1:
                ok = matches(value, body) or anywhere(value, body)
            else:
                ok = anywhere(value, body)
            assert ok, f"{example}: the answer does not hold {value!r}"
    for lang, message in example.messages.items():
        told = api.post(example.path, json={**example.body, "lang": lang}).json()
        texts = " ".join(e["text"] for e in told["events"])
        assert " ".join(message.split()) == " ".join(texts.split()), f"{example} {lang}"
