"""One round of a dragon's violent conflict (rules/dragon.md, DRG-1..17).

``battle(req, dice)`` checks the situation, forms the pairs in strength order (DRG-2, DRG-3), rolls
every pool (DRG-5..8), resolves the dragon's pair first (with the dragon-die sweep, DRG-11) and then
the others (DRG-9, DRG-10), applies the consequences (DRG-12..15), counts the hoard (DRG-17) and
returns the state to send for the next round (DRG-16).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.dice import DiceSource, SlotSpec
from rules.dragon.models import (
    DRAGON,
    BattleRequest,
    BattleResult,
    Change,
    Defeat,
    Entity,
    Hoard,
    LeftOverParty,
    NextState,
    Pair,
    Pool,
    ProsperityChange,
    Reason,
    Side,
    SlayerRevealed,
    SweepDetail,
    SweepStep,
)
from rules.dragon.sentences import SENTENCES
from rules.dragon.tables import (
    CHANGE_SCALE,
    DRAGON_DICE,
    DRAGON_DIE,
    change_level,
    ladder_die,
    step_up,
)
from rules.errors import FieldError, IllegalDecision, InvalidRequest, LimitExceeded
from rules.events import EventLog, trace
from rules.models import MAX_ATTEMPTS, MAX_COMBATANTS, MAX_STAT

_ID_MAX = 64


def entity_die(e: Entity) -> int:
    """DRG-T3: the entity's die, from ``die`` outright or from its level and features."""
    return e.die if e.die is not None else ladder_die(e.level, e.level_features)


def battle_slots(req: BattleRequest) -> SlotSpec:
    """Every slot the request may draw from: ``pool.dragon``, ``dragon_die``, ``pool.<id>``,
    ``slayer.<id>`` (an individual dragonslayer's extra die)."""
    slots: dict[str, int | None] = {"pool.dragon": DRAGON_DICE[req.dragon.age]}
    if req.dragon.dragon_die:
        slots["dragon_die"] = DRAGON_DIE[req.dragon.age]
    for e in req.entities:
        if e.aside:
            continue
        sides = entity_die(e)
        pool = "pool." + e.id
        # Two entities with one id are refused by the resolver; the slot's size is then unknown.
        slots[pool] = sides if slots.get(pool, sides) == sides else None
        if e.dragonslayer and e.kind == "individual":
            slayer = f"slayer.{e.id}"
            extra = step_up(sides)
            slots[slayer] = extra if slots.get(slayer, extra) == extra else None
    return slots


# ---------------------------------------------------------------- checks


