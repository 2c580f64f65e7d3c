"""The proof of docs/development.md, "Adding a system": a toy system ("omen": ``POST /omen/roll``,
2d6 against a target) added to a copy of the project by following the page's steps exactly, then
served and checked by the suites that run over the registry (those that parametrize over a
capability run over the systems that declare it), green; and the files it touched by hand counted.

Slow (two ``make generate`` and the suites, a few minutes): marked ``slow``. The copy is the working
tree as it is (tracked and untracked files, not the ignored ones), so an uncommitted change is part
of what is proved.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from rules.registry import SYSTEMS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.executable).parent.parent
#: The npm packages the copy's generators and node tests use: this checkout's, linked (vite builds
#: the Owlbear popover in `make generate`).
NODE_MODULES = (
    "clients/typescript/node_modules/.package-lock.json",
    "clients/foundry/node_modules/.package-lock.json",
    "clients/owlbear/node_modules/.package-lock.json",
)

#: The new system's id, made for the run ("omen" and 8 hex digits): a real system called "omen"
#: would otherwise be registered twice.
ID = f"omen{uuid.uuid4().hex[:8]}"

# ---------------------------------------------------------------- step 1: the package, rules/<id>/

#: Its files as a newcomer writes them, "<id>" standing for the run's id.
TEMPLATES = {
    "rules/<id>/__init__.py": '''"""Omens: two six-sided dice against a target, a good omen when they reach it."""

from rules.<id>.system import SYSTEM

__all__ = ["SYSTEM"]
''',
    "rules/<id>/models.py": '''"""The request and the result of ``POST /<id>/roll``."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from rules.models import Envelope, RollRequest


class OmenRequest(RollRequest):
    target: Annotated[int, Field(ge=2, le=12, description="The total the two dice must reach.")]


class OmenResult(Envelope):
    dice: list[int]
    total: int
    success: bool
''',
    "rules/<id>/text.py": '''"""The English texts of the omens' events (the catalogs translate them)."""

from rules.narration import Message, sentence

TEXTS: tuple[Message, ...] = (
    sentence("<id>.good", "{first} + {second} = {total}, at least {target}: a good omen."),
    sentence("<id>.bad", "{first} + {second} = {total}, under {target}: a bad omen."),
)
''',
    "rules/<id>/roll.py": '''"""``POST /<id>/roll``: two d6 in slot ``roll``; the omen is good when they reach the target."""

from __future__ import annotations

from rules.budget import Work
from rules.dice import DiceSource, SlotSpec
from rules.events import EventLog, trace
from rules.narration import codes
from rules.<id>.models import OmenRequest, OmenResult
from rules.<id>.text import TEXTS

SENTENCES = codes(TEXTS)


def roll(req: OmenRequest, dice: DiceSource) -> OmenResult:
    log = EventLog(SENTENCES)
    first, second = dice.roll_many("roll", 6, 2)
    total = first + second
    success = total >= req.target
    code = "<id>.good" if success else "<id>.bad"
    log.add(code, first=first, second=second, total=total, target=req.target)
    return {**trace(dice, log), "dice": [first, second], "total": total, "success": success}


def slots(req: OmenRequest) -> SlotSpec:
    return {"roll": 6}


def work(req: OmenRequest) -> Work:
    return Work(2, (), "two dice")
''',
    "rules/<id>/system.py": '''"""The omens as the service serves them."""

from rules.<id>.models import OmenRequest, OmenResult
from rules.<id>.roll import roll, slots, work
from rules.<id>.text import TEXTS
from rules.system import Endpoint, System

