"""Write openapi/openapi.json from the app (``make openapi``); a test fails when the two drift."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "openapi" / "openapi.json"


def render() -> str:
    sys.path.insert(0, str(ROOT))
    from service.app import create_app

    return json.dumps(create_app().openapi(), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def main() -> None:
    TARGET.parent.mkdir(exist_ok=True)
    TARGET.write_text(render(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