def check(req: BattleRequest) -> dict[str, Entity]:
    """Refuse a situation that does not hold together (ids, targets, joins, parents).

    Returns the entities by id (each id once, checked).
    """
    d = req.dragon
    if d.wounds >= d.battle:
        raise IllegalDecision(
            f"the dragon has {d.wounds} wounds against battle {d.battle}: it is "
            "defeated and may not go on (DRG-15)",
            [FieldError(("dragon", "wounds"), "wounds >= battle: the dragon is defeated (DRG-15)")],
        )
    if req.continues and req.round >= MAX_ATTEMPTS:
        raise LimitExceeded(
            f"round {req.round}: a battle lasts at most {MAX_ATTEMPTS} rounds",
            [FieldError(("continues",), f"a battle lasts at most {MAX_ATTEMPTS} rounds")],
        )
    entities = req.entities
    # The errors come in this order: ids, the location, parents and minorities, parent cycles,
    # the dragon's target, then each entity's target and join.
    errors: list[FieldError] = []
    by_id: dict[str, Entity] = {}  # the first entity of each id
    for i, e in enumerate(entities):
        if e.id == DRAGON:
            errors.append(
                FieldError(("entities", i, "id"), "the id `dragon` names the dragon; rename it")
            )
        elif e.id in by_id:
            first = next(j for j, x in enumerate(entities) if x.id == e.id)
            errors.append(
                FieldError(
                    ("entities", i, "id"),
                    f"entity {e.id!r} appears twice (entities[{first}] and entities[{i}])",
                )
            )
        else:
            by_id[e.id] = e
    if req.location is not None and req.location.id == DRAGON:
        errors.append(FieldError(("location", "id"), "the id `dragon` names the dragon"))

    later: list[FieldError] = []  # targets and joins, reported after the cycles
    has_parent = False
    for i, e in enumerate(entities):
        if e.parent is not None:
            has_parent = True
            if e.parent == e.id:
                errors.append(
                    FieldError(("entities", i, "parent"), f"{e.id!r} cannot be its own parent")
                )
            elif e.parent not in by_id:
                errors.append(
                    FieldError(
                        ("entities", i, "parent"),
                        f"{e.id!r}: parent {e.parent!r} is not an entity of the request",
                    )
                )
        if e.slayer_prosperity is not None:
            if e.kind != "group":
                errors.append(
                    FieldError(
                        ("entities", i, "slayer_prosperity"),
                        f"{e.id!r} is an individual: it becomes the dragonslayer itself (DRG-14)",
                    )
                )
            elif e.slayer_prosperity > e.prosperity:
                errors.append(
                    FieldError(
                        ("entities", i, "slayer_prosperity"),
                        f"{e.id!r}: the dragonslayer minority's prosperity is 0 .. the group's "
                        f"({e.prosperity}), not {e.slayer_prosperity} (DRG-14)",
                    )
                )
        if e.aside:
            continue
        if e.target is not None:
            msg = _target_error(e, e.target, by_id)
            if msg is not None:
                later.append(FieldError(("entities", i, "target"), msg))
        if e.if_left_over.startswith("join:"):
            msg = _join_error(e, e.if_left_over[5:], by_id)
            if msg is not None:
                later.append(FieldError(("entities", i, "if_left_over"), msg))
    if has_parent:
        errors.extend(_cycles(entities, by_id))

    t = by_id.get(d.target)
    if t is None or t.aside or t.controller != "gm":
        why = (
            "is not an entity of the request"
            if t is None
            else "stands aside (DRG-4)"
            if t.aside
            else "is the player's own (subjugated) entity"
        )
        errors.append(
            FieldError(
                ("dragon", "target"),
                f"the dragon's target {d.target!r} {why}: it must be a free (gm) entity "
                "taking part in the battle",
            )
        )
    errors += later
    if errors:
        raise InvalidRequest("; ".join(err.msg for err in errors[:5]), errors)
    return by_id


def _target_error(e: Entity, target: str, by_id: dict[str, Entity]) -> str | None:
    # `controller` is `player` or `gm`: it names the entity's side.
    if target == DRAGON:
        if e.controller == "player":
            return f"{e.id!r} is the player's (subjugated) entity: it cannot attack the dragon"
        return None
    if target == e.id:
        return f"{e.id!r} cannot target itself"
    t = by_id.get(target)
    if t is None:
        return f"{e.id!r}: target {target!r} is not in the battle (no such entity)"
    if t.aside:
        return f"{e.id!r}: target {target!r} is not in the battle (it stands aside, DRG-4)"
    if t.controller == e.controller:
        return f"{e.id!r}: target {target!r} is its ally; a target is on the other side"
    return None


def _join_error(e: Entity, ally: str, by_id: dict[str, Entity]) -> str | None:
    if ally == e.id:
        return f"{e.id!r} cannot join itself"
    if ally == DRAGON:
        if e.controller != "player":
            return f"{e.id!r} is a free (gm) entity: the dragon is not its ally"
        return None
    a = by_id.get(ally)
    if a is None:
        return f"{e.id!r} would join {ally!r}, which is not an entity of the request"
    if a.aside:
        return f"{e.id!r} would join {ally!r}, which stands aside (DRG-4)"
    if a.controller != e.controller:
        return f"{e.id!r} would join {ally!r}, which is not its ally (the other side)"
    return None


def _cycles(entities: list[Entity], by_id: dict[str, Entity]) -> list[FieldError]:
    errors: list[FieldError] = []
    index = {e.id: i for i, e in reversed(list(enumerate(entities)))}
    reported: set[str] = set()
    for e in entities:
        seen = [e.id]
        cur = e.parent
        while cur is not None and cur in by_id and cur != seen[-1]:
            if cur in seen:
                cycle = seen[seen.index(cur) :]
                if not reported.intersection(cycle):
                    reported.update(cycle)
                    start = min(cycle, key=lambda x: index[x])
                    errors.append(
                        FieldError(
                            ("entities", index[start], "parent"),
                            "parents form a cycle: " + " -> ".join([*cycle, cur]),
                        )
                    )
                break
            seen.append(cur)
            cur = by_id[cur].parent
    return errors


