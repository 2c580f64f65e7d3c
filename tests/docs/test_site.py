"""The documentation site (``make docs``): it builds with ``mkdocs build --strict`` (any warning
fails it: a link outside the site, an unknown page, a missing anchor), and the built pages link to
nothing that is not there."""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]


class Links(HTMLParser):
    """The links (``href``, ``src``) and the element ids of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id":
                self.ids.add(value)
            elif name in ("href", "src"):
                self.links.append(value)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(mkdocs, cwd=ROOT, capture_output=True, text=True, env=env, check=False)
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    return out


def pages(site: Path) -> dict[Path, Links]:
    out = {}
    for page in site.rglob("*.html"):
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        out[page] = parser
    return out


def target(site: Path, page: Path, link: str) -> tuple[Path, str] | None:
    """The file and anchor a relative link points to (None for another site or a data URL)."""
    parts = urlsplit(link)
    if parts.scheme or parts.netloc or link.startswith(("mailto:", "data:", "javascript:")):
        return None
    path = unquote(parts.path)
    file = page if not path else (page.parent / path).resolve()
    if path.startswith("/"):
        file = (site / path.lstrip("/")).resolve()
    if file.is_dir():
        file = file / "index.html"
    return file, unquote(parts.fragment)


def test_the_built_site_has_no_broken_link(site: Path) -> None:
    found = pages(site)
    broken = []
    for page, parsed in found.items():
        for link in parsed.links:
            aim = target(site, page, link)
            if aim is None:
                continue
            file, anchor = aim
            if not file.is_relative_to(site.resolve()) or not file.exists():
                broken.append(f"{page.relative_to(site)}: {link} (no such file)")
            elif anchor and file.suffix == ".html" and anchor not in found[file].ids:
                broken.append(f"{page.relative_to(site)}: {link} (no such anchor)")
    assert not broken, "\n".join(broken)
    assert len(found) > 10
