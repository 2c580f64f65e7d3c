"""Foundry VTT rolls: each dice pool a resolution drew, as a ``Roll`` that ``Roll.fromData()`` takes
(``schemas/foundry-roll.schema.json``), built after the resolution, never by a resolver. Each system
maps its own events to pools (``rules/<system>/foundry.py``, its descriptor's ``foundry``); every die
no pool claims is a plain roll of its own, so every die drawn is shown once (docs/foundry.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules import narration

Json = dict[str, Any]


@dataclass
class Pool:
    """One roll to show: its slot, its terms (dice and numbers), our total and its flavor."""

    slot: str
    terms: list[Json]
    total: int
    flavor: str
    #: The dice of the record it shows, by value (checked against the record, then claimed).
    claims: list[int] = field(default_factory=list)
    #: Its dice of other slots than ``slot``, by slot (a roll of several slots: /dice/roll).
    more: dict[str, list[int]] = field(default_factory=dict)


def result(value: int, *, active: bool = True, **flags: bool | int) -> Json:
    return {"result": value, "active": active, **flags}


def die(
    faces: int,
    results: list[Json],
    *,
    number: int | None = None,
    modifiers: list[str] | None = None,
) -> Json:
    return {
        "class": "Die",
        "options": {},
        "evaluated": True,
        "number": len(results) if number is None else number,
        "faces": faces,
        "modifiers": modifiers or [],
        "results": results,
    }


def plain(faces: int, values: list[int]) -> Json:
    return die(faces, [result(v) for v in values])


def numeric(n: int) -> Json:
    return {"class": "NumericTerm", "options": {}, "evaluated": True, "number": n}


def operator(op: str) -> Json:
    return {"class": "OperatorTerm", "options": {}, "evaluated": True, "operator": op}


def plus(*numbers: int) -> list[Json]:
    terms: list[Json] = []
    for n in numbers:
        if n:
            terms += [operator("+" if n > 0 else "-"), numeric(abs(n))]
    return terms


def formula(terms: list[Json]) -> str:
    """Foundry's notation of the terms: ``5d10 + 44 + 3``, ``2d20kh + 5``, ``3d6cs>4``."""
    parts: list[str] = []
    for term in terms:
        kind = term["class"]
        flavor = term["options"].get("flavor")
        label = f"[{flavor}]" if flavor else ""
        if kind in ("Die", "FateDie"):
            faces = "F" if kind == "FateDie" else term["faces"]
            parts.append(f"{term['number']}d{faces}{''.join(term['modifiers'])}{label}")
        elif kind == "OperatorTerm":
            parts.append(term["operator"])
        elif kind == "ParentheticalTerm":
            parts.append(f"({term['term']}){label}")
        else:
            parts.append(f"{term['number']}{label}")
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Say:
    """A system's flavors in one language: ``say(key, params)`` is ``<system>.foundry.<key>``."""

    system: str
    lang: str
    names: Mapping[str, str]
    texts: narration.Texts

    def __call__(self, key: str, params: Mapping[str, Any]) -> str:
        context = f"{self.system}.foundry.{key}"
        return narration.flavor(self.lang, context, params, self.names, self.texts)


def roll(pool: Pool, origin: Json) -> Json:
    return {
        "class": "Roll",
        "options": {"flavor": pool.flavor, "dragonroll": {**origin, "slot": pool.slot}},
        "dice": [],
        "formula": formula(pool.terms),
        "terms": pool.terms,
        "total": pool.total,
        "evaluated": True,
    }


def leftovers(record: list[Json], pools: list[Pool], say: Say) -> list[Pool]:
    """One plain roll per die of the record that no pool claimed, in draw order: such dice (a
    damage die, a hit location, a tie-break reroll) are each a roll of their own, never summed."""
    claimed: dict[str, Counter[int]] = {}
    for pool in pools:
        claimed.setdefault(pool.slot, Counter()).update(pool.claims)
        for slot, values in pool.more.items():
            claimed.setdefault(slot, Counter()).update(values)
    left: list[Pool] = []
    for die_ in record:
        taken = claimed.get(die_["slot"])
        if taken is not None and taken[die_["value"]] > 0:
            taken[die_["value"]] -= 1
            continue
        slot, sides, value = die_["slot"], die_["sides"], die_["value"]
        text = say("dice", {**slot_words(slot), "count": 1, "sides": sides})
        left.append(Pool(slot, [plain(sides, [value])], value, text, [value]))
    return left


def slot_words(slot: str) -> dict[str, str | None]:
    """What a leftover die's flavor tells of its slot: the kind of roll (``slot``, a term of the
    system's ``slot`` table: ``location`` as "hit location") and whose it is (``who``, an id, or
    ``None``), never the slot id itself: ``location``; ``damage.0`` (a part's number: no one);
    ``tiebreak.k1``, ``slayer.k1`` (kind, then id); ``k1.2.location`` (id, number, kind)."""
    parts = slot.split(".")
    if len(parts) >= 3:
        return {"slot": parts[-1], "who": parts[0]}
    if len(parts) == 2 and not parts[1].isdigit():
        return {"slot": parts[0], "who": parts[1]}
    return {"slot": parts[0], "who": None}


Mapper = Callable[[Any, Mapping[str, Any], Say], list[Pool]]


def rolls(
    system: str,
    mapper: Mapper,
    req: Any,
    res: Mapping[str, Any],
    *,
    lang: str,
    names: Mapping[str, str],
    texts: narration.Texts,
) -> list[Json]:
    """The Foundry rolls of a result, their flavors in ``lang`` with the request's ``names``
    (``rules.narration.names``, as its events' texts have them): the pools of the system's
    ``mapper`` (its descriptor's ``foundry``), then the dice they left, in the draw order of each
    slot's first die."""
    say = Say(system, lang, names, texts)
    pools = [p for p in mapper(req, res, say) if p.claims]  # a pool of 0 dice draws none
    pools += leftovers(res["rolls"], pools, say)
    origin = {"seed": res["seed"], "rng": res["rng"], "rules_version": res["rules_version"]}
    order = {d["slot"]: i for i, d in reversed(list(enumerate(res["rolls"])))}
    pools.sort(key=lambda p: order.get(p.slot, len(order)))
    return [roll(p, origin) for p in pools]