# ---------------------------------------------------------------- the round


def battle(req: BattleRequest, dice: DiceSource) -> BattleResult:
    """Resolve one round (DRG-1..17); dice in slots ``pool.dragon``, ``dragon_die``,
    ``pool.<id>``, ``slayer.<id>``.

    Working state is plain dicts and lists; the request-shaped ``next_state`` is built once, at
    the end.
    """
    by_id = check(req)
    log = EventLog(SENTENCES)
    d = req.dragon
    entities = req.entities
    # Request fields are read through pydantic's attribute hook: each once where it is used often.
    index: dict[str, int] = {}
    prosperity: dict[str, int] = {}
    for i, e in enumerate(entities):
        eid = e.id
        index[eid] = i
        prosperity[eid] = e.prosperity
    changes: list[ProsperityChange] = []

    def lose(eid: str, amount: int, reason: Reason) -> None:
        before = prosperity[eid]
        after = max(0, before - amount)
        prosperity[eid] = after
        changes.append(
            {"id": eid, "what": "entity", "before": before, "after": after, "reason": reason}
        )
        log.add(
            "dragon.prosperity.lost",
            id=eid,
            loss=before - after,
            before=before,
            after=after,
            reason=reason,
        )

    # DRG-2: strength order (prosperity, free entities first, then request order), then pairs.
    taking_part: list[Entity] = []
    for e in entities:
        if e.aside:
            log.add("dragon.aside", id=e.id)
        else:
            taking_part.append(e)
    # Sorted as plain tuples (no key function to call); the index keeps equal keys in request order.
    ranked = sorted([(-e.prosperity, e.controller != "gm", i) for i, e in enumerate(taking_part)])
    ordered = [taking_part[i] for _, _, i in ranked]
    order = [DRAGON]
    target_of: dict[str, str | None] = {DRAGON: d.target}
    for e in ordered:
        eid = e.id
        order.append(eid)
        target_of[eid] = e.target
    log.add("dragon.order", order=order, names=", ".join(order))
    paired: dict[str, int] = {}
    pair_ids: list[tuple[str, str]] = []
    left: list[str] = []
    for p in order:
        if p in paired:
            continue
        t = target_of[p]
        if t is not None and t not in paired:
            paired[p] = paired[t] = len(pair_ids)
            pair_ids.append((p, t))
            log.add("dragon.pair.formed", a=p, b=t)
        else:
            left.append(p)
    # A party passed over at its turn may still be taken as a weaker party's target (its target is
    # "still unpaired"): it then fights in that pair and is not left over (DRG-2, DRG-3).
    left = [p for p in left if p not in paired]

    # DRG-3: the left-over parties.
    joined: dict[str, list[str]] = {}
    left_over = [_left_over(by_id[p], target_of[p], paired, joined, log) for p in left]
    if joined:
        joiners = {p for js in joined.values() for p in js}
        in_battle = [p for p in order if p in paired or p in joiners]
    else:
        in_battle = [p for p in order if p in paired]

    # DRG-5..8: every pool, pair by pair, each member before the parties joined to it.
    pools: list[Pool] = []
    own: dict[str, list[int]] = {}  # each party's dice, every pool of it

    def roll(owner: str, slot: str, sides: int, count: int) -> list[int]:
        values = dice.roll_many(slot, sides, count)
        pools.append({"owner": owner, "slot": slot, "sides": sides, "dice": values})
        log.add("dragon.pool.rolled", owner=owner, slot=slot, count=count, sides=sides, dice=values)
        # A party that joined an ally and was then taken as a target rolls twice: both count.
        own[owner] = [*own[owner], *values] if owner in own else values
        return values

    dragon_die: int | None = None
    for a, b in pair_ids:
        for member in (a, b):
            for p in (member, *joined[member]) if member in joined else (member,):
                if p == DRAGON:
                    roll(p, "pool.dragon", DRAGON_DICE[d.age], d.battle + d.features_used)
                    if d.dragon_die:
                        dragon_die = roll(p, "dragon_die", DRAGON_DIE[d.age], 1)[0]
                    continue
                e = by_id[p]
                count = e.prosperity
                if count == 0:
                    # DRG-5: nothing at all, a dragonslayer's extra die included.
                    own.setdefault(p, [])
                    log.add("dragon.pool.empty", owner=p)
                    continue
                sides = entity_die(e)
                roll(p, "pool." + p, sides, count)
                if e.dragonslayer and e.kind == "individual":
                    roll(p, "slayer." + p, step_up(sides), 1)

    pair_sides = [(_side(a, joined, own), _side(b, joined, own)) for a, b in pair_ids]

    def highest(p: str) -> int:
        values = own[p]
        return max(values) if values else 0

    # DRG-11: the dragon-die sweep, decided on the dragon's pair (always the first).
    sweep: list[str] = []
    sweep_detail: SweepDetail | None = None
    b0 = pair_ids[0][1]
    if dragon_die is not None:
        candidates = sorted(
            (p for p in in_battle if p not in (DRAGON, b0)),
            key=lambda p: (by_id[p].prosperity, index[p]),
        )
        sweep_detail = _sweep(
            dragon_die,
            dragon_side=pair_sides[0][0],
            opponent=b0,
            opponent_side=pair_sides[0][1],
            candidates=candidates,
            highest=highest,
            log=log,
        )
        added = [s["id"] for s in sweep_detail["steps"] if s["added"]]
        if added:
            sweep = [b0, *added]

    # DRG-9, DRG-10, DRG-12, DRG-14: the pairs.
    defeated: list[Defeat] = []
    revealed: list[SlayerRevealed] = []
    new_entities: dict[str, Entity] = {}
    slayers_individual: set[str] = set()
    slayer_now: set[str] = {e.id for e in entities if e.dragonslayer}
    gained = 0
    dragon_won = False
    swept_pairs: set[int] = set()
    if sweep:
        swept = sweep[1:]
        swept_pairs = {paired[p] for p in swept if p in paired} | {
            paired[ally] for ally, js in joined.items() for p in js if p in swept
        }
        swept_pairs.discard(0)
    pairs: list[Pair] = []
    for n, (a, b) in enumerate(pair_ids):
        sa, sb = pair_sides[n]
        if n == 0 and sweep:
            dragon_won = True
            for p in sweep:
                h = sb["highest"] if p == b0 else highest(p)
                s = len([v for v in sa["dice"] if v > h])
                defeated.append({"id": p, "successes": s})
                lose(p, s, "swept")
            succ = defeated[0]["successes"]
            pairs.append(
                {
                    "a": a, "b": b, "a_side": sa, "b_side": sb, "resolved": True,
                    "winner": DRAGON, "loser": b, "successes": succ, "interrupted": False,
                    "swept": True,
                }
            )  # fmt: skip
            continue
        if n in swept_pairs:
            gone = [
                p for p in sweep if paired.get(p) == n or p in joined.get(a, []) + joined.get(b, [])
            ]
            log.add("dragon.pair.unresolved", a=a, b=b, swept=gone, names=", ".join(gone))
            pairs.append(
                {
                    "a": a, "b": b, "a_side": sa, "b_side": sb, "resolved": False,
                    "winner": None, "loser": None, "successes": 0, "interrupted": False,
                    "swept": False,
                }
            )  # fmt: skip
            continue
        if sa["highest"] == sb["highest"]:
            log.add("dragon.pair.interrupted", a=a, b=b, highest=sa["highest"])
            pairs.append(
                {
                    "a": a, "b": b, "a_side": sa, "b_side": sb, "resolved": True,
                    "winner": None, "loser": None, "successes": 0, "interrupted": True,
                    "swept": False,
                }
            )  # fmt: skip
            continue
        win, loser, sw, sl = (a, b, sa, sb) if sa["highest"] > sb["highest"] else (b, a, sb, sa)
        bar = sl["highest"]
        succ = len([v for v in sw["dice"] if v > bar])
        log.add(
            "dragon.pair.won",
            winner=win,
            loser=loser,
            winner_highest=sw["highest"],
            loser_highest=bar,
            successes=succ,
        )
        pairs.append(
            {
                "a": a, "b": b, "a_side": sa, "b_side": sb, "resolved": True, "winner": win,
                "loser": loser, "successes": succ, "interrupted": False, "swept": False,
            }
        )  # fmt: skip
        if loser == DRAGON:
            gained += 1
            log.add("dragon.wound", slayer=win, wounds=d.wounds + gained, battle=d.battle)
            rev = _reveal(by_id[win], req, log, slayers_individual, new_entities)
            if rev is not None:
                revealed.append(rev)
            slayer_now.add(win)
        else:
            if win == DRAGON:
                dragon_won = True
                defeated.append({"id": loser, "successes": succ})
            lose(loser, succ, "lost_pair")

    # DRG-12: the player's change when the dragon won.
    dragon_changes: list[Change] = []
    if dragon_won:
        best = pair_sides[0][0]["highest"]
        lvl = change_level(best)
        scale = None if lvl is None else CHANGE_SCALE[lvl]
        dragon_changes.append(
            {
                "by": "player",
                "result": best,
                "level": lvl,
                "scale": scale,
                "against": [x["id"] for x in defeated],
            }
        )
        log.add(
            "dragon.change.player" if lvl is not None else "dragon.change.none",
            result=best,
            level=lvl,
            scale=scale,
        )

    # DRG-13: the dragon die's collateral damage and the destruction change.
    destruction: Change | None = None
    location = req.location
    location_prosperity = None if location is None else location.prosperity
    if dragon_die is not None:
        for e in taking_part:
            lose(e.id, 1, "dragon_die")
        if location is not None:
            if location.id in by_id and not by_id[location.id].aside:
                log.add("dragon.location.party", id=location.id)
            else:
                before = location.prosperity
                after = max(0, before - 1)
                changes.append(
                    {
                        "id": location.id, "what": "location", "before": before, "after": after,
                        "reason": "dragon_die",
                    }
                )  # fmt: skip
                log.add(
                    "dragon.prosperity.lost",
                    id=location.id,
                    loss=before - after,
                    before=before,
                    after=after,
                    reason="dragon_die",
                )
                location_prosperity = after
        lvl = change_level(dragon_die)
        scale = None if lvl is None else CHANGE_SCALE[lvl]
        destruction = {
            "by": "others",
            "result": dragon_die,
            "level": lvl,
            "scale": scale,
            "against": [],
        }
        log.add(
            "dragon.change.destruction" if lvl is not None else "dragon.change.no_destruction",
            result=dragon_die,
            level=lvl,
            scale=scale,
        )

    # DRG-14, DRG-15: wounds.
    wounds = d.wounds + gained
    defeated_dragon = wounds >= d.battle
    if defeated_dragon:
        slayer = next((p["winner"] for p in pairs if p["loser"] == DRAGON), None)
        log.add("dragon.defeated", wounds=wounds, battle=d.battle, slayer=slayer)

    # DRG-16: does the battle end?
    ended = defeated_dragon or not req.continues
    log.add("dragon.battle.ended" if ended else "dragon.battle.continues", round=req.round)

    # DRG-17: hoard from the strongest enemy that fought the dragon's side.
    fought = [p for p in in_battle if p != DRAGON and by_id[p].controller == "gm"]
    enemies = sorted(fought, key=index.__getitem__)

    # A dragonslayer counts one level higher.
    level = {p: by_id[p].level + (1 if p in slayer_now else 0) for p in fought}
    strongest: str | None = None
    if fought and req.options.strongest_enemy == "strength_order":
        strongest = fought[0]  # `in_battle` is in strength order
    elif fought:
        strongest = max(enemies, key=level.__getitem__)  # the first of the highest, request order
    top = 0 if strongest is None else level[strongest]
    amount = max(top - 1, 0)
    if req.options.hoard == "on_win" and not dragon_won:
        amount = 0
    hoard: Hoard = {
        "enemies": enemies,
        "strongest": strongest,
        "level": top,
        "dragonslayer": strongest in slayer_now,
        "amount": amount,
        "dragon_won": dragon_won,
    }
    if ended:
        log.add("dragon.hoard", amount=amount, strongest=strongest, level=top)

    next_state = _next_state(
        req,
        prosperity=prosperity,
        slayers_individual=slayers_individual,
        wounds=wounds,
        new_entities=new_entities,
        location_prosperity=location_prosperity,
    )
    return BattleResult(
        round=req.round,
        order=order,
        pools=pools,
        pairs=pairs,
        left_over=left_over,
        sweep=sweep,
        sweep_detail=sweep_detail,
        defeated=defeated,
        prosperity_changes=changes,
        wounds={"before": d.wounds, "gained": gained, "after": wounds},
        slayers_revealed=revealed,
        dragon_changes=dragon_changes,
        destruction_change=destruction,
        dragon_defeated=defeated_dragon,
        battle_ended=ended,
        hoard=hoard,
        hoard_gained=amount if ended else 0,
        next_state=next_state,
        **trace(dice, log),
    )