SYSTEM = System(
    id="<id>",
    name={"en": "Omens", "pl": "Wróżby", "fi": "Enteet", "ar": "الفأل"},
    rules_version="<id>-1",
    endpoints=(
        Endpoint(
            path="/roll",
            outcome=("<id>.good", "<id>.bad"),
            summary="Read an omen: 2d6 against a target",
            description="Two six-sided dice; the omen is good when their total reaches the target.",
            request=OmenRequest,
            result=OmenResult,
            resolve=roll,
            slots=slots,
            slot_doc="`roll` (d6): the two dice.",
            work=work,
            examples={"a fair chance": {"target": 7, "seed": "crow"}},
        ),
    ),
    texts=TEXTS,
)
''',
}

PACKAGE = {name.replace("<id>", ID): text.replace("<id>", ID) for name, text in TEMPLATES.items()}

# ---------------------------------------------------------------- step 4: the translations

#: The events' texts, by language (rules/locale/<lang>/LC_MESSAGES/dragonroll.po).
EVENTS = {
    "pl": {
        "good": "{first} + {second} = {total}, co najmniej {target}: dobra wróżba.",
        "bad": "{first} + {second} = {total}, mniej niż {target}: zła wróżba.",
    },
    "fi": {
        "good": "{first} + {second} = {total}, vähintään {target}: hyvä enne.",
        "bad": "{first} + {second} = {total}, alle {target}: huono enne.",
    },
    "ar": {
        "good": "{first} + {second} = {total}، أي {target} على الأقل: فأل حسن.",
        "bad": "{first} + {second} = {total}، أي أقل من {target}: فأل سيئ.",
    },
}
#: The playground's new messages (service/locale/<lang>/LC_MESSAGES/playground.po): its summary.
PLAYGROUND = {
    "pl": {("summary", "Read an omen: 2d6 against a target"): "Wróżba: 2k6 przeciw progowi"},
    "fi": {("summary", "Read an omen: 2d6 against a target"): "Enne: 2d6 tavoitetta vastaan"},
    "ar": {("summary", "Read an omen: 2d6 against a target"): "قراءة الفأل: فصّا6 مقابل الهدف"},
}

# ---------------------------------------------------------------- steps 5 and 6: the page, goldens

PAGE = f"""# Omens

`POST /{ID}/roll` rolls two six-sided dice (slot `roll`) against a `target` from 2 to 12: the omen
is good when their total reaches it (`success`), and its event (`{ID}.good` or `{ID}.bad`) says so.
"""
GOLDEN = {"path": f"/{ID}/roll", "body": {"target": 7, "seed": "crow"}}

#: The files a new system touches by hand, as docs/development.md counts them.
BY_HAND = {
    *PACKAGE,
    "rules/registry.py",
    *(f"rules/locale/{lang}/LC_MESSAGES/dragonroll.po" for lang in EVENTS),
    *(f"service/locale/{lang}/LC_MESSAGES/playground.po" for lang in PLAYGROUND),
    f"docs/systems/{ID}.md",
    f"tests/golden/{ID}/roll-crow.request.json",
}
#: What `make generate` writes (scripts/check_generated.py's list, whose files may change).
sys.path.insert(0, str(ROOT))
from scripts.check_generated import GENERATED  # noqa: E402

#: The suites run over the copy: every one that reads the registry (the capability-parametrized
#: among them: a system without Foundry rolls or counted phrases is not asked for them), their tests
#: parametrized over the other systems alone left out (tests/service/new_system_only.py).
SUITES = [
    "tests/rules/test_registry.py",
    "tests/rules/test_versions.py",
    "tests/service/test_systems.py",
    "tests/service/test_outcomes.py",
    "tests/service/test_openapi.py",
    "tests/foundry/test_flavors.py",
    "tests/foundry/test_rolls.py",
    "tests/narration/test_plurals.py",
    "tests/narration/test_catalogs.py",
    "tests/golden/test_golden.py",
    "tests/browser/test_playground_catalogs.py",
    "tests/clients/test_ingress.py",
    "tests/clients/test_python_client.py",
    "tests/properties/test_budget.py",
    "tests/contract/test_schemathesis.py",
]
#: What of them is slow and says nothing of the new system: the generated requests of the other
#: systems' endpoints (the contract and the Foundry rolls' properties run over the new one alone).
SELECT = (
    "not generated_requests and not largest_answers and not 4_mib and not at_the_budget"
    f" and (not test_operation_keeps_its_contract or {ID})"
)


def run(copy: Path, *args: str, timeout: int = 900) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    env["DRAGONROLL_CONTRACT_PATHS"] = f"^/{ID}/"  # the contract fuzz over the new system's alone
    env["DRAGONROLL_PYTHON"] = str(VENV / "bin" / "python")  # the node tests' server
    # the suites' tests of the other systems alone left out (tests/service/new_system_only.py)
    env["DRAGONROLL_NEW_SYSTEM"] = ID
    env["DRAGONROLL_OTHER_SYSTEMS"] = ",".join(
        name for s in SYSTEMS for name in (s.id, s.prefix.strip("/"))
    )
    return subprocess.run(
        args, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def make(copy: Path, *targets: str) -> None:
    """``make`` in the copy, with this checkout's virtualenv and npm packages as they are."""
    view = copy.parent / "venv"
    done = run(copy, "make", "--no-print-directory", f"VENV={view}", *targets)
    assert done.returncode == 0, (
        f"make {' '.join(targets)}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
    )


def venv_view(target: Path) -> Path:
    """This checkout's virtualenv as the copy's ``make`` sees it: its interpreter and packages
    linked, and install stamps of its own, newer than the copy's locks. ``make -o`` reaches no
    sub-make (``make generate`` runs several), and a stale stamp of the checkout's own would
    reinstall the package, editable, from the copy into this checkout's virtualenv."""
    for name in ("bin", "lib", "lib64", "include", "pyvenv.cfg"):
        if (VENV / name).exists():
            (target / name).symlink_to(VENV / name)
    for stamp in (".installed-runtime", ".installed-dev"):
        (target / stamp).touch()
    return target


def translate(path: Path, lang: str, texts: dict[tuple[str, str], str]) -> list[str]:
    """A translator's work in ``path``: every untranslated message given its text; what is left."""
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    left = []
    for message in catalog:
        if not message.id or (message.string and not message.fuzzy):
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        text = texts.get((message.context or "", msgid))
        if text is None:
            left.append(f"{message.context}|{msgid}")
            continue
        message.string = text
        message.flags.discard("fuzzy")
    with path.open("wb") as f:
        write_po(f, catalog, width=0, include_previous=True)
    return left


def copy_of_the_project(target: Path) -> Path:
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (n.decode() for n in listed)):
        source = ROOT / name
        if source.is_symlink():  # service/foundry_module -> clients/foundry, as it is
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).symlink_to(os.readlink(source))
        elif source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)  # the times too: make sees nothing to reinstall
    for stamp in NODE_MODULES:
        modules = Path(stamp).parent
        (target / modules).symlink_to(ROOT / modules)
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "before", "--no-verify"]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *command], cwd=target, check=True
        )
    return target


def changed(copy: Path) -> set[str]:
    out = subprocess.run(
        ["git", "status", "--porcelain", "-uall"],
        cwd=copy,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {line[3:] for line in out.splitlines()}


def add_to_registry(copy: Path) -> None:
    """Step 2, one entry in rules/registry.py: the package imported, its SYSTEM listed last."""
    path = copy / "rules" / "registry.py"
    lines = (
        path.read_text(encoding="utf-8")
        .replace("from rules import ", f"from rules import {ID}, ", 1)
        .split("\n")
    )
    last = max(i for i, line in enumerate(lines) if re.match(r"\s+\w+\.SYSTEM,", line))
    indent = lines[last][: len(lines[last]) - len(lines[last].lstrip())]
    lines.insert(last + 1, f"{indent}{ID}.SYSTEM,")
    path.write_text("\n".join(lines), "utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (
        shutil.which("make")
        and shutil.which("npm")
        and all((ROOT / m).is_file() for m in NODE_MODULES)
    ):
        pytest.skip(
            "needs make, npm and the npm packages of clients/typescript and clients/foundry"
        )
    copy = copy_of_the_project(tmp_path_factory.mktemp("project"))
    venv_view(tmp_path_factory.mktemp("venv", numbered=False))
    # 1. The package.
    for name, text in PACKAGE.items():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_text(text, encoding="utf-8")
    # 2. One entry in the registry.
    add_to_registry(copy)
    # 3. make generate: the new texts and the new summary reach every catalog, untranslated.
    make(copy, "generate")
    # 4. Translate them.
    for lang, texts in EVENTS.items():
        po = copy / "rules" / "locale" / lang / "LC_MESSAGES" / "dragonroll.po"
        left = translate(po, lang, {_english(f"{ID}.{e}"): t for e, t in texts.items()})
        assert left == [], f"{lang}: untranslated event texts {left}"
    for lang, texts in PLAYGROUND.items():
        po = copy / "service" / "locale" / lang / "LC_MESSAGES" / "playground.po"
        assert translate(po, lang, texts) == [], f"{lang}: untranslated playground texts"
    # 5. Its page, docs/systems/<id>.md.
    (copy / "docs" / "systems" / f"{ID}.md").write_text(PAGE, encoding="utf-8")
    # 6. A golden request per endpoint, then make generate SYSTEM=<id>.
    golden = copy / "tests" / "golden" / ID / "roll-crow.request.json"
    golden.parent.mkdir(parents=True)
    golden.write_text(json.dumps(GOLDEN) + "\n", encoding="utf-8")
    make(copy, "generate", f"SYSTEM={ID}")
    return copy


def _english(code: str) -> tuple[str, str]:
    """The catalog's key of the event ``code``: its context and its English text."""
    for line in PACKAGE[f"rules/{ID}/text.py"].splitlines():
        if f'"{code}"' in line:
            return code, line.split(f'"{code}", "', 1)[1].rsplit('"', 1)[0]
    raise KeyError(code)


def test_a_new_system_touches_its_package_its_registry_entry_its_translations_and_its_page(
    project: Path,
) -> None:
    touched = changed(project)
    by_hand = {name for name in touched if not any(Path(name).match(g) for g in GENERATED)}
    # A .po file is both: `make generate` adds the new messages, the translator writes them.
    assert by_hand | (touched & BY_HAND) == BY_HAND, sorted(by_hand - BY_HAND)
    assert len(BY_HAND) == 14  # docs/development.md, "Adding a system", says so
    regenerated = touched - BY_HAND
    assert "openapi/openapi.json" in regenerated and "tests/rules/versions.json" in regenerated
    assert f"tests/golden/{ID}/roll-crow.response.json" in regenerated
    assert not any(name.startswith("tests/golden/dos/") for name in touched), "SYSTEM=<id> alone"


def test_the_suites_over_the_registry_pass_with_it(project: Path) -> None:
    done = run(project, str(VENV / "bin" / "python"), "-m", "pytest", "-p", "no:cacheprovider",
               "-p", "tests.service.new_system_only", "-q", "-n", "0", "-k", SELECT, *SUITES,
               timeout=1800)  # fmt: skip
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]


def test_it_is_served_narrated_and_in_the_docs(project: Path) -> None:
    check = f"""
import asyncio, json, httpx
from service.app import create_app

async def main():
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        out = {{"systems": (await c.get("/systems")).json()}}
        for lang in ("en", "pl", "fi", "ar"):
            r = await c.post("/{ID}/roll", json={{"target": 7, "seed": "crow", "lang": lang}})
            out[lang] = r.json()
        r = await c.post("/{ID}/roll", json={{"target": 7, "foundry": True}})
        out["foundry"] = r.status_code
        print(json.dumps(out))

asyncio.run(main())
"""
    done = run(project, str(VENV / "bin" / "python"), "-c", check)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout)
    (omen,) = [s for s in out["systems"] if s["id"] == ID]
    assert omen["languages"] == ["en", "pl", "fi", "ar"] and omen["capabilities"] == []
    assert omen["name"]["pl"] == "Wróżby"
    assert omen["endpoints"] == [
        {
            "path": f"/{ID}/roll",
            "summary": "Read an omen: 2d6 against a target",
            "outcome": [f"{ID}.good", f"{ID}.bad"],
            "foundry": False,
        }
    ]
    en = out["en"]
    assert en["rules_version"] == f"{ID}-1" and len(en["rolls"]) == 2
    assert "foundry" not in en
    assert en["total"] == sum(en["dice"]) and en["success"] == (en["total"] >= 7)
    texts = {lang: out[lang]["events"][0]["text"] for lang in ("en", "pl", "fi", "ar")}
    assert len(set(texts.values())) == 4, texts  # each language its own
    assert out["foundry"] == 422  # no Foundry rolls: not offered
    site = project / "site"
    built = run(project, str(VENV / "bin" / "mkdocs"), "build", "--strict", "-q", "-d", str(site))
    assert built.returncode == 0, built.stderr[-3000:]
    assert "Omens" in (site / "index.html").read_text(encoding="utf-8")
    assert (site / "systems" / ID / "index.html").is_file()


def test_the_foundry_module_s_node_tests_pass_with_it(project: Path) -> None:
    """The module's endpoint list regenerated by ``make generate`` (``clients/foundry/endpoints.mjs``)
    and its tests, end to end against the copy's service included, over the new system: one without
    Foundry rolls is called without asking for them (the review found every call a 422)."""
    endpoints = (project / "clients" / "foundry" / "endpoints.mjs").read_text(encoding="utf-8")
    assert f'path: "/{ID}/roll"' in endpoints
    done = run(project, "npm", "test", "--prefix", "clients/foundry", "--silent")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
