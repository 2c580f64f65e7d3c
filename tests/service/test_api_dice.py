"""``/dice/roll`` and ``/dice/odds`` over HTTP (issue 29): seeded and replayable, problems that
name the column, the budget, narration in four languages, the Foundry roll, the shorthand setting."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from rules.notation.models import NotationRollRequest
from rules.notation.parser import DEPTH, parse
from rules.notation.roll import Roller
from service.settings import Settings
from tests.conftest import Api, assert_problem
from tests.foundry.checks import VALIDATOR

ROLLER = Roller()


def test_a_roll_shows_every_die_and_replays(api: Api) -> None:
    body = {"notation": "4d6kh3 + 1d8[fire] + 2", "seed": "table-1"}
    r = api.post("/dice/roll", json=body)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["formula"] == "4d6kh3 + 1d8[fire] + 2"
    assert [d["slot"] for d in answer["rolls"]] == ["term.0"] * 4 + ["term.1"]
    kept = [d["counts"] for d in answer["terms"][0]["dice"]]
    assert answer["total"] == sum(kept) + answer["terms"][1]["total"] + 2
    assert api.post("/dice/roll", json=body).content == r.content
    unseeded = api.post("/dice/roll", json={"notation": "3d6!"}).json()
    replay = api.post("/dice/roll", json={"notation": "3d6!", "seed": unseeded["seed"]}).json()
    assert replay == unseeded


def test_scripted_dice_and_what_was_left(api: Api) -> None:
    body = {"notation": "2d20kh1 + 5", "dice": {"term.0": [4, 17, 9]}}
    answer = api.post("/dice/roll", json=body).json()
    assert answer["total"] == 22 and answer["unused_dice"] == {"term.0": [9]}
    r = api.post("/dice/roll", json={"notation": "2d6", "dice": {"term.1": [1]}})
    assert_problem(r, 422, "dice-script")
    r = api.post("/dice/roll", json={"notation": "2d6", "dice": {"term.0": [7, 1]}})
    assert_problem(r, 422, "dice-script")


def test_a_bad_notation_names_the_column(api: Api) -> None:
    body = assert_problem(api.post("/dice/roll", json={"notation": "4d6kh3 + (2d"}), 422)
    assert body["errors"] == [
        {
            "loc": ["body", "notation"],
            "msg": "notation: column 13: expected the number of sides, '%' or 'F' after 'd', "
            "found the end",
            "lang": "en",  # the engine's own words: English (service.problem_texts)
        }
    ]
    for notation in ("1d1!", "2d6q", "1d6/(1d2-1)", "foo"):
        assert_problem(api.post("/dice/roll", json={"notation": notation}), 422)
        assert_problem(api.post("/dice/odds", json={"notation": notation}), 422)
    assert_problem(api.post("/dice/roll", json={"notation": "1d6\n"}), 422, "validation-error")
    assert_problem(api.post("/dice/roll", json={"notation": "1d6", "x": 1}), 422)


def test_the_budget_counts_explosions_before_drawing(api: Api) -> None:
    notation = "+".join(["100d6rr!"] * 20)
    body = assert_problem(
        api.post("/dice/roll", json={"notation": notation}), 422, "limit-exceeded"
    )
    assert f"{20 * 100 * (1 + 2 * DEPTH):,} base dice" in body["detail"]
    assert body["errors"][0]["loc"] == ["body", "notation"]
    small = Api(max_dice=30)
    assert_problem(small.post("/dice/roll", json={"notation": "3d6!"}), 422, "limit-exceeded")
    assert small.post("/dice/roll", json={"notation": "30d6"}).status_code == 200


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Ala rolls 6d10cs>=7df<=1 + 4d6kh3", "successes", "keeps"]),
        ("pl", ["Ala rzuca", "po odrzuceniu: 4, 6, 6"]),
        ("fi", ["Ala heittää", "pidetään"]),
        ("ar", ["يرمي", "يُحتفظ"]),
    ],
)
def test_narrated_in_four_languages(api: Api, lang: str, words: list[str]) -> None:
    body = {"notation": "6d10cs>=7df<=1 + 4d6kh3", "seed": 3, "name": "Ala", "lang": lang}
    r = api.post("/dice/roll", json=body)
    assert r.headers["content-language"] == lang
    text = " ".join(e["text"] for e in r.json()["events"])
    for word in words:
        assert word in text, text
    codes = [e["code"] for e in r.json()["events"]]
    assert codes == ["notation.counted", "notation.kept", "notation.total"]


def test_without_a_name_the_total_reads_on_its_own(api: Api) -> None:
    answer = api.post("/dice/roll", json={"notation": "2d6", "dice": {"term.0": [3, 4]}}).json()
    assert answer["events"][-1]["text"] == "2d6 totals 7."
    assert answer["events"][0]["text"] == "2d6 shows 3, 4: 7."


def foundry_value(term: dict[str, Any]) -> int:
    """A Foundry term's value as Foundry counts it (active results, by ``count`` when set)."""
    if term["class"] == "ParentheticalTerm":
        assert term["roll"]["total"] == foundry_total(term["roll"]["terms"])
        return int(term["roll"]["total"])
    if term["class"] == "NumericTerm":
        return int(term["number"])
    return sum(r.get("count", r["result"]) for r in term["results"] if r["active"])