def _side(member: str, joined: dict[str, list[str]], own: dict[str, list[int]]) -> Side:
    """A pair's side: the member, the parties joined to it, and all their dice."""
    if member in joined:
        members = [member, *joined[member]]
        values = [v for m in members for v in own[m]]
    else:
        members = [member]
        values = own[member]
    return {"members": members, "dice": values, "highest": max(values) if values else 0}


def _left_over(
    e: Entity, t: str | None, paired: dict[str, int], joined: dict[str, list[str]], log: EventLog
) -> LeftOverParty:
    """DRG-3: what a party left over does: wait, join an ally in a pair, or win outside."""
    p = e.id
    why = "it has no target" if t is None else f"its target {t} is already paired"
    action = e.if_left_over
    if action.startswith("join:"):
        ally = action[5:]
        if ally in paired:
            joined.setdefault(ally, []).append(p)
            log.add("dragon.left_over.join", id=p, ally=ally, why=why, target=t)
            return {
                "id": p,
                "action": "join",
                "reason": why,
                "ally": ally,
                "against": None,
                "note": None,
            }
        log.add("dragon.left_over.join_failed", id=p, ally=ally, why=why, target=t)
        return {
            "id": p,
            "action": "wait",
            "reason": why,
            "ally": ally,
            "against": None,
            "note": f"{ally} is not in a pair",
        }
    if action.startswith("auto_win:"):
        against = action[9:]
        log.add("dragon.left_over.auto_win", id=p, against=against, why=why, target=t)
        return {
            "id": p,
            "action": "auto_win",
            "reason": why,
            "ally": None,
            "against": against,
            "note": None,
        }
    log.add("dragon.left_over.wait", id=p, why=why, target=t)
    return {
        "id": p,
        "action": "wait",
        "reason": why,
        "ally": None,
        "against": None,
        "note": None,
    }


