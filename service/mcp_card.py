"""The roll card: an MCP App (extension ``io.modelcontextprotocol/ui``) showing a tool's answer.

Every system's tool names the card (``_meta.ui.resourceUri``); a host that renders MCP Apps shows
it beside the result, in a sandboxed frame without network access, and the card talks to the host
only (``postMessage``: the result it is given, a tool call for "roll again").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID

#: The card's resource; every system tool's ``_meta`` names it.
CARD_URI = "ui://dragonroll/roll-card.html"
TOOL_META: dict[str, Any] = {"ui": {"resourceUri": CARD_URI}}
#: The card's ``_meta.ui`` as a resource: a border around it, and no network at all (no CSP
#: domain: everything it shows comes in its one HTML document and in the host's messages).
RESOURCE_META: dict[str, Any] = {"ui": {"prefersBorder": True, "csp": {}}}
#: What the server advertises under ``capabilities.extensions`` (SEP-2133: no settings).
EXTENSIONS: dict[str, dict[str, Any]] = {EXTENSION_ID: {}}
MIME_TYPE = APP_MIME_TYPE
STATIC = Path(__file__).parent / "static"
CARD = STATIC / "mcp" / "roll-card.html"


def html() -> str:
    """The card's one HTML document."""
    return CARD.read_text(encoding="utf-8")