def foundry_total(terms: list[dict[str, Any]]) -> int:
    """The terms evaluated with * and / before + and - (``/`` floored, as our total)."""
    values: list[Any] = []
    for term in terms:
        values.append(term["operator"] if term["class"] == "OperatorTerm" else foundry_value(term))
    out = " ".join(str(v) for v in values).replace("/", "//")
    return int(eval(out, {"__builtins__": {}}))


def results(terms: list[dict[str, Any]]) -> list[int]:
    out: list[int] = []
    for term in terms:
        if term["class"] == "ParentheticalTerm":
            out += results(term["roll"]["terms"])
        elif "results" in term:
            out += [r["result"] for r in term["results"]]
    return out


@pytest.mark.parametrize(
    "notation",
    [
        "4d6kh3 + 2",
        "(2d6 + 3) * 2d4[fire]",
        "8d10cs>=7df<=1 - 1",
        "3d6! + 2d20ro<3 + 1d8min3max6",
        "4dF + 1",
        "1d100 / 3 + adv",
        "5d6dl1dh1",
    ],
)
def test_the_foundry_roll_has_our_formula_and_total(api: Api, notation: str) -> None:
    answer = api.post("/dice/roll", json={"notation": notation, "seed": 9, "foundry": True}).json()
    (roll,) = answer["foundry"]["rolls"]
    VALIDATOR.validate(roll)
    assert roll["formula"] == parse(answer["formula"]).tree.text("foundry")
    assert roll["total"] == answer["total"] == foundry_total(roll["terms"])
    faces = [d["value"] for t in answer["terms"] for d in t["dice"]]
    assert results(roll["terms"]) == faces, "every die, in draw order, once"
    assert roll["options"]["dragonroll"]["slot"] == "term.0"


def test_no_dice_no_foundry_roll(api: Api) -> None:
    answer = api.post("/dice/roll", json={"notation": "2 + 3", "foundry": True}).json()
    assert answer["total"] == 5 and answer["foundry"] == {"rolls": []}


def test_odds(api: Api) -> None:
    r = api.post("/dice/odds", json={"notation": "adv"})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["formula"] == "2d20kh1"
    assert answer["at_least"][-1] == {"value": 20, "p": {"p": 39 / 400, "exact": "39/400"}}
    assert answer["total"]["mean"] == pytest.approx(13.825)
    body = assert_problem(api.post("/dice/odds", json={"notation": "2d6", "seed": 1}), 422)
    assert body["errors"][0]["loc"] == ["body", "seed"]


def test_a_deployment_adds_shorthands() -> None:
    try:
        extended = Api(dice_shorthands={"crit": "4d6", "adv": "3d20kh1"})
        answer = extended.post("/dice/roll", json={"notation": "crit + adv", "seed": 1}).json()
        assert answer["formula"] == "4d6 + 3d20kh1"
        assert extended.post("/dice/odds", json={"notation": "crit"}).status_code == 200
    finally:
        plain = Api()  # the table is the process's: the last app's settings
    assert_problem(plain.post("/dice/roll", json={"notation": "crit"}), 422)
    assert plain.post("/dice/roll", json={"notation": "adv", "seed": 1}).json()["formula"] == (
        "2d20kh1"
    )


def test_a_bad_shorthand_setting_stops_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAGONROLL_DICE_SHORTHANDS", '{"crit": "4d6+"}')
    with pytest.raises(ValidationError, match="shorthand 'crit'"):
        Settings()
    monkeypatch.setenv("DRAGONROLL_DICE_SHORTHANDS", '{"save": "1d20+5"}')
    assert Settings().dice_shorthands == {"save": "1d20+5"}


#: The campaign's five 500s (each a 422 naming ``notation`` now), and its shapes around them.
NO_500 = [
    ("/dice/roll", "(" * 238 + "1d6" + ")" * 238),
    ("/dice/odds", "(" * 246 + "1d6" + ")" * 246),
    ("/dice/roll", "-1000000*1000000*1000000*10"),
    ("/dice/odds", "1d6*1000000*1000000*1000000*10"),
    ("/dice/roll", "*".join(["999999"] * 71)),
    ("/dice/odds", "*".join(["999999"] * 71)),
    ("/dice/roll", "1000000*1000000*1000000"),
    ("/dice/roll", "-" * 400 + "1"),
    ("/dice/odds", "1d1000!>1"),
]


