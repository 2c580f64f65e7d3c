"""One round of a dragon's violent conflict (rules/dragon.md, DRG-1..17): ``battle(req, dice)`` reads
as the round's phases, each a function below it citing its rule ids. Every prosperity loss goes
through one :class:`Ledger`; the events go to one ``EventLog``, in the order the phases run.
"""

from __future__ import annotations

from typing import Any, Literal

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
    Wounds,
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
from rules.events import EventLog, foundry_trace
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
    """Refuse a situation that does not hold together (DRG-1, DRG-4, DRG-14, DRG-15, DRG-16).

    The errors come in this order: ids, the location, parents and minorities, parent cycles, the
    dragon's target, then each entity's target and join. Returns the entities by id (each id once).
    """
    _check_going_on(req)
    entities = req.entities
    errors, by_id = _id_errors(req)
    later: list[FieldError] = []  # targets and joins, reported after the cycles
    parents = False
    for i, e in enumerate(entities):
        if e.parent is not None or e.slayer_prosperity is not None:
            parents = parents or e.parent is not None
            errors += _family_errors(i, e, by_id)
        if e.aside:
            continue
        target = e.target
        msg = None if target is None else _target_error(e, target, by_id)
        if msg is not None:
            later.append(FieldError(("entities", i, "target"), msg))
        join = e.if_left_over
        msg = _join_error(e, join[5:], by_id) if join.startswith("join:") else None
        if msg is not None:
            later.append(FieldError(("entities", i, "if_left_over"), msg))
    if parents:
        errors += _cycles(entities, by_id)
    target_error = _dragon_target_error(req.dragon.target, by_id)
    if target_error is not None:
        errors.append(target_error)
    errors += later
    if errors:
        raise InvalidRequest("; ".join(err.msg for err in errors[:5]), errors)
    return by_id


def _check_going_on(req: BattleRequest) -> None:
    """DRG-15: a defeated dragon may not go on; DRG-16: a battle lasts at most 1000 rounds."""
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


def _id_errors(req: BattleRequest) -> tuple[list[FieldError], dict[str, Entity]]:
    """Each id once, none of them `dragon`; the errors and the first entity of each id."""
    errors: list[FieldError] = []
    by_id = {e.id: e for e in req.entities}
    location = req.location
    unique = len(by_id) == len(req.entities) and DRAGON not in by_id
    if unique and (location is None or location.id != DRAGON):
        return errors, by_id
    by_id = {}
    for i, e in enumerate(req.entities):
        if e.id == DRAGON:
            errors.append(
                FieldError(("entities", i, "id"), "the id `dragon` names the dragon; rename it")
            )
        elif e.id in by_id:
            first = next(j for j, x in enumerate(req.entities) if x.id == e.id)
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
    return errors, by_id


def _family_errors(i: int, e: Entity, by_id: dict[str, Entity]) -> list[FieldError]:
    """An entity's parent and its dragonslayer minority's prosperity (DRG-14)."""
    errors: list[FieldError] = []
    where = ("entities", i, "parent")
    if e.parent == e.id:
        errors.append(FieldError(where, f"{e.id!r} cannot be its own parent"))
    elif e.parent is not None and e.parent not in by_id:
        msg = f"{e.id!r}: parent {e.parent!r} is not an entity of the request"
        errors.append(FieldError(where, msg))
    where = ("entities", i, "slayer_prosperity")
    if e.slayer_prosperity is None:
        return errors
    if e.kind != "group":
        msg = f"{e.id!r} is an individual: it becomes the dragonslayer itself (DRG-14)"
        errors.append(FieldError(where, msg))
    elif e.slayer_prosperity > e.prosperity:
        msg = (
            f"{e.id!r}: the dragonslayer minority's prosperity is 0 .. the group's "
            f"({e.prosperity}), not {e.slayer_prosperity} (DRG-14)"
        )
        errors.append(FieldError(where, msg))
    return errors


