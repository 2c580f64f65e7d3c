"""Every curl example in the README and the docs site is a request the service answers as the text
says: 200, or the 4xx status its comment quotes (``# -> 422 ...``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import Api

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: ``curl -s localhost:8000/<path> ... -d '<json>'``, then any ``# ->`` comment lines.
CURL = re.compile(
    r"curl -s localhost:8000(?P<path>/[\w/-]+)[^\n]*?(?:\\\n\s*)?[^\n]*?-d '(?P<body>[^']*)'"
    r"(?P<comment>(?:\n#[^\n]*)*)"
)


def _examples() -> list[tuple[str, str, str, str]]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for n, m in enumerate(CURL.finditer(text)):
            found.append((f"{page.relative_to(ROOT)}#{n}", m["path"], m["body"], m["comment"]))
    return found


EXAMPLES = _examples()


def test_the_pages_have_examples_for_every_system() -> None:
    paths = {path for _, path, _, _ in EXAMPLES}
    assert {p.split("/")[1] for p in paths} >= {"dos", "dragon", "riders", "dnd5e"}
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize(
    ("where", "path", "body", "comment"), EXAMPLES, ids=[e[0] for e in EXAMPLES]
)
def test_example_is_answered_as_documented(
    api: Api, where: str, path: str, body: str, comment: str
) -> None:
    quoted = re.search(r"# -> (\d{3}) ", comment)
    expected = int(quoted.group(1)) if quoted else 200
    # curl sends the host it was given (the examples' localhost:8000): /mcp checks it
    headers = {"content-type": "application/json", "host": "localhost:8000"}
    r = api.post(path, content=body.encode(), headers=headers)
    assert r.status_code == expected, f"{where}: {r.text[:500]}"
    if expected == 200:
        assert json.loads(body).get("seed") is None or r.json()["seed"] == json.loads(body)["seed"]