@pytest.mark.parametrize(("path", "notation"), NO_500, ids=[f"{p} {n[:24]}" for p, n in NO_500])
def test_no_notation_reaches_a_500(api: Api, path: str, notation: str) -> None:
    body = assert_problem(api.post(path, json={"notation": notation}), 422)
    assert body["errors"][0]["loc"] == ["body", "notation"]


def test_the_longest_chain_of_operators_is_answered(api: Api) -> None:
    notation = "+".join(["1"] * 250)  # 499 characters: the tree 250 deep
    assert api.post("/dice/roll", json={"notation": notation}).json()["total"] == 250
    assert api.post("/dice/odds", json={"notation": notation}).status_code == 200
    r = api.post("/dice/roll", json={"notation": "1000000*1000000*9007", "foundry": True})
    assert r.json()["total"] == 9_007_000_000_000_000 <= 2**53 - 1


@pytest.mark.parametrize(
    "notation",
    ["1d6", "+".join(["1d6"] * 20), "9d1000!>1", "20d1000r<999!>500", "4dF", "5d6kh3+8d10cs>5df<2"],
)
def test_the_roll_work_bounds_its_answer(api: Api, notation: str) -> None:
    """``/dice/roll``'s work function counts the answer's bytes: checked against the encoded
    answer at its largest (Foundry roll, Arabic texts, a long name)."""
    for foundry in (False, True):
        req = NotationRollRequest(
            notation=notation, seed=1, foundry=foundry, lang="ar", name="Laila" * 6
        )
        work = ROLLER.work(req)
        r = api.post("/dice/roll", json=req.model_dump(exclude_none=True))
        assert r.status_code == 200, r.text
        assert len(r.json()["rolls"]) <= work.dice
        assert len(r.content) <= work.answer


@pytest.mark.parametrize(
    ("gender", "verb"), [("feminine", "ترمي"), ("masculine", "يرمي"), (None, "يرمي")]
)
def test_the_roller_s_gender_beside_the_name(api: Api, gender: str | None, verb: str) -> None:
    body: dict[str, Any] = {"notation": "1d20", "seed": 1, "name": "ليلى", "lang": "ar"}
    if gender is not None:
        body["gender"] = gender
    answer = api.post("/dice/roll", json=body).json()
    (told,) = [e for e in answer["events"] if e["code"] == "notation.total"]
    assert verb in told["text"] and "ليلى" in told["text"]
    assert told["params"]["gender"] == gender
    english = api.post("/dice/roll", json={**body, "lang": "en"}).json()
    # a right-to-left name is isolated in a left-to-right sentence (FSI ... PDI)
    assert "\u2068ليلى\u2069 rolls 1d20" in english["events"][-1]["text"]


@pytest.mark.parametrize(
    ("lang", "verb"),
    [("en", "roll 1d20"), ("pl", "rzucają"), ("fi", "heittävät"), ("ar", "يرمون")],
)
def test_a_plural_group_rolls_with_a_plural_verb(api: Api, lang: str, verb: str) -> None:
    body = {"notation": "1d20", "seed": 1, "name": "Wilki", "gender": "plural", "lang": lang}
    (told,) = [
        e
        for e in api.post("/dice/roll", json=body).json()["events"]
        if e["code"] == "notation.total"
    ]
    assert verb in told["text"], told["text"]
    single = api.post("/dice/roll", json={**body, "gender": "masculine"}).json()
    assert verb not in single["events"][-1]["text"]


@pytest.mark.parametrize(
    ("dialect", "notation"),
    [
        ("roll20", "10d10>8f1 + 3d6!! + {1d20, 1d20}kh1"),
        ("roll20", "4d10cs>7 + ceil(1d6/2) + 2d20r<2"),
        ("avrae", "1d20mi10 + 4d6pl1 + 8d6e6 + 4d6k3 to hit"),
        ("avrae", "(1d20, 1d20)kh1 + 1d20rr<20"),
        ("foundry", "20d20cs + 6d6cf<=3 + 4d6d1 + {1d8x, 1d6x}kh + 1d20 + 5 [attack]"),
    ],
)
def test_every_dialect_has_its_foundry_roll(api: Api, dialect: str, notation: str) -> None:
    body = {"notation": notation, "dialect": dialect, "seed": 5, "foundry": True}
    r = api.post("/dice/roll", json=body)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["dialect"] == dialect
    (roll,) = answer["foundry"]["rolls"]
    VALIDATOR.validate(roll)
    assert roll["total"] == answer["total"]
    again = {**body, "notation": answer["formula"]}
    assert api.post("/dice/roll", json=again).json()["total"] == answer["total"]