def _dragon_target_error(target: str, by_id: dict[str, Entity]) -> FieldError | None:
    """DRG-1: the dragon attacks a free (gm) entity taking part."""
    t = by_id.get(target)
    if t is not None and not t.aside and t.controller == "gm":
        return None
    why = (
        "is not an entity of the request"
        if t is None
        else "stands aside (DRG-4)"
        if t.aside
        else "is the player's own (subjugated) entity"
    )
    return FieldError(
        ("dragon", "target"),
        f"the dragon's target {target!r} {why}: it must be a free (gm) entity "
        "taking part in the battle",
    )


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
    """Resolve one round (DRG-1..17), phase by phase; dice in slots ``pool.dragon``,
    ``dragon_die``, ``pool.<id>``, ``slayer.<id>``."""
    by_id = check(req)
    log = EventLog(SENTENCES)
    d = req.dragon
    # Order and pairs (DRG-2, DRG-4), then the left-over parties (DRG-3).
    order = strength_order(req, log)
    pair_ids, paired = form_pairs(order, by_id, d.target, log)
    left_over, joined, in_battle = left_over_parties(order, paired, by_id, log)
    # Pools (DRG-5..8) and each pair's two sides.
    pools, own = roll_pools(req, pair_ids, joined, by_id, dice=dice, log=log)
    sides = [(_side(a, joined, own), _side(b, joined, own)) for a, b in pair_ids]
    # The dragon-die sweep (DRG-11), then the pairs, the dragon's first (DRG-9, 10, 12, 14).
    dragon_die = own[DRAGON][-1] if d.dragon_die else None
    sweep_detail = (
        None
        if dragon_die is None
        else dragon_die_sweep(dragon_die, req, in_battle, sides[0], own=own, log=log)
    )
    sweep = [] if sweep_detail is None else _swept(sweep_detail)
    ledger = Ledger(req, log)
    first, defeated = dragon_pair(pair_ids[0], sides[0], sweep, own, ledger=ledger, log=log)
    revealed, new_entities = dragonslayer(first, req, by_id, log)
    pairs = [first, *other_pairs(pair_ids[1:], sides[1:], sweep, ledger=ledger, log=log)]
    # Consequences (DRG-12..16) and the hoard (DRG-17).
    dragon_changes = player_change(first, defeated, log)
    destruction = (
        None
        if dragon_die is None
        else dragon_die_damage(dragon_die, req, by_id, pairs, ledger=ledger, log=log)
    )
    wounds, dragon_defeated, ended = wounds_and_end(req, first, log)
    hoard = count_hoard(req, by_id, in_battle, first, ended=ended, log=log)
    state = next_state(req, ledger, wounds["after"], revealed, new_entities)
    return {
        **foundry_trace(dice, log),
        "round": req.round,
        "order": order,
        "pools": pools,
        "pairs": pairs,
        "left_over": left_over,
        "sweep": sweep,
        "sweep_detail": sweep_detail,
        "defeated": defeated,
        "prosperity_changes": ledger.changes,
        "wounds": wounds,
        "slayers_revealed": revealed,
        "dragon_changes": dragon_changes,
        "destruction_change": destruction,
        "dragon_defeated": dragon_defeated,
        "battle_ended": ended,
        "hoard": hoard,
        "hoard_gained": hoard["amount"] if ended else 0,
        "next_state": state,
    }


class Ledger:
    """DRG-11..13: the prosperity of the entities and of the location as the round takes it, and
    every loss in order with its reason (``prosperity_changes``, ``dragon.prosperity.lost``)."""

    __slots__ = ("changes", "location", "log", "prosperity")

    def __init__(self, req: BattleRequest, log: EventLog) -> None:
        self.prosperity: dict[str, int] = {e.id: e.prosperity for e in req.entities}
        location = req.location
        self.location: dict[str, int] = (
            {} if location is None else {location.id: location.prosperity}
        )
        self.changes: list[ProsperityChange] = []
        self.log = log

    def lose(
        self, id: str, amount: int, reason: Reason, what: Literal["entity", "location"] = "entity"
    ) -> None:
        """An entity (or the location) loses ``amount`` prosperity, not below 0."""
        book = self.prosperity if what == "entity" else self.location
        before = book[id]
        after = max(0, before - amount)
        book[id] = after
        self.changes.append(
            {"id": id, "what": what, "before": before, "after": after, "reason": reason}
        )
        self.log.add(
            "dragon.prosperity.lost",
            id=id,
            loss=before - after,
            before=before,
            after=after,
            reason=reason,
        )


