"""The catalogs hold exactly the messages the code uses, in every language, and are current.

- every event code a resolver records has a sentence, and every message of the source belongs to
  a code a resolver records (a code is found in the systems' source, literal or f-string);
- every language's .po holds every message, translated and not fuzzy, and nothing else;
- a translation shows only the fields its English source shows (a typo would fail at run time);
- the template (.pot), the .po files and the compiled .mo files are what `make catalogs` writes.
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from rules.narration import LANGUAGES, LOCALE_DIR, codes, fields
from rules.registry import IDS as SYSTEMS
from tests.narration.catalogs import TRANSLATED, languages, po, po_path, source_messages

ROOT = Path(__file__).resolve().parents[2]
SOURCE = source_messages()


def _code_patterns(system: str) -> list[re.Pattern[str]]:
    """Every event code the system's resolvers may record: its string literals and f-strings
    that start with ``<system>.``, an f-string's fields read as any lower-case word."""
    out = []
    literal = re.compile(rf"{system}(\.[a-z0-9_]+)+")
    for path in sorted((ROOT / "rules" / system).glob("*.py")):
        if path.name in {"text.py", "sentences.py", "foundry.py"}:
            continue  # the texts themselves; foundry.py reads recorded codes, records none
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if literal.fullmatch(node.value):
                    out.append(re.compile(re.escape(node.value)))
            elif isinstance(node, ast.JoinedStr):
                head = node.values[0]
                if isinstance(head, ast.Constant) and str(head.value).startswith(f"{system}."):
                    out.append(
                        re.compile(
                            "".join(
                                re.escape(v.value) if isinstance(v, ast.Constant) else "[a-z_]+"
                                for v in node.values
                            )
                        )
                    )
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_recorded_code_has_a_sentence_and_every_sentence_a_code(system: str) -> None:
    texts = importlib.import_module(f"rules.{system}.text").TEXTS
    have = codes(texts)
    patterns = _code_patterns(system)
    assert patterns, f"no event codes found in rules/{system}"
    unused = sorted(c for c in have if not any(p.fullmatch(c) for p in patterns))
    assert unused == [], f"sentences for codes no resolver records: {unused}"
    missing = [p.pattern for p in patterns if not any(p.fullmatch(c) for c in have)]
    # Literals like "dos.pool.rolled" that are not event codes would show here; none are.
    assert missing == [], f"codes recorded without a sentence: {missing}"


def test_every_counted_phrase_term_and_variant_belongs_to_a_sentence() -> None:
    sentences = {c: m for c, m in SOURCE.items() if m.plural is None and ("=" not in c or "|" in c)}
    by_code: dict[str, set[str]] = {}
    for context, message in sentences.items():
        by_code.setdefault(context.split("|", 1)[0], set()).update(fields(message.text))
    for context, message in SOURCE.items():
        if message.plural is not None:
            code, param = context.split("#", 1)
            assert param in by_code.get(code, set()), f"{context}: {code} shows no {{{param}}}"
        elif "=" in context and "|" not in context:
            system, rest = context.split(".", 1)
            table = rest.split("=", 1)[0]
            shown = {
                f
                for c, m in sentences.items()
                if c.startswith(system + ".")
                for f in fields(m.text)
            }
            specs = {
                spec[1:]
                for c, m in sentences.items()
                if c.startswith(system + ".")
                for _, _, spec, _ in string.Formatter().parse(m.text)
                if spec and spec.startswith("@")
            }
            assert table in shown | specs | {"role", "list", "notation"}, (
                f"{context}: no sentence shows it"
            )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalog_holds_only_the_source_messages(lang: str) -> None:
    catalog = po(lang)
    contexts = {m.context for m in catalog if m.id}
    assert contexts - SOURCE.keys() == set(), "messages no code uses: run `make catalogs`"
    assert SOURCE.keys() - contexts == set(), "messages missing: run `make catalogs`"
    for message in catalog:
        if message.id:
            source = SOURCE[message.context]
            expected = source.text if source.plural is None else (source.text, source.plural)
            assert message.id == expected, f"{message.context}: the source text changed"


@pytest.mark.parametrize("lang", languages(*TRANSLATED))
def test_every_message_is_translated(lang: str) -> None:
    catalog = po(lang)
    untranslated = [
        m.context
        for m in catalog
        if m.id and (m.fuzzy or not (all(m.string) if isinstance(m.string, tuple) else m.string))
    ]
    assert untranslated == [], f"{lang}: {len(untranslated)} messages untranslated or fuzzy"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_translation_shows_only_its_source_fields(lang: str) -> None:
    roles = {c.split("=", 1)[1] for c in SOURCE if ".role=" in c}
    for message in po(lang):
        if not message.id:
            continue
        source = SOURCE[message.context]
        allowed = fields(source.text) | fields(source.plural or "") | roles
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            assert fields(text) <= allowed, f"{lang} {message.context}: {text!r}"


def test_the_template_is_current(tmp_path: Path) -> None:
    out = tmp_path / "dragonroll.pot"
    babel = [str(Path(sys.executable).with_name("pybabel"))]
    subprocess.run(
        [
            *babel,
            "-q",
            "extract",
            "-F",
            "babel.cfg",
            "--no-default-keywords",
            *("-k", "sentence:1c,2", "-k", "counted:1c,2,3", "-k", "term:1c,2"),
            "--add-comments=TRANSLATORS:",
            "--no-location",
            "--omit-header",
            "-o",
            str(out),
            ".",
        ],
        cwd=ROOT,
        check=True,
    )
    committed = (LOCALE_DIR / "dragonroll.pot").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == committed, "run `make catalogs`"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalog_is_current(lang: str) -> None:
    with open(po_path(lang), "rb") as f:
        catalog = read_po(f, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    mo = Path(po_path(lang)).with_suffix(".mo")
    assert buffer.getvalue() == mo.read_bytes(), "run `make catalogs-compile`"