def _sweep(
    dragon_die: int,
    *,
    dragon_side: Side,
    opponent: str,
    opponent_side: Side,
    candidates: list[str],
    highest: Callable[[str], int],
    log: EventLog,
) -> SweepDetail:
    """DRG-11: when the dragon die shows the dragon side's highest result (ties count), add the
    weakest other entities' highest dice to the opponent's one by one while the dragon die stays
    strictly higher than the sum; the first that does not fit stops the sweep."""
    triggered = dragon_die >= dragon_side["highest"]
    steps: list[SweepStep] = []
    if not triggered:
        log.add("dragon.sweep.not_triggered", dragon_die=dragon_die, highest=dragon_side["highest"])
    else:
        running = opponent_side["highest"]
        for c in candidates:
            total = running + highest(c)
            ok = dragon_die > total
            steps.append({"id": c, "highest": highest(c), "running_sum": total, "added": ok})
            if not ok:
                break
            running = total
        added = [s["id"] for s in steps if s["added"]]
        common = {
            "dragon_die": dragon_die,
            "opponent": opponent,
            "opponent_highest": opponent_side["highest"],
        }
        if added:
            log.add(
                "dragon.sweep.taken", **common, added=added, names=", ".join(added), total=running
            )
        else:
            log.add("dragon.sweep.failed", **common)
    return {
        "triggered": triggered,
        "dragon_die": dragon_die,
        "opponent": opponent,
        "opponent_highest": opponent_side["highest"],
        "steps": steps,
    }