# ---------------------------------------------------------------- order and pairs


def strength_order(req: BattleRequest, log: EventLog) -> list[str]:
    """DRG-2, DRG-4: the dragon, then the entities taking part by prosperity, highest first; on equal
    prosperity free (gm) entities first, then request order. Entities aside take no part."""
    ranked: list[tuple[int, bool, int, str]] = []
    for i, e in enumerate(req.entities):
        if e.aside:
            log.add("dragon.aside", id=e.id)
        else:
            ranked.append((-e.prosperity, e.controller != "gm", i, e.id))
    # Sorted as plain tuples (no key function to call); the index keeps equal keys in request order.
    ranked.sort()
    order = [DRAGON]
    for _, _, _, p in ranked:
        order.append(p)
    log.add("dragon.order", order=order, names=", ".join(order))
    return order


def form_pairs(
    order: list[str], by_id: dict[str, Entity], dragon_target: str, log: EventLog
) -> tuple[list[tuple[str, str]], set[str]]:
    """DRG-2: in strength order, each party still unpaired takes its target if that target is still
    unpaired; the two form a battle pair. The dragon's pair is always the first.

    Returns the pairs in the order they formed and every party in one."""
    paired: set[str] = set()
    pair_ids: list[tuple[str, str]] = []
    for p in order:
        if p in paired:
            continue
        t = dragon_target if p == DRAGON else by_id[p].target
        if t is not None and t not in paired:
            paired.add(p)
            paired.add(t)
            pair_ids.append((p, t))
            log.add("dragon.pair.formed", a=p, b=t)
    return pair_ids, paired


def left_over_parties(
    order: list[str], paired: set[str], by_id: dict[str, Entity], log: EventLog
) -> tuple[list[LeftOverParty], dict[str, list[str]], list[str]]:
    """DRG-3: what each party left over does, in strength order. A party passed over at its turn
    but then taken as a weaker party's target (its target was "still unpaired") fights in that pair
    and is not left over (DRG-2).

    Returns the left-over parties, the parties joined to each pair member and the parties in the
    battle (in a pair or joined to one), in strength order."""
    if len(paired) == len(order):  # every party is in a pair: none is left over
        return [], {}, order
    left_over = [_left_over(by_id[p], paired, log) for p in order if p not in paired]
    joined = _joined(left_over)
    return left_over, joined, _in_battle(order, paired, joined)


def _left_over(e: Entity, paired: set[str], log: EventLog) -> LeftOverParty:
    """DRG-3: wait, join an ally in a pair (or wait if it is in none), or win outside the battle."""
    p = e.id
    why = "it has no target" if e.target is None else f"its target {e.target} is already paired"
    action = e.if_left_over
    if action.startswith("join:"):
        ally = action[5:]
        if ally in paired:
            log.add("dragon.left_over.join", id=p, ally=ally, why=why, target=e.target)
            return _left_over_record(p, "join", why, ally=ally)
        log.add("dragon.left_over.join_failed", id=p, ally=ally, why=why, target=e.target)
        return _left_over_record(p, "wait", why, ally=ally, note=f"{ally} is not in a pair")
    if action.startswith("auto_win:"):
        against = action[9:]
        log.add("dragon.left_over.auto_win", id=p, against=against, why=why, target=e.target)
        return _left_over_record(p, "auto_win", why, against=against)
    log.add("dragon.left_over.wait", id=p, why=why, target=e.target)
    return _left_over_record(p, "wait", why)


def _left_over_record(
    p: str,
    action: Literal["wait", "join", "auto_win"],
    why: str,
    *,
    ally: str | None = None,
    against: str | None = None,
    note: str | None = None,
) -> LeftOverParty:
    return {
        "id": p,
        "action": action,
        "reason": why,
        "ally": ally,
        "against": against,
        "note": note,
    }


def _in_battle(order: list[str], paired: set[str], joined: dict[str, list[str]]) -> list[str]:
    if not joined:
        return [p for p in order if p in paired]
    joiners = {p for js in joined.values() for p in js}
    return [p for p in order if p in paired or p in joiners]


