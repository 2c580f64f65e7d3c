"""A whole DoS combat turn (DOS-14..29): actions, initiative, every declared action in order.

Slots, for combatant ``<id>`` whose declared actions are numbered n = 1, 2 ... in declaration
order (an attack with ``count: 3`` takes three numbers; step, grab, break_free, push and
feint_push one each; run and wait none):

- ``initiative.<id>`` (d10): the initiative die, then tie-break rerolls (when no ``order`` is given);
- ``<id>.<n>.attack``, ``<id>.<n>.defense``, ``<id>.<n>.run_stop``, ``<id>.<n>.location``,
  ``<id>.<n>.damage`` (d10): attack n, as in ``/dos/attack`` (the defense is the target's);
- ``<id>.<n>.a``, ``<id>.<n>.b`` (d10): maneuver n, as in ``/dos/maneuver`` (b is the target).

The numbering is fixed by the declarations, not by what happens, so a script for ``k1.3.attack``
always means k1's third declared action.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource, SlotSpec
from rules.dos.combat import (
    ATTACK_SLOTS,
    actions_per_turn,
    attack_core,
    check_first,
    check_ids,
    check_refs,
    choose_defense,
    maneuver_core,
    raise_if,
    roll_initiative,
)
from rules.dos.models import (
    ActionsEntry,
    Attacker,
    CombatantState,
    DamageOptions,
    Declaration,
    Defender,
    InitiativeEntry,
    ManeuverKind,
    ManeuverSide,
    SkillName,
    TurnAction,
    TurnCombatant,
    TurnRequest,
    TurnResult,
)
from rules.dos.pool import D10
from rules.dos.sentences import SENTENCES
from rules.errors import FieldError, LimitExceeded
from rules.events import EventLog, trace
from rules.models import MAX_ATTEMPTS

MANEUVERS: tuple[ManeuverKind, ...] = ("grab", "break_free", "push", "feint_push")
TARGETED = ("attack", *MANEUVERS)
ALONE = ("run", "wait")
SKILL_OF_WEAPON = {
    "unarmed": "unarmed",
    "melee": "weapon",
    "thrown": "thrown",
    "shooting": "shooting",
}


def cost(d: Declaration) -> int:
    """Actions a declaration spends (run spends all and is declared alone; wait spends none)."""
    if d.action == "attack":
        return d.count
    if d.action in ALONE:
        return 0
    return 1


def numbering(c: TurnCombatant) -> list[int]:
    """The first action number n of each declaration (see the module docstring)."""
    n, firsts = 1, []
    for d in c.declare:
        firsts.append(n)
        n += cost(d)
    return firsts


def turn_slots(req: TurnRequest) -> SlotSpec:
    declared = sum(cost(d) for c in req.combatants for d in c.declare)
    if declared > MAX_ATTEMPTS:
        raise LimitExceeded(
            f"the turn declares {declared} actions in all; at most {MAX_ATTEMPTS} per request",
            [FieldError(("combatants",), f"{declared} actions declared, limit {MAX_ATTEMPTS}")],
        )
    spec: dict[str, int | None] = {}
    if req.order is None:
        placed = set(req.first)
        spec.update({f"initiative.{c.id}": D10 for c in req.combatants if c.id not in placed})
    for c in req.combatants:
        for d, first in zip(c.declare, numbering(c), strict=True):
            for n in range(first, first + cost(d)):
                if d.action == "attack":
                    spec.update({f"{c.id}.{n}.{s}": D10 for s in ATTACK_SLOTS})
                elif d.action in MANEUVERS:
                    spec.update({f"{c.id}.{n}.a": D10, f"{c.id}.{n}.b": D10})
    return spec


@dataclass
class _Live:
    """A combatant's working state during the turn."""

    c: TurnCombatant
    actions: int
    state: Defender
    actions_used: int = 0
    moved: int = 0
    waited: bool = False


