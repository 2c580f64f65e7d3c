"""``make check-generated``: run ``make generate`` and fail when it changed a generated file.

Every generated file (:data:`GENERATED`) is read before and after the regeneration; a file that
differs, appears or disappears was stale, and is named (it is left regenerated: review the diff and
commit it, in a commit of its own starting with ``regenerate:``). Whatever is uncommitted stays as it
is: the comparison is with the files as they were, not with git.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: What ``make generate`` writes (docs/development.md, "After a change: what to regenerate").
GENERATED = (
    "rules/locale/dragonroll.pot",
    "rules/locale/*/LC_MESSAGES/dragonroll.po",
    "rules/locale/*/LC_MESSAGES/dragonroll.mo",
    "service/locale/problems.pot",
    "service/locale/*/LC_MESSAGES/problems.po",
    "service/locale/*/LC_MESSAGES/problems.mo",
    "openapi/openapi.json",
    "service/locale/playground.pot",
    "service/locale/*/LC_MESSAGES/playground.po",
    "service/static/playground/i18n/*.json",
    "clients/python/src/dragonroll_client/_generated.py",
    "clients/typescript/src/schema.d.ts",
    "clients/foundry/endpoints.mjs",
    "service/static/owlbear/*.*",
    "service/static/owlbear/assets/*",
    "tests/golden/*/*.response.json",
    "tests/rules/versions.json",
)


def snapshot() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): hashlib.sha256(path.read_bytes()).hexdigest()
        for pattern in GENERATED
        for path in sorted(ROOT.glob(pattern))
    }


def main() -> int:
    before = snapshot()
    make = os.environ.get("MAKE", "make")
    subprocess.run([make, "--no-print-directory", "-C", str(ROOT), "generate"], check=True)
    after = snapshot()
    stale = sorted(
        f"{name} ({'new' if name not in before else 'gone' if name not in after else 'changed'})"
        for name in before.keys() | after.keys()
        if before.get(name) != after.get(name)
    )
    if stale:
        print("stale generated files (now regenerated; review and commit):", file=sys.stderr)
        for line in stale:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(f"{len(after)} generated files, none stale", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