def _joined(left_over: list[LeftOverParty]) -> dict[str, list[str]]:
    """DRG-3: the parties joined to each pair member, in strength order."""
    joined: dict[str, list[str]] = {}
    for x in left_over:
        ally = x["ally"]
        if x["action"] == "join" and ally is not None:
            joined.setdefault(ally, []).append(x["id"])
    return joined


# ---------------------------------------------------------------- pools


def roll_pools(
    req: BattleRequest,
    pair_ids: list[tuple[str, str]],
    joined: dict[str, list[str]],
    by_id: dict[str, Entity],
    *,
    dice: DiceSource,
    log: EventLog,
) -> tuple[list[Pool], dict[str, list[int]]]:
    """DRG-5..8: every pool, pair by pair, each member before the parties joined to it.

    Returns the pools in draw order and each party's dice (the dragon's dragon die last)."""
    draw = PoolDraw(dice, log)
    own: dict[str, list[int]] = {}
    for pair in pair_ids:
        for member in pair:
            own[member] = _roll_party(member, req, by_id, draw)
            if member in joined:
                for p in joined[member]:
                    own[p] = _roll_party(p, req, by_id, draw)
    return draw.pools, own


def _roll_party(p: str, req: BattleRequest, by_id: dict[str, Entity], draw: PoolDraw) -> list[int]:
    """One party's pools: the dragon's battle dice plus one per feature used (DRG-6) and its dragon
    die if used (DRG-7); an entity's prosperity in dice of its level (DRG-5), an individual
    dragonslayer one more die a step higher (DRG-8); prosperity 0 rolls nothing at all. Returns
    all the party's dice."""
    if p == DRAGON:
        d = req.dragon
        values = draw.roll(p, "pool.dragon", DRAGON_DICE[d.age], d.battle + d.features_used)
        if not d.dragon_die:
            return values
        return values + draw.roll(p, "dragon_die", DRAGON_DIE[d.age], 1)
    e = by_id[p]
    if e.prosperity == 0:
        draw.log.add("dragon.pool.empty", owner=p)
        return []
    sides = entity_die(e)
    values = draw.roll(p, "pool." + p, sides, e.prosperity)
    if e.dragonslayer and e.kind == "individual":
        return values + draw.roll(p, "slayer." + p, step_up(sides), 1)
    return values


class PoolDraw:
    """DRG-5..8: the pools as they are drawn, each from the dice source, with its event and its
    record in ``pools`` (draw order)."""

    __slots__ = ("dice", "log", "pools")

    def __init__(self, dice: DiceSource, log: EventLog) -> None:
        self.dice = dice
        self.log = log
        self.pools: list[Pool] = []

    def roll(self, owner: str, slot: str, sides: int, count: int) -> list[int]:
        values = self.dice.roll_many(slot, sides, count)
        self.log.add(
            "dragon.pool.rolled", owner=owner, slot=slot, count=count, sides=sides, dice=values
        )
        self.pools.append({"owner": owner, "slot": slot, "sides": sides, "dice": values})
        return values


def _side(member: str, joined: dict[str, list[str]], own: dict[str, list[int]]) -> Side:
    if member in joined:
        members = [member, *joined[member]]
        values = [v for m in members for v in own[m]]
    else:
        members = [member]
        values = own[member]
    return {"members": members, "dice": values, "highest": max(values) if values else 0}


def _highest(values: list[int]) -> int:
    """The highest die of a party or a side; 0 when it rolled nothing (DRG-5)."""
    return max(values) if values else 0


# ---------------------------------------------------------------- the sweep


def _weakest(req: BattleRequest, in_battle: list[str], opponent: str) -> list[str]:
    """DRG-11: the other entities in the battle (in a pair or joined to one), weakest first: by
    prosperity, lowest first, whatever their side or pair; ties in request order."""
    taking = set(in_battle)
    ranked = sorted([(e.prosperity, i, e.id) for i, e in enumerate(req.entities) if e.id in taking])
    return [p for _, _, p in ranked if p != opponent]