def _opponents(req: TurnRequest, c: TurnCombatant) -> list[str]:
    if c.opponents is not None:
        return list(c.opponents)
    return [o.id for o in req.combatants if o.side != c.side and not o.incapacitated]


def _validate(req: TurnRequest, actions: dict[str, int], opp_speed: dict[str, int]) -> None:
    errors = check_ids([c.id for c in req.combatants], "combatants")
    known = {c.id for c in req.combatants}
    by_id = {c.id: c for c in req.combatants}
    for i, c in enumerate(req.combatants):
        if c.opponents is not None:
            errors += check_refs(
                c.opponents, known, ("combatants", i, "opponents"), c.id, "opponent"
            )
    if req.order is not None:
        errors += check_refs(req.order, known, ("order",), None, "id in order")
        missing = [c.id for c in req.combatants if c.id not in set(req.order)]
        if missing:
            errors.append(
                FieldError(("order",), f"order must list every combatant; missing: {missing}")
            )
        if req.first:
            errors.append(
                FieldError(("first",), "give `first` only when initiative is rolled (no `order`)")
            )
    else:
        errors += check_first(req.first, known, ("first",))
    if errors:
        raise_if(errors)  # the declarations' checks below need known, unique ids

    for i, c in enumerate(req.combatants):
        who = f"combatant '{c.id}'"
        at = ("combatants", i)
        if c.defense == "dodge" and c.skills.dodge == 0:
            errors.append(
                FieldError((*at, "defense"), f"{who}: defense `dodge` with dodge skill 0 (DOS-18)")
            )
        steps = 0
        for j, d in enumerate(c.declare):
            loc = (*at, "declare", j)
            what = f"{who}: declare[{j}] ({d.action})"
            if d.action in TARGETED:
                if d.target is None:
                    errors.append(FieldError((*loc, "target"), f"{what} needs a `target`"))
                elif d.target not in known:
                    errors.append(
                        FieldError((*loc, "target"), f"{what}: '{d.target}' is not a combatant")
                    )
                elif d.target == c.id:
                    errors.append(FieldError((*loc, "target"), f"{what} cannot target itself"))
            elif d.target is not None:
                errors.append(FieldError((*loc, "target"), f"{what} takes no `target`"))
            if d.action != "attack":
                for field in ("aim", "ranged", "defense"):
                    if getattr(d, field) is not None:
                        errors.append(
                            FieldError((*loc, field), f"{what}: `{field}` is for attacks")
                        )
                if d.count != 1:
                    errors.append(FieldError((*loc, "count"), f"{what}: `count` is for attacks"))
            else:
                ranged = c.weapon.ranged
                if ranged and d.ranged is None:
                    errors.append(
                        FieldError(
                            (*loc, "ranged"),
                            f"{what}: a {c.weapon.kind} weapon attacks at range: give `ranged: {{dc}}`",
                        )
                    )
                if not ranged and d.ranged is not None:
                    errors.append(
                        FieldError(
                            (*loc, "ranged"), f"{what}: `ranged` needs a thrown or shooting weapon"
                        )
                    )
                if d.defense == "dodge" and d.target in by_id and by_id[d.target].skills.dodge == 0:
                    errors.append(
                        FieldError(
                            (*loc, "defense"),
                            f"{what}: '{d.target}' has dodge skill 0 and so no dodge (DOS-18)",
                        )
                    )
            if d.action in ALONE and len(c.declare) > 1:
                errors.append(
                    FieldError((*loc, "action"), f"{what}: {d.action} must be declared alone")
                )
            if d.action == "step":
                steps += 1
                if steps > 1:
                    errors.append(
                        FieldError((*loc, "action"), f"{what}: one step per turn (DOS-23)")
                    )
                if d.metres is not None and d.metres > c.speed // 4:
                    errors.append(
                        FieldError(
                            (*loc, "metres"),
                            f"{what}: at most floor(speed / 4) = {c.speed // 4} metres (DOS-23)",
                        )
                    )
            elif d.metres is not None:
                errors.append(FieldError((*loc, "metres"), f"{what}: `metres` is for a step"))
        spent = sum(cost(d) for d in c.declare)
        if spent > actions[c.id]:
            errors.append(
                FieldError(
                    (*at, "declare"),
                    f"{who} declares {spent} actions but has {actions[c.id]} this turn "
                    f"(speed {c.speed} against opponents' {opp_speed[c.id]}, DOS-14)",
                )
            )
    raise_if(errors)


