"""What the clients' browser tests share (tests/foundry, tests/owlbear): headless Chromium, a folder
served on a loopback port (another origin than the service's), and where each word of an element
stands on the screen (to read a line's direction as a reader sees it)."""

from __future__ import annotations

import functools
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

from tests.mcp.test_mcp_clients import Service, free_port

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class _Quiet(SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def served(directory: Path, first: int, last: int) -> Iterator[str]:
    """``directory`` served on a free loopback port of ``first``..``last``: its base URL."""
    port = free_port(first, last)
    handler = functools.partial(_Quiet, directory=str(directory))
    httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextmanager
def live_service() -> Iterator[Service]:
    """A real service (``python -m service``) on a loopback port, stopped after; it logged no
    error."""
    srv = Service()
    try:
        yield srv
    finally:
        lines = srv.stop()
        assert [x for x in lines if x.get("level") in ("error", "critical")] == []


@contextmanager
def chromium(sync_api: Any) -> Iterator[Any]:
    """Debian's Chromium through Playwright (``sync_api``, imported by the test that skips without
    it), closed after."""
    assert CHROMIUM is not None, "CI must install chromium (apt-get install chromium)"
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


#: The words of an element in the order they are written, each with its box on the screen: every
#: run of letters and digits of its text nodes (isolate marks, spaces and punctuation between them).
WORDS = """(el) => {
  const out = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const re = /[\\p{L}\\p{N}]+/gu;
    for (let m = re.exec(node.data); m; m = re.exec(node.data)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const box = range.getBoundingClientRect();
      out.push({ word: m[0], left: box.left, right: box.right, top: box.top, height: box.height });
    }
  }
  return out;
}"""