def dragon_die_sweep(
    dragon_die: int,
    req: BattleRequest,
    in_battle: list[str],
    sides: tuple[Side, Side],
    *,
    own: dict[str, list[int]],
    log: EventLog,
) -> SweepDetail:
    """DRG-11: when the dragon die shows the dragon side's highest result (ties count), add the
    weakest other entities' highest dice to the opponent's one by one while the dragon die stays
    strictly higher than the sum; the first that does not fit stops the sweep."""
    dragon_side, opponent_side = sides
    opponent = opponent_side["members"][0]
    triggered = dragon_die >= dragon_side["highest"]
    steps: list[SweepStep] = []
    if not triggered:
        log.add("dragon.sweep.not_triggered", dragon_die=dragon_die, highest=dragon_side["highest"])
    else:
        running = opponent_side["highest"]
        for c in _weakest(req, in_battle, opponent):
            highest = _highest(own[c])
            total = running + highest
            ok = dragon_die > total
            steps.append({"id": c, "highest": highest, "running_sum": total, "added": ok})
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


def _swept(detail: SweepDetail) -> list[str]:
    """DRG-11: the ids the dragon die took, its opponent first; empty when it took none."""
    added = [s["id"] for s in detail["steps"] if s["added"]]
    return [detail["opponent"], *added] if added else []


# ---------------------------------------------------------------- pair results


def dragon_pair(
    ids: tuple[str, str],
    sides: tuple[Side, Side],
    sweep: list[str],
    own: dict[str, list[int]],
    *,
    ledger: Ledger,
    log: EventLog,
) -> tuple[Pair, list[Defeat]]:
    """DRG-9..12: the dragon's pair, resolved first: won by a sweep (DRG-11), interrupted (DRG-10)
    or won by one side (DRG-9). Every entity the dragon defeats loses prosperity equal to the
    dragon side's successes against it (DRG-12). Returns the pair and the entities defeated."""
    a, b = ids
    sa, sb = sides
    if sweep:
        defeated: list[Defeat] = []
        for p in sweep:
            bar = sb["highest"] if p == b else _highest(own[p])
            successes = _successes(sa["dice"], bar)
            defeated.append({"id": p, "successes": successes})
            ledger.lose(p, successes, "swept")
        first = defeated[0]["successes"]
        return _pair(a, b, sa, sb, winner=DRAGON, loser=b, successes=first, swept=True), defeated
    pair = _fight(a, b, sa, sb, log)
    loser = pair["loser"]
    if pair["winner"] != DRAGON or loser is None:
        return pair, []
    ledger.lose(loser, pair["successes"], "lost_pair")
    return pair, [{"id": loser, "successes": pair["successes"]}]


def other_pairs(
    pair_ids: list[tuple[str, str]],
    sides: list[tuple[Side, Side]],
    sweep: list[str],
    *,
    ledger: Ledger,
    log: EventLog,
) -> list[Pair]:
    """DRG-9..12, in the order the pairs formed: a pair the dragon die swept a party of is not
    resolved (DRG-11); the others fight (DRG-9, DRG-10) and the loser loses prosperity equal to the
    winner's successes (DRG-12)."""
    pairs: list[Pair] = []
    for (a, b), (sa, sb) in zip(pair_ids, sides, strict=True):
        gone = [p for p in sweep if p in sa["members"] or p in sb["members"]] if sweep else []
        if gone:
            log.add("dragon.pair.unresolved", a=a, b=b, swept=gone, names=", ".join(gone))
            pairs.append(_pair(a, b, sa, sb, resolved=False))
            continue
        pair = _fight(a, b, sa, sb, log)
        loser = pair["loser"]
        if loser is not None:
            ledger.lose(loser, pair["successes"], "lost_pair")
        pairs.append(pair)
    return pairs


def _fight(a: str, b: str, sa: Side, sb: Side, log: EventLog) -> Pair:
    """DRG-9, DRG-10: the higher single die wins, with one success per die strictly above the
    loser's highest; equal highest dice interrupt the fight."""
    if sa["highest"] == sb["highest"]:
        log.add("dragon.pair.interrupted", a=a, b=b, highest=sa["highest"])
        return _pair(a, b, sa, sb, interrupted=True)
    win, loser, sw, sl = (a, b, sa, sb) if sa["highest"] > sb["highest"] else (b, a, sb, sa)
    bar = sl["highest"]
    successes = _successes(sw["dice"], bar)
    log.add(
        "dragon.pair.won",
        winner=win,
        loser=loser,
        winner_highest=sw["highest"],
        loser_highest=bar,
        successes=successes,
    )
    return _pair(a, b, sa, sb, winner=win, loser=loser, successes=successes)


