"""Surprise and initiative in one resolution (D5E-2..7), drawn in the order D5E-2 gives: the hiders'
Stealth d20s, one initiative roll per place (a lone combatant or a whole group), then the
tie-break d20s (docs/systems/dnd5e.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rules.dice import DiceSource, SlotSpec
from rules.dnd5e.d20 import D20, mode, roll_d20
from rules.dnd5e.models import (
    Combatant,
    D20Roll,
    InitiativeRequest,
    InitiativeResult,
    OrderEntry,
    Stealth,
    SurpriseReason,
    SurpriseVerdict,
)
from rules.dnd5e.sentences import SENTENCES
from rules.errors import FieldError, InvalidRequest, LimitExceeded
from rules.events import EventLog, foundry_trace
from rules.models import MAX_ATTEMPTS

ROUND_SECONDS = 6  # D5E-1
_SHARED = ("side", "dex_mod", "initiative_bonus", "dexterity", "advantage", "disadvantage")


@dataclass
class _Place:
    """One place in the order: a lone combatant or a group rolling once (D5E-5)."""

    id: str
    members: list[str]
    first: Combatant
    group: bool
    roll: D20Roll | None = None
    tiebreak: list[int] = field(default_factory=list)

    @property
    def total(self) -> int:
        assert self.roll is not None
        return self.roll["total"]


def _places(req: InitiativeRequest) -> list[_Place]:
    places: dict[str, _Place] = {}
    for c in req.combatants:
        key = c.group if c.group is not None else c.id
        if key in places:
            places[key].members.append(c.id)
        else:
            places[key] = _Place(key, [c.id], c, c.group is not None)
    return list(places.values())


def initiative_slots(req: InitiativeRequest) -> SlotSpec:
    slots: dict[str, int | None] = {}
    for c in req.combatants:
        if c.hiding is not None and c.hiding.stealth_mod is not None:
            slots[f"stealth.{c.id}"] = D20
    for place in _places(req):
        slots[f"initiative.{place.id}"] = D20
        if req.tie_break in ("d20", "dexterity"):
            slots[f"tiebreak.{place.id}"] = D20
    return slots


def _validate(req: InitiativeRequest) -> None:
    errors: list[FieldError] = []
    ids: dict[str, int] = {}
    for i, c in enumerate(req.combatants):
        if c.id in ids:
            errors.append(
                FieldError(("combatants", i, "id"), f"duplicate id {c.id!r} (also #{ids[c.id]})")
            )
        ids.setdefault(c.id, i)
    firsts: dict[str, Combatant] = {}
    for i, c in enumerate(req.combatants):
        if c.group is None:
            continue
        if c.group in ids:
            errors.append(
                FieldError(
                    ("combatants", i, "group"),
                    f"group id {c.group!r} is also a combatant id; ids and groups share slot names",
                )
            )
        first = firsts.setdefault(c.group, c)
        for name in _SHARED:
            if getattr(c, name) != getattr(first, name):
                errors.append(
                    FieldError(
                        ("combatants", i, name),
                        f"group {c.group!r} rolls once for identical creatures (D5E-5): "
                        f"{name} differs from {first.id!r}'s",
                    )
                )
    if req.tie_break == "dexterity":
        for i, c in enumerate(req.combatants):
            if c.dexterity is None:
                errors.append(
                    FieldError(("combatants", i, "dexterity"), "tie_break dexterity needs it")
                )
    place_ids = {p.id: p for p in _places(req)}
    seen: set[str] = set()
    for i, tid in enumerate(req.tie_order):
        if tid in seen:
            errors.append(FieldError(("tie_order", i), f"{tid!r} is listed twice"))
        seen.add(tid)
        if tid not in place_ids:
            groups = [c.group for c in req.combatants if c.id == tid and c.group]
            hint = f"; it acts with group {groups[0]!r}: name the group" if groups else ""
            errors.append(FieldError(("tie_order", i), f"no combatant or group {tid!r}{hint}"))
    for i, c in enumerate(req.combatants):
        if c.surprised is not None or c.passive_perception is not None:
            continue
        opponents = [o for o in req.combatants if o.side != c.side]
        if opponents and all(o.hiding is not None for o in opponents):
            errors.append(
                FieldError(
                    ("combatants", i, "passive_perception"),
                    "every opponent hides: give its passive Perception (or `surprised`) (D5E-3)",
                )
            )
    if errors:
        raise InvalidRequest("; ".join(e.msg for e in errors[:5]), errors)


def _stealth(req: InitiativeRequest, dice: DiceSource, log: EventLog) -> dict[str, Stealth]:
    out: dict[str, Stealth] = {}
    for c in req.combatants:
        h = c.hiding
        if h is None:
            continue
        if h.stealth_mod is not None:
            r = roll_d20(dice, f"stealth.{c.id}", mode(h.advantage, h.disadvantage), h.stealth_mod)
            out[c.id] = {"d20s": r["d20s"], "total": r["total"]}
            log.add(
                "dnd5e.stealth.rolled",
                id=c.id,
                total=r["total"],
                d20s=r["d20s"],
                mode=r["mode"],
                modifier=r["modifier"],
            )
        else:
            assert h.stealth_total is not None
            out[c.id] = {"d20s": [], "total": h.stealth_total}
            log.add("dnd5e.stealth.given", id=c.id, total=h.stealth_total)
    return out


def _sighting(
    c: Combatant, hiders: list[Combatant], stealth: dict[str, Stealth], hidden_on_tie: bool
) -> tuple[list[str], list[str]]:
    """D5E-3: the hiders ``c`` notices and those it does not: a hider stays hidden when its
    Stealth total beats ``c``'s passive Perception (or meets it, with ties ``hidden``)."""
    noticed: list[str] = []
    unnoticed: list[str] = []
    passive = c.passive_perception
    if passive is not None:
        for h in hiders:
            total = stealth[h.id]["total"]
            hidden = total >= passive if hidden_on_tie else total > passive
            (unnoticed if hidden else noticed).append(h.id)
    return noticed, unnoticed


