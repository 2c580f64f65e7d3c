"""Event texts: the generated sentences give exactly the reference rendering, for every system, and
the generated modules are current."""

from __future__ import annotations

import importlib
import string
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.events import EventLog, show
from rules.textgen import Sentence, function_source, module_source, render_text

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("dos", "dragon", "riders", "dnd5e")
TEXTS = {s: importlib.import_module(f"rules.{s}.text").TEXTS for s in SYSTEMS}
SENTENCES = {s: importlib.import_module(f"rules.{s}.sentences").SENTENCES for s in SYSTEMS}
CODES = sorted((s, code) for s in SYSTEMS for code in TEXTS[s])

scalars = st.one_of(st.integers(-(10**6), 10**6), st.text(max_size=12), st.booleans(), st.none())
values = st.one_of(scalars, st.lists(st.one_of(scalars, st.lists(scalars, max_size=3)), max_size=4))


def fields(template: str) -> list[tuple[str, str]]:
    return [(f, spec or "") for _, f, spec, _ in string.Formatter().parse(template) if f]


def built(template: str) -> Sentence:
    """The function ``rules.textgen`` writes for ``template``, built here from the same source."""
    namespace: dict[str, Any] = {"show": show, "render_text": render_text, "Any": Any}
    exec(function_source("f", template), namespace)  # the test's own templates
    fn: Sentence = namespace["f"]
    return fn


@pytest.mark.parametrize(("system", "code"), CODES)
def test_every_generated_sentence_gives_the_reference_rendering(system: str, code: str) -> None:
    template = TEXTS[system][code]
    generated = SENTENCES[system][code]  # the module's function, compiled in CI

    @settings(max_examples=30)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        params: dict[str, Any] = {
            name: data.draw(st.integers(-1000, 1000) if spec else values)
            for name, spec in fields(template)
        }
        params["unused_extra"] = data.draw(values)  # parameters a text does not show are ignored
        assert generated(params) == render_text(template, params)

    run()


def test_every_system_has_a_sentence_for_each_text_and_no_other() -> None:
    for system in SYSTEMS:
        assert list(SENTENCES[system]) == list(TEXTS[system])


def test_generated_modules_are_current() -> None:
    for system in SYSTEMS:
        path = ROOT / "rules" / system / "sentences.py"
        expected = module_source(TEXTS[system], f"rules/{system}/text.py")
        assert path.read_text() == expected, f"{path} is out of date: run `make sentences`"
    check = [sys.executable, str(ROOT / "scripts" / "gen_sentences.py"), "--check"]
    assert subprocess.run(check, capture_output=True, check=False).returncode == 0


@pytest.mark.parametrize(
    "template",
    [
        "{a[0]} and {b!r}",
        "{_x}",
        "{class}",
        "{{literal}} {a}",
        'He said "{b}" \\ {a} é\n{_x:+d} ✓',
        "{a:>{b}}",
        "no fields at all",
    ],
)
def test_texts_outside_the_fast_form_render_as_the_reference(template: str) -> None:
    params = {"a": [7, 8], "b": "3", "_x": 1, "class": 2}
    assert built(template)(params) == render_text(template, params)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (3, "3"),
        (-4, "-4"),
        (True, "True"),
        ("d6", "d6"),
        (None, "none"),
        ([], "none"),
        ([6, 10, 10], "6, 10, 10"),
        ((1, None, [2, 3], []), "1, none, 2, 3, none"),
        (1.5, "1.5"),
    ],
)
def test_show_writes_a_parameter_as_the_reference_does(value: object, shown: str) -> None:
    assert show(value) == shown == render_text("{v}", {"v": value})


def test_an_event_renders_its_code_parameters_and_sentence() -> None:
    log = EventLog(SENTENCES["dos"])
    log.add("dos.pool.result", slot="check", result=17)
    assert log.render() == [
        {
            "code": "dos.pool.result",
            "params": {"slot": "check", "result": 17},
            "text": "check: dice result 17.",
        }
    ]
    with pytest.raises(KeyError, match=r"no text for event code 'dos\.nope'"):
        log.add("dos.nope")