def _reveal(
    winner: Entity,
    req: BattleRequest,
    log: EventLog,
    slayers_individual: set[str],
    new_entities: dict[str, Entity],
) -> SlayerRevealed | None:
    """DRG-14: the entity that beat the dragon proves to be (or to hold) a dragonslayer."""
    if winner.dragonslayer or any(e.parent == winner.id and e.dragonslayer for e in req.entities):
        log.add("dragon.slayer.known", id=winner.id)
        return None
    if winner.kind == "individual":
        slayers_individual.add(winner.id)
        log.add(
            "dragon.slayer.revealed",
            id=winner.id,
            how="it gains the feature dragonslayer",
            kind="individual",
        )
        return {
            "id": winner.id,
            "kind": "individual",
            "feature": "dragonslayer",
            "new_entity": None,
            "prosperity": None,
            "sides": None,
        }
    taken = {e.id for e in req.entities} | {DRAGON}
    if req.location is not None:
        taken.add(req.location.id)
    base = f"{winner.id}-slayer"
    if len(base) > _ID_MAX:
        base = f"{winner.id[: _ID_MAX - 7]}-slayer"
    new_id = base
    n = 2
    while new_id in taken:
        suffix = f"-{n}"
        new_id = base[: _ID_MAX - len(suffix)] + suffix
        n += 1
    if len(req.entities) + len(new_entities) >= MAX_COMBATANTS:
        raise LimitExceeded(
            f"{winner.id!r} reveals a dragonslayer minority, but the battle already holds "
            f"{MAX_COMBATANTS} entities",
            [FieldError(("entities",), f"at most {MAX_COMBATANTS} entities")],
        )
    prosperity = (
        winner.slayer_prosperity if winner.slayer_prosperity is not None else winner.prosperity
    )
    child = Entity(
        id=new_id,
        name=None if winner.name is None else f"dragonslayer of {winner.name}"[:200],
        controller=winner.controller,
        kind="group",
        prosperity=prosperity,
        level=winner.level,
        level_features=min(winner.level_features + 1, MAX_STAT),
        die=None if winner.die is None else step_up(winner.die),
        dragonslayer=True,
        parent=winner.id,
        aside=False,
        target=DRAGON,
        if_left_over=winner.if_left_over,
        slayer_prosperity=None,
    )
    new_entities[winner.id] = child
    sides = entity_die(child)
    log.add(
        "dragon.slayer.revealed",
        id=winner.id,
        how=f"a dragonslayer minority {new_id} with prosperity {prosperity} and d{sides}",
        kind="group",
        new_entity=new_id,
        prosperity=prosperity,
        sides=sides,
    )
    return {
        "id": winner.id,
        "kind": "group",
        "feature": None,
        "new_entity": new_id,
        "prosperity": prosperity,
        "sides": sides,
    }