def _verdict(
    c: Combatant,
    opponents: int,
    hiders: int,
    noticed: list[str],
    unnoticed: list[str],
    *,
    log: EventLog,
) -> tuple[bool, SurpriseReason]:
    """D5E-3: the GM's ruling wins; else a creature is surprised only when every opponent hides
    and it notices none of them."""
    if c.surprised is not None:
        verdict = "surprised" if c.surprised else "not surprised"
        log.add("dnd5e.surprise.gm", id=c.id, verdict=verdict)
        return c.surprised, "gm"
    if not opponents:
        log.add("dnd5e.surprise.no_opponent", id=c.id)
        return False, "no_opponent"
    if hiders < opponents:
        log.add("dnd5e.surprise.in_view", id=c.id)
        return False, "no_hiding_opponent"
    passive = c.passive_perception
    if noticed:
        log.add(
            "dnd5e.surprise.noticed",
            id=c.id,
            passive=passive,
            noticed=_names(noticed),
            noticed_ids=noticed,
        )
        return False, "noticed"
    log.add(
        "dnd5e.surprise.unnoticed",
        id=c.id,
        passive=passive,
        unnoticed=_names(unnoticed),
        unnoticed_ids=unnoticed,
    )
    return True, "unnoticed"


def _surprise(
    req: InitiativeRequest, stealth: dict[str, Stealth], log: EventLog
) -> list[SurpriseVerdict]:
    """D5E-3: a creature noticing no threat is surprised; the GM's ruling wins. D5E-4: a surprised
    creature's first-round restrictions."""
    verdicts: list[SurpriseVerdict] = []
    hidden_on_tie = req.options.surprise_ties == "hidden"
    for c in req.combatants:
        opponents = [o for o in req.combatants if o.side != c.side]
        hiders = [o for o in opponents if o.hiding is not None]
        noticed, unnoticed = _sighting(c, hiders, stealth, hidden_on_tie)
        surprised, reason = _verdict(c, len(opponents), len(hiders), noticed, unnoticed, log=log)
        verdicts.append(
            {
                "id": c.id,
                "surprised": surprised,
                "reason": reason,
                "noticed": noticed,
                "unnoticed": unnoticed,
                "restrictions": (
                    ["no_move", "no_action", "no_reaction_until_turn_ends"] if surprised else []
                ),
            }
        )
    return verdicts