def _successes(dice: list[int], bar: int) -> int:
    """DRG-9, DRG-11: one success per die strictly above the loser's highest."""
    count = 0
    for v in dice:
        if v > bar:
            count += 1
    return count


def _pair(
    a: str,
    b: str,
    sa: Side,
    sb: Side,
    *,
    resolved: bool = True,
    winner: str | None = None,
    loser: str | None = None,
    successes: int = 0,
    interrupted: bool = False,
    swept: bool = False,
) -> Pair:
    return {
        "a": a, "b": b, "a_side": sa, "b_side": sb, "resolved": resolved, "winner": winner,
        "loser": loser, "successes": successes, "interrupted": interrupted, "swept": swept,
    }  # fmt: skip


def dragonslayer(
    first: Pair, req: BattleRequest, by_id: dict[str, Entity], log: EventLog
) -> tuple[list[SlayerRevealed], dict[str, Entity]]:
    """DRG-14: a dragon that loses takes a wound (every loss is a loss to a dragonslayer), and the
    winner proves to be, or to hold, a dragonslayer. Returns the dragonslayers revealed and the new
    minority entity by its parent's id."""
    slayer = first["winner"]
    if first["loser"] != DRAGON or slayer is None:
        return [], {}
    d = req.dragon
    log.add("dragon.wound", slayer=slayer, wounds=d.wounds + 1, battle=d.battle)
    return _reveal(by_id[slayer], req, log)


def _reveal(
    winner: Entity, req: BattleRequest, log: EventLog
) -> tuple[list[SlayerRevealed], dict[str, Entity]]:
    """DRG-14: an individual gains the feature; a group gets a dragonslayer minority entity."""
    if winner.dragonslayer or any(e.parent == winner.id and e.dragonslayer for e in req.entities):
        log.add("dragon.slayer.known", id=winner.id)
        return [], {}
    if winner.kind == "individual":
        log.add(
            "dragon.slayer.revealed",
            id=winner.id,
            how="it gains the feature dragonslayer",
            kind="individual",
        )
        revealed: SlayerRevealed = {
            "id": winner.id,
            "kind": "individual",
            "feature": "dragonslayer",
            "new_entity": None,
            "prosperity": None,
            "sides": None,
        }
        return [revealed], {}
    child = _minority(winner, req)
    sides = entity_die(child)
    log.add(
        "dragon.slayer.revealed",
        id=winner.id,
        how=f"a dragonslayer minority {child.id} with prosperity {child.prosperity} and d{sides}",
        kind="group",
        new_entity=child.id,
        prosperity=child.prosperity,
        sides=sides,
    )
    revealed = {
        "id": winner.id,
        "kind": "group",
        "feature": None,
        "new_entity": child.id,
        "prosperity": child.prosperity,
        "sides": sides,
    }
    return [revealed], {winner.id: child}


