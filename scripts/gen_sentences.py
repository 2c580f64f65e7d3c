"""Write each system's generated sentences (``rules/<system>/sentences.py``) from its texts.

``python scripts/gen_sentences.py`` writes them; ``--check`` only says which are out of date (exit 1).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.textgen import module_source  # noqa: E402

SYSTEMS = ("dos", "dragon", "riders", "dnd5e")


def generated() -> dict[Path, str]:
    """Each generated module's path and the source it must hold."""
    out = {}
    for system in SYSTEMS:
        texts = importlib.import_module(f"rules.{system}.text").TEXTS
        out[ROOT / "rules" / system / "sentences.py"] = module_source(
            texts, f"rules/{system}/text.py"
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report modules out of date")
    args = parser.parse_args()
    wanted = generated()
    stale = [path for path, text in wanted.items() if not path.exists() or path.read_text() != text]
    for path in stale:
        name = path.relative_to(ROOT)
        if args.check:
            print(f"{name} is out of date: run `make sentences`", file=sys.stderr)
        else:
            path.write_text(wanted[path])
            print(f"wrote {name}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
