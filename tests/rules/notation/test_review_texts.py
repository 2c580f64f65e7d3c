"""The native-reader review's notation texts (shared/reviews/native-reader-2026-12-06.md, X3 and
X4), in every language: Foundry's ``cf`` alone is told as a count of failures, never as a sum; a
compounding (``!!``) or penetrating (``!p``) die names the faces that exploded, never its chain's
sum ("4d6!! explodes on 10, 9")."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Api

API = Api()
LANGUAGES = ("en", "pl", "fi", "ar")


def events(lang: str, **body: Any) -> list[dict[str, Any]]:
    answer = API.post("/dice/roll", json={**body, "lang": lang}).json()
    events: list[dict[str, Any]] = answer["events"]
    return events


@pytest.mark.parametrize("lang", LANGUAGES)
def test_foundrys_cf_is_told_as_its_failures(lang: str) -> None:
    """X3: 5d10cf<=2 on 5, 1, 2, 9, 7 counts 2 failures; the dice add up to 24."""
    told = events(lang, notation="5d10cf<=2", dice={"term.0": [5, 1, 2, 9, 7]})
    counted = next(e for e in told if e["code"] == "notation.counted")
    assert counted["params"]["failures"] == 2 and counted["params"]["failing"] == "only"
    failures = {"en": "2 failures", "pl": "2 porażki", "fi": "2 epäonnistumista", "ar": "إخفاقان"}
    assert failures[lang] in counted["text"], counted["text"]
    for sum_word in ("totals 2", "razem 2", "yhteensä 2", "والمجموع"):
        assert sum_word not in counted["text"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("notation", "script", "faces", "shown"),
    [
        ("4d6!!", [6, 4, 2, 1, 6, 3], [6, 6], "15"),  # one die: the chain 6+6+3
        ("2d6!p", [6, 2, 6, 4], [6, 6], "5"),  # the explosions' dice show 5 and 3
    ],
)
def test_a_compounded_or_penetrating_die_names_the_faces_that_exploded(
    lang: str, notation: str, script: list[int], faces: list[int], shown: str
) -> None:
    told = events(lang, notation=notation, dialect="roll20", dice={"term.0": script})
    exploded = next(e for e in told if e["code"] == "notation.exploded")
    assert exploded["params"]["dice"] == faces
    named = exploded["text"].split(":")[0].replace(notation, "")  # before the count of dice
    assert shown not in named and "6" in named, exploded["text"]
