"""Event texts: the compiled sentences give exactly the reference rendering, for every system."""

from __future__ import annotations

import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dnd5e.text import TEXTS as DND5E
from rules.dos.text import TEXTS as DOS
from rules.dragon.text import TEXTS as DRAGON
from rules.events import EventLog, compiled, render_text, sentence
from rules.riders.text import TEXTS as RIDERS

ALL = {**DOS, **DRAGON, **RIDERS, **DND5E}
scalars = st.one_of(st.integers(-(10**6), 10**6), st.text(max_size=12), st.booleans(), st.none())
values = st.one_of(scalars, st.lists(st.one_of(scalars, st.lists(scalars, max_size=3)), max_size=4))


def fields(template: str) -> list[tuple[str, str]]:
    return [(f, spec or "") for _, f, spec, _ in string.Formatter().parse(template) if f]


@pytest.mark.parametrize("code", sorted(ALL))
def test_every_text_compiles_to_the_reference_rendering(code: str) -> None:
    template = ALL[code]

    @settings(max_examples=30)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        params: dict[str, Any] = {
            name: data.draw(st.integers(-1000, 1000) if spec else values)
            for name, spec in fields(template)
        }
        params["unused_extra"] = data.draw(values)  # parameters a text does not show are ignored
        assert sentence(template)(params) == render_text(template, params)

    run()


@pytest.mark.parametrize(
    "template",
    [
        "{a[0]} and {b!r}",
        "{_x}",
        "{class}",
        "{{literal}} {a}",
        'He said "{b}" \\ {a} é\n{_x:+d} ✓',
        "{a:>{b}}",
    ],
)
def test_texts_outside_the_fast_form_render_as_the_reference(template: str) -> None:
    params = {"a": [7, 8], "b": "3", "_x": 1, "class": 2}
    assert sentence(template)(params) == render_text(template, params)


def test_texts_are_compiled_once_per_mapping() -> None:
    assert compiled(DOS) is compiled(DOS)
    log = EventLog(DOS)
    log.add("dos.pool.result", slot="check", result=17)
    assert log.render()[0]["text"] == "check: dice result 17."
