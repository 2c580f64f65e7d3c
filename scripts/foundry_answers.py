"""Real answers of the service for the Foundry module's tests (clients/foundry/test/module.test.js).

Prints one JSON object: for every request, ``{name, lang, path, body, answer}``, the answer the
in-process app gives it with ``"foundry": true``: the OpenAPI document's example of every endpoint
whose request offers ``foundry`` (its schema says so; ``/dice/draw``'s does not), in English,
Polish and Arabic, and every golden request (``tests/golden``) of those endpoints in
English, so the module's chat card and the stand-in ``Roll.fromData`` are tested on what the service
really sends, never on rolls written by hand.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "pl", "ar")


def specs() -> list[dict[str, Any]]:
    from rules.registry import SYSTEMS
    from service.examples import EXAMPLES

    # the endpoints whose request offers `foundry` (its schema says so: /dice/draw's does not)
    offering = {
        s.prefix + e.path
        for s in SYSTEMS
        for e in s.endpoints
        if "foundry" in e.request.model_json_schema()["properties"]
    }
    found = [
        {"name": f"example {path}", "lang": lang, "path": path, "body": body}
        for path, body in EXAMPLES.items()
        if path in offering
        for lang in LANGUAGES
    ]
    for file in sorted((ROOT / "tests" / "golden").glob("*/*.request.json")):
        spec = json.loads(file.read_text(encoding="utf-8"))
        if spec.get("status", 200) == 200 and spec["path"] in offering:  # it draws dice
            name = f"golden {file.parent.name}/{file.name.removesuffix('.request.json')}"
            found.append({"name": name, "lang": "en", "path": spec["path"], "body": spec["body"]})
    return found


async def answer_all(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    import httpx

    from service.app import create_app

    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://foundry") as client:
        for spec in found:
            body = {**spec["body"], "foundry": True}
            response = await client.post(
                spec["path"], json=body, headers={"accept-language": spec["lang"]}
            )
            if response.status_code != 200:
                raise SystemExit(f"{spec['name']}: {response.status_code} {response.text[:300]}")
            spec["answer"] = response.json()
    return found


def main() -> None:
    sys.path.insert(0, str(ROOT))
    json.dump(asyncio.run(answer_all(specs())), sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