def turn(req: TurnRequest, dice: DiceSource) -> TurnResult:
    """Resolve one combat turn: everyone's actions in initiative order (DOS-14..29)."""
    opp_speed: dict[str, int] = {}
    actions: dict[str, int] = {}
    opponents: dict[str, list[str]] = {}
    speeds = {c.id: c.speed for c in req.combatants}
    for c in req.combatants:
        opponents[c.id] = [o for o in _opponents(req, c) if o in speeds]
        opp_speed[c.id] = sum(speeds[o] for o in opponents[c.id])
        actions[c.id] = actions_per_turn(c.speed, opp_speed[c.id])
    _validate(req, actions, opp_speed)

    log = EventLog(SENTENCES)
    for c in req.combatants:
        log.add(
            "dos.actions.count",
            id=c.id,
            speed=c.speed,
            opponents=opponents[c.id],
            opponents_speed=opp_speed[c.id],
            actions=actions[c.id],
        )
    entries: list[InitiativeEntry] | None = None
    if req.order is not None:
        order = list(req.order)
        log.add("dos.initiative.order", order=order)
    else:
        order, entries = roll_initiative(
            dice, log, [(c.id, c.speed) for c in req.combatants], req.first
        )

    live: dict[str, _Live] = {}
    for c in req.combatants:
        runs = any(d.action == "run" for d in c.declare)
        live[c.id] = _Live(
            c=c,
            actions=actions[c.id],
            state=Defender(
                hp=c.hp,
                max_hp=c.max_hp,
                incapacitated=c.incapacitated,
                critical=c.critical,
                beaten=c.beaten,
                dexterity=c.dexterity,
                block=c.skills.block,
                dodge=c.skills.dodge,
                armor=c.armor,
                running=runs and not c.incapacitated,
            ),
        )

    results: list[TurnAction] = []
    for id_ in order:
        me = live[id_]
        c = me.c
        if me.state.incapacitated:
            log.add("dos.turn.incapacitated", id=id_)
            results += [
                TurnAction(
                    actor=id_, n=None, action=d.action, target=d.target, skipped="incapacitated"
                )
                for d in c.declare
            ]
            continue
        if me.state.stopped:
            log.add("dos.turn.stopped", id=id_)
            results.append(TurnAction(actor=id_, n=None, action="run", skipped="stopped"))
            continue
        log.add("dos.turn.begins", id=id_, actions=me.actions)
        for d, first in zip(c.declare, numbering(c), strict=True):
            if d.action == "attack":
                results += _attacks(dice, log, me, live, d, first=first, options=req.options)
            elif d.action in MANEUVERS:
                results.append(_maneuver(dice, log, me, live, d, n=first))
            elif d.action == "run":
                me.moved = c.speed
                me.actions_used = me.actions
                log.add("dos.turn.run", id=id_, metres=c.speed)
                results.append(TurnAction(actor=id_, n=None, action="run", metres=c.speed))
            elif d.action == "step":
                most = c.speed // 4
                metres = most if d.metres is None else d.metres
                me.moved += metres
                me.actions_used += 1
                log.add("dos.turn.step", id=id_, metres=metres, max_metres=most)
                results.append(TurnAction(actor=id_, n=first, action="step", metres=metres))
            else:  # wait
                me.waited = True
                log.add("dos.turn.wait", id=id_)
                results.append(TurnAction(actor=id_, n=None, action="wait"))

    position = {id_: p for p, id_ in enumerate(order, start=1)}
    states = [
        CombatantState(
            id=c.id,
            actions=me.actions,
            actions_used=me.actions_used,
            initiative=position[c.id],
            hp=me.state.hp,
            max_hp=me.state.max_hp,
            incapacitated=me.state.incapacitated,
            critical=me.state.critical,
            beaten=me.state.beaten,
            blocks_used=me.state.blocks_used,
            dodges_used=me.state.dodges_used,
            running=me.state.running,
            stopped=me.state.stopped,
            moved=me.moved,
            waited=me.waited,
        )
        for c in req.combatants
        for me in (live[c.id],)
    ]
    return TurnResult(
        order=order,
        initiative=entries,
        actions=[
            ActionsEntry(id=c.id, actions=actions[c.id], opponents_speed=opp_speed[c.id])
            for c in req.combatants
        ],
        results=results,
        combatants=states,
        **trace(dice, log),
    )