def _minority(winner: Entity, req: BattleRequest) -> Entity:
    """DRG-14: a group's dragonslayer minority: its child entity, one die step up, with the
    prosperity the request names (default the group's), targeting the dragon."""
    new_id = _minority_id(winner.id, req)
    if len(req.entities) >= MAX_COMBATANTS:
        raise LimitExceeded(
            f"{winner.id!r} reveals a dragonslayer minority, but the battle already holds "
            f"{MAX_COMBATANTS} entities",
            [FieldError(("entities",), f"at most {MAX_COMBATANTS} entities")],
        )
    return Entity(
        id=new_id,
        name=None,  # no English in the state: the texts tell it by its id (rules.narration)
        controller=winner.controller,
        kind="group",
        prosperity=(
            winner.slayer_prosperity if winner.slayer_prosperity is not None else winner.prosperity
        ),
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


def _minority_id(parent: str, req: BattleRequest) -> str:
    """``<parent>-slayer``, cut to 64 characters, with ``-2``, ``-3`` ... until it is free."""
    taken = {e.id for e in req.entities} | {DRAGON}
    if req.location is not None:
        taken.add(req.location.id)
    base = f"{parent}-slayer"
    if len(base) > _ID_MAX:
        base = f"{parent[: _ID_MAX - 7]}-slayer"
    new_id = base
    n = 2
    while new_id in taken:
        suffix = f"-{n}"
        new_id = base[: _ID_MAX - len(suffix)] + suffix
        n += 1
    return new_id


# ---------------------------------------------------------------- consequences


def player_change(first: Pair, defeated: list[Defeat], log: EventLog) -> list[Change]:
    """DRG-12: when the dragon won, the player's one change at the level its highest die reaches."""
    if first["winner"] != DRAGON:
        return []
    best = first["a_side"]["highest"]
    return [_change("player", best, [x["id"] for x in defeated], log)]


def dragon_die_damage(
    dragon_die: int,
    req: BattleRequest,
    by_id: dict[str, Entity],
    pairs: list[Pair],
    *,
    ledger: Ledger,
    log: EventLog,
) -> Change:
    """DRG-13 (with DRG-10): the dragon die costs every party of the battle but the dragon, and the
    location when it was not a party, 1 more prosperity, except the parties of an interrupted pair,
    who suffer nothing from it; the others make a destruction change at the die's level."""
    spared = _spared(pairs, log)
    for e in req.entities:
        if not e.aside and e.id not in spared:
            ledger.lose(e.id, 1, "dragon_die")
    location = req.location
    if location is not None:
        if location.id in spared:
            log.add("dragon.location.spared", id=location.id)
        elif location.id in by_id and not by_id[location.id].aside:
            log.add("dragon.location.party", id=location.id)
        else:
            ledger.lose(location.id, 1, "dragon_die", "location")
    return _change("others", dragon_die, [], log)


def _spared(pairs: list[Pair], log: EventLog) -> set[str]:
    """DRG-10, DRG-13: the parties of an interrupted pair (the parties joined to it included) suffer
    nothing from it, not even the dragon die's extra point."""
    spared: set[str] = set()
    for p in pairs:
        if p["interrupted"]:
            members = (*p["a_side"]["members"], *p["b_side"]["members"])
            ids = [m for m in members if m != DRAGON]
            spared.update(ids)
            log.add("dragon.pair.spared", a=p["a"], b=p["b"], ids=ids, names=", ".join(ids))
    return spared


#: The event of a change (DRG-12, DRG-13) by who makes it: at a level, or below 3 at none.
_CHANGE_EVENTS: dict[str, tuple[str, str]] = {
    "player": ("dragon.change.player", "dragon.change.none"),
    "others": ("dragon.change.destruction", "dragon.change.no_destruction"),
}


def _change(
    by: Literal["player", "others"], result: int, against: list[str], log: EventLog
) -> Change:
    """A change at the level ``result`` reaches in DRG-T4 (none below 3)."""
    level = change_level(result)
    scale = None if level is None else CHANGE_SCALE[level]
    at_level, at_none = _CHANGE_EVENTS[by]
    log.add(at_level if level is not None else at_none, result=result, level=level, scale=scale)
    return {"by": by, "result": result, "level": level, "scale": scale, "against": against}


def wounds_and_end(req: BattleRequest, first: Pair, log: EventLog) -> tuple[Wounds, bool, bool]:
    """DRG-14..16: one wound per loss; wounds >= battle defeat the dragon; the battle ends after
    this round unless it continues, and always when the dragon is defeated.

    Returns the wounds, whether the dragon is defeated and whether the battle ends."""
    d = req.dragon
    slayer = first["winner"] if first["loser"] == DRAGON else None
    gained = 0 if slayer is None else 1
    wounds = d.wounds + gained
    defeated = wounds >= d.battle
    if defeated:
        log.add("dragon.defeated", wounds=wounds, battle=d.battle, slayer=slayer)
    ended = defeated or not req.continues
    log.add("dragon.battle.ended" if ended else "dragon.battle.continues", round=req.round)
    return {"before": d.wounds, "gained": gained, "after": wounds}, defeated, ended


# ---------------------------------------------------------------- hoard


def count_hoard(
    req: BattleRequest,
    by_id: dict[str, Entity],
    in_battle: list[str],
    first: Pair,
    *,
    ended: bool,
    log: EventLog,
) -> Hoard:
    """DRG-17: hoard = the strongest enemy's level - 1, not below 0, a dragonslayer counting one
    level higher. The enemies are the free entities that fought (in a pair or joined); the
    strongest is the first of them in the strength order (``strength_order``, the default) or the
    first of the highest level (``highest_level``). ``on_win`` pays only when the dragon won."""
    slayer = first["winner"] if first["loser"] == DRAGON else None
    # Every enemy that fought with its level, in strength order (`in_battle`'s).
    level: dict[str, int] = {}
    for p in in_battle:
        if p == DRAGON:
            continue
        e = by_id[p]
        if e.controller == "gm":
            level[p] = e.level + 1 if e.dragonslayer or p == slayer else e.level
    enemies = [p for p in by_id if p in level]  # request order (each id once: `check`)
    options = req.options
    by_strength = options.strongest_enemy == "strength_order"
    # Never empty: the dragon's target fights it.
    strongest = next(iter(level)) if by_strength else max(enemies, key=level.__getitem__)
    top = level[strongest]
    dragon_won = first["winner"] == DRAGON
    amount = 0 if options.hoard == "on_win" and not dragon_won else max(top - 1, 0)
    e = by_id[strongest]
    if ended:
        if by_strength:
            log.add(
                "dragon.hoard.by_strength", id=strongest, prosperity=e.prosperity, level=e.level
            )
        else:
            log.add("dragon.hoard.by_level", id=strongest, level=top)
        if top > e.level:
            log.add("dragon.hoard.dragonslayer", id=strongest, own=e.level, level=top)
        log.add("dragon.hoard", amount=amount, strongest=strongest, level=top)
    return {
        "enemies": enemies,
        "strongest": strongest,
        "level": top,
        "dragonslayer": top > e.level,
        "amount": amount,
        "dragon_won": dragon_won,
    }


# ---------------------------------------------------------------- next state


def _move_to_minorities(state: dict[str, Any], moved: dict[str, str]) -> None:
    """DRG-14: a group that revealed a dragonslayer minority stands aside; whoever targeted it or
    joined it targets or joins the minority."""
    target, join = state["target"], state["if_left_over"]
    if target in moved:
        state["target"] = moved[target]
    if join.startswith("join:") and join[5:] in moved:
        state["if_left_over"] = "join:" + moved[join[5:]]
    if state["id"] in moved:
        state["aside"] = True


def next_state(
    req: BattleRequest,
    ledger: Ledger,
    wounds: int,
    revealed: list[SlayerRevealed],
    new_entities: dict[str, Entity],
) -> NextState:
    """DRG-16: the state to send for the next round, in the request's own shape: prosperity as the
    round left it, the wounds, revealed dragonslayers (DRG-14) and their parents standing aside.

    As plain dicts (``NextState``): each a copy of the request model's ``__dict__`` (its fields in
    declaration order, what its serialiser writes) with the changed fields set in place.
    """
    prosperity = ledger.prosperity
    slayers = [r["id"] for r in revealed if r["kind"] == "individual"] if revealed else []
    moved = {parent: child.id for parent, child in new_entities.items()} if new_entities else {}
    entities: list[dict[str, Any]] = []
    for e in req.entities:
        eid = e.id
        state = {**e.__dict__, "prosperity": prosperity[eid]}
        entities.append(state)
        if revealed:  # DRG-14: a dragonslayer, or a group and its new minority after it
            _move_to_minorities(state, moved)
            if eid in slayers:
                state["dragonslayer"] = True
            if eid in new_entities:
                entities.append(new_entities[eid].__dict__.copy())
    d = req.dragon
    dragon = {**d.__dict__, "wounds": wounds, "target": moved.get(d.target, d.target)}
    location: dict[str, Any] | None = None
    if req.location is not None:
        location = {**req.location.__dict__, "prosperity": ledger.location[req.location.id]}
    return {
        "dragon": dragon,
        "entities": entities,
        "location": location,
        "round": min(req.round + 1, MAX_ATTEMPTS),
    }