class _TieBreaker:
    def __init__(self, req: InitiativeRequest, dice: DiceSource, log: EventLog) -> None:
        self.req = req
        self.dice = dice
        self.log = log
        self.given = {tid: i for i, tid in enumerate(req.tie_order)}

    def order(self, tied: list[_Place], total: int) -> list[_Place]:
        ids = [p.id for p in tied]
        self.log.add("dnd5e.initiative.tie", total=total, ids=_names(ids), tied=ids)
        if self.req.tie_break == "given":
            missing = [p.id for p in tied if p.id not in self.given]
            if missing:
                raise InvalidRequest.at(
                    ("tie_order",),
                    f"{', '.join(ids)} tie at {total}: tie_order must list {', '.join(missing)}",
                )
            ordered = sorted(tied, key=lambda p: self.given[p.id])
            self.log.add(
                "dnd5e.tiebreak.given",
                total=total,
                ids=_names([p.id for p in ordered]),
                ordered=[p.id for p in ordered],
            )
            return ordered
        if self.req.tie_break == "dexterity":
            ordered = sorted(tied, key=lambda p: -(p.first.dexterity or 0))
            self.log.add(
                "dnd5e.tiebreak.dexterity",
                total=total,
                ids=_names([p.id for p in ordered]),
                ordered=[p.id for p in ordered],
            )
            runs = _runs(ordered, lambda p: p.first.dexterity or 0)
            return [p for run in runs for p in self.by_d20(run)]
        return self.by_d20(tied)

    def by_d20(self, tied: list[_Place]) -> list[_Place]:
        """D5E-7's optional rule: each tied place rolls a d20, highest first; repeat while tied.

        Round by round (no recursion): in each round every place still tied rolls, clusters from
        the highest down, each in its current order (request order among equal rolls).
        """
        segments = [tied]
        rounds = 0
        while any(len(seg) > 1 for seg in segments):
            rounds += 1
            if rounds > MAX_ATTEMPTS:
                ids = ", ".join(p.id for seg in segments if len(seg) > 1 for p in seg)
                raise LimitExceeded(
                    f"{ids} still tied after {MAX_ATTEMPTS} rounds of tie-break rolls",
                    [FieldError(("dice",), "the tie-break rolls never separate the tie")],
                )
            split: list[list[_Place]] = []
            for seg in segments:
                if len(seg) == 1:
                    split.append(seg)
                    continue
                for p in seg:
                    value = self.dice.roll(f"tiebreak.{p.id}", D20)
                    p.tiebreak.append(value)
                    self.log.add("dnd5e.tiebreak.rolled", id=p.id, value=value)
                ordered = sorted(seg, key=lambda p: -p.tiebreak[-1])  # stable
                split.extend(_runs(ordered, lambda p: p.tiebreak[-1]))
            segments = split
        return [p for seg in segments for p in seg]


def _names(ids: list[str]) -> str:
    return ", ".join(ids)


def _runs(ordered: list[_Place], key: Callable[[_Place], int]) -> list[list[_Place]]:
    runs: list[list[_Place]] = []
    for p in ordered:
        if runs and key(runs[-1][0]) == key(p):
            runs[-1].append(p)
        else:
            runs.append([p])
    return runs


def _roll(req: InitiativeRequest, dice: DiceSource, log: EventLog) -> list[_Place]:
    """D5E-5: one Dexterity check per place (a lone combatant, or a group of identical creatures
    acting together): d20 + Dexterity modifier + initiative bonus, in order of first appearance."""
    places = _places(req)
    for p in places:
        c = p.first
        roll = roll_d20(
            dice,
            f"initiative.{p.id}",
            mode(c.advantage, c.disadvantage),
            c.dex_mod + c.initiative_bonus,
        )
        p.roll = roll
        log.add(
            "dnd5e.initiative.rolled",
            id=p.id,
            total=roll["total"],
            d20s=roll["d20s"],
            mode=roll["mode"],
            modifier=roll["modifier"],
            members=_names(p.members),
            member_ids=p.members,
        )
    return places


def _order(
    req: InitiativeRequest, places: list[_Place], dice: DiceSource, log: EventLog
) -> list[OrderEntry]:
    """D5E-6: highest total first, the same every round; D5E-7: ties by ``tie_break``."""
    by_total = sorted(places, key=lambda p: -p.total)  # stable: request order within a total
    breaker = _TieBreaker(req, dice, log)
    ordered: list[_Place] = []
    for run in _runs(by_total, lambda p: p.total):
        ordered.extend(breaker.order(run, run[0].total) if len(run) > 1 else run)
    log.add(
        "dnd5e.initiative.order",
        order=_names([p.id for p in ordered]),
        ordered=[p.id for p in ordered],
    )
    return [
        {
            "id": p.id,
            "members": p.members,
            "group": p.group,
            "total": p.total,
            "roll": p.roll,
            "dexterity": p.first.dexterity,
            "tiebreak": p.tiebreak,
        }
        for p in ordered
        if p.roll is not None
    ]


def initiative(req: InitiativeRequest, dice: DiceSource) -> InitiativeResult:
    """Surprise (D5E-3/4), then initiative (D5E-5), the order (D5E-6) and its ties (D5E-7)."""
    _validate(req)
    log = EventLog(SENTENCES)
    stealth = _stealth(req, dice, log)
    verdicts = _surprise(req, stealth, log)
    order = _order(req, _roll(req, dice, log), dice, log)
    return {
        **foundry_trace(dice, log),
        "round_seconds": ROUND_SECONDS,
        "order": order,
        "surprised": [v["id"] for v in verdicts if v["surprised"]],
        "surprise": verdicts,
        "stealth": stealth,
    }