def _next_state(
    req: BattleRequest,
    *,
    prosperity: dict[str, int],
    slayers_individual: set[str],
    wounds: int,
    new_entities: dict[str, Entity],
    location_prosperity: int | None,
) -> NextState:
    """DRG-16: the state to send for the next round, in the request's own shape.

    As plain dicts (``NextState``): each a copy of the request model's ``__dict__`` (its fields in
    declaration order, what its serialiser writes) with the changed fields set in place.
    """
    moved = {parent: child.id for parent, child in new_entities.items()}
    entities: list[dict[str, Any]] = []
    for e in req.entities:
        state = dict(e.__dict__)
        eid = e.id
        if prosperity[eid] != e.prosperity:
            state["prosperity"] = prosperity[eid]
        if moved:
            if e.target in moved:
                state["target"] = moved[e.target]
            if e.if_left_over.startswith("join:") and e.if_left_over[5:] in moved:
                state["if_left_over"] = "join:" + moved[e.if_left_over[5:]]
            if eid in new_entities:
                state["aside"] = True
        if eid in slayers_individual:
            state["dragonslayer"] = True
        entities.append(state)
        if eid in new_entities:
            entities.append(dict(new_entities[eid].__dict__))
    d = req.dragon
    dragon = dict(d.__dict__)
    dragon["wounds"] = wounds
    dragon["target"] = moved.get(d.target, d.target)
    location: dict[str, Any] | None = None
    if req.location is not None:
        location = dict(req.location.__dict__)
        location["prosperity"] = location_prosperity
    return {
        "dragon": dragon,
        "entities": entities,
        "location": location,
        "round": min(req.round + 1, MAX_ATTEMPTS),
    }