def _attacks(
    dice: DiceSource,
    log: EventLog,
    me: _Live,
    live: dict[str, _Live],
    d: Declaration,
    *,
    first: int,
    options: DamageOptions,
) -> list[TurnAction]:
    c = me.c
    assert d.target is not None  # validated
    tgt = live[d.target]
    skill: str = SKILL_OF_WEAPON[c.weapon.kind]
    attacker = Attacker(
        dexterity=c.dexterity,
        strength=c.strength,
        skill=getattr(c.skills, skill),
        weapon=c.weapon,
    )
    out: list[TurnAction] = []
    for k in range(d.count):
        n = first + k
        if tgt.state.incapacitated and d.stop_when_down:
            log.add("dos.turn.target_down", id=c.id, target=d.target, skipped=d.count - k)
            out += [
                TurnAction(
                    actor=c.id,
                    n=first + m,
                    action="attack",
                    target=d.target,
                    skipped="target_incapacitated",
                )
                for m in range(k, d.count)
            ]
            break
        choice = d.defense or (tgt.c.defense if not c.weapon.ranged else "none")
        kind = choose_defense(choice, tgt.state, c.weapon.ranged, None)
        part, changes = attack_core(
            dice,
            log,
            prefix=f"{c.id}.{n}",
            names=(c.id, d.target),
            attacker=attacker,
            percent=d.percent,
            defender=tgt.state,
            defense=kind,
            defense_percent=d.defense_percent,
            ranged=d.ranged,
            aim=d.aim,
            options=options,
        )
        if changes:
            tgt.state = tgt.state.model_copy(update=changes)
        me.actions_used += 1
        out.append(TurnAction(actor=c.id, n=n, action="attack", target=d.target, attack=part))
    return out


def _side(c: TurnCombatant, kind: ManeuverKind, d: Declaration | None) -> ManeuverSide:
    skill: SkillName | None = None
    if kind == "push" and c.weapon.kind == "melee":
        skill = "weapon"  # DOS-25: strength + weapon combat for an armed pusher
    return ManeuverSide(
        dexterity=c.dexterity,
        strength=c.strength,
        unarmed=c.skills.unarmed,
        weapon=c.skills.weapon,
        dodge=c.skills.dodge,
        skill=skill,
        difficulty=d.difficulty if d else None,
        modifier_percent=d.modifier_percent if d else None,
    )


def _maneuver(
    dice: DiceSource, log: EventLog, me: _Live, live: dict[str, _Live], d: Declaration, *, n: int
) -> TurnAction:
    assert d.target is not None  # validated
    kind: ManeuverKind = d.action  # type: ignore[assignment]  # one of MANEUVERS here
    tgt = live[d.target]
    part = maneuver_core(
        dice,
        log,
        prefix=f"{me.c.id}.{n}",
        kind=kind,
        sides=(_side(me.c, kind, d), _side(tgt.c, kind, None)),
        names=(me.c.id, d.target),
    )
    me.actions_used += 1
    return TurnAction(actor=me.c.id, n=n, action=kind, target=d.target, maneuver=part)
