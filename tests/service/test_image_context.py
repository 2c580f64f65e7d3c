"""Every file the Dockerfile copies from the build context passes ``.dockerignore``.

The image is built from the committed tree: a ``COPY`` whose source the allow-list leaves out
stops ``docker build`` (``COPY docs/dice.md docs/`` did, issue 46 item 9). The context is computed
as Docker computes it, by the Docker SDK's port of its matcher (``docker.utils.build.exclude_paths``,
the ``.dockerignore`` semantics: Go's ``filepath.Match``, ``**``, ``!`` exceptions, the last match
wins), over a copy of the tracked files' names, so an untracked file on a contributor's disk neither
hides nor causes a failure. ``make image-test`` (CI) then builds the image for real.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

import pytest
from docker.utils.build import exclude_paths

ROOT = Path(__file__).resolve().parents[2]


def instructions(dockerfile: str) -> list[str]:
    """The Dockerfile's instructions, each on one line (continuations joined, comments dropped)."""
    out: list[str] = []
    pending = ""
    for line in dockerfile.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        out.append(pending + stripped)
        pending = ""
    return out


def copy_sources(dockerfile: str) -> list[str]:
    """The context paths of every ``COPY``/``ADD`` that reads the build context (not ``--from``)."""
    sources: list[str] = []
    for line in instructions(dockerfile):
        keyword, _, rest = line.partition(" ")
        if keyword.upper() not in ("COPY", "ADD"):
            continue
        words = shlex.split(rest)
        flags = [w for w in words if w.startswith("--")]
        if any(f.startswith("--from=") for f in flags):
            continue
        args = [w for w in words if not w.startswith("--")]
        if args and args[0].startswith("["):  # the JSON form
            args = json.loads(rest[rest.index("[") :])
        sources += [a.removeprefix("./") for a in args[:-1]]
    return sources


def patterns(text: str) -> list[str]:
    """The ``.dockerignore`` lines as the Docker SDK's ``build`` reads them."""
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def tracked() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True, timeout=60
    ).stdout
    return [name for name in out.decode().split("\0") if name]


def context(files: list[str], ignore: list[str], tmp: Path) -> set[str]:
    """The files of ``files`` that a build sends, given the ``.dockerignore`` lines ``ignore``:
    the names laid out empty under ``tmp``, walked by the Docker SDK."""
    for name in files:
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    sent = exclude_paths(str(tmp), ignore, dockerfile="Dockerfile")
    return {name for name in sent if (tmp / name).is_file()}


def needed(source: str, files: list[str]) -> list[str]:
    """The tracked files one ``COPY`` source names: a file, every file below a directory, or the
    files a wildcard matches (``*`` within one path segment, as Go's ``filepath.Match``)."""
    source = source.rstrip("/")
    parts = PurePosixPath(source).parts
    out = []
    for name in files:
        here = PurePosixPath(name).parts
        below = name == source or name.startswith(source + "/")
        if below or (len(here) == len(parts) and all(map(fnmatchcase, here, parts))):
            out.append(name)
    return out


def left_out(dockerfile: str, ignore: list[str], files: list[str], tmp: Path) -> dict[str, object]:
    """Each ``COPY`` source that names no tracked file, or whose files ``.dockerignore`` excludes."""
    sent = context(files, ignore, tmp)
    problems: dict[str, object] = {}
    for source in copy_sources(dockerfile):
        wanted = needed(source, files)
        missing = sorted(set(wanted) - sent)
        if not wanted:
            problems[source] = "no tracked file"
        elif missing:
            problems[source] = missing
    return problems


DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
IGNORE = patterns((ROOT / ".dockerignore").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def files() -> list[str]:
    return tracked()


def test_every_copy_source_passes_dockerignore(files: list[str], tmp_path: Path) -> None:
    sources = copy_sources(DOCKERFILE)
    # the parse found the build stage's copies (a Dockerfile rewritten beyond it fails here first)
    assert {"requirements/runtime.txt", "rules/", "service/", "docs/dice.md"} <= set(sources)
    assert left_out(DOCKERFILE, IGNORE, files, tmp_path) == {}


def test_the_check_finds_an_excluded_source(files: list[str], tmp_path: Path) -> None:
    """Without the allow-list's line for the MCP pages, the check names them (issue 46 item 9)."""
    without = [line for line in IGNORE if line != "!docs/systems/"]
    problems = left_out(DOCKERFILE, without, files, tmp_path)
    assert list(problems) == ["docs/systems/"]
    assert "docs/systems/dos.md" in problems["docs/systems/"]  # type: ignore[operator]


def test_the_context_is_an_allow_list(files: list[str], tmp_path: Path) -> None:
    """Nothing but what the image copies is sent (and the two files a builder always reads): no
    tests, no clients but Foundry's files, no other docs (the context is the layers' cache key)."""
    sent = context(files, IGNORE, tmp_path)
    copied = {name for source in copy_sources(DOCKERFILE) for name in needed(source, files)}
    assert sent - copied == {"Dockerfile", ".dockerignore"}


def test_copy_sources_are_parsed_as_docker_reads_them() -> None:
    dockerfile = (
        "FROM x AS build\n"
        "# a comment\n"
        "COPY --chown=1:1 a.txt \\\n    b/ /dst/\n"
        'COPY ["c d.txt", "/dst/"]\n'
        "ADD e.tar /\n"
        "FROM y\n"
        "COPY --from=build /opt/venv /opt/venv\n"
    )
    assert copy_sources(dockerfile) == ["a.txt", "b/", "c d.txt", "e.tar"]
    assert needed("clients/*.mjs", ["clients/a.mjs", "clients/x/b.mjs", "c.mjs"]) == [
        "clients/a.mjs"
    ]
