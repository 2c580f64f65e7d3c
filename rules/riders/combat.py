"""Dragon Riders combat resolved from the initial situation plus the decisions so far (RDR-1..10):
replayed from the start every time, the bonuses (RDR-2), the roll-off, then each decision in
order, each slot drawn at most once, so one more decision shows the same dice and goes one step
further (RDR-8); when the decisions run out, who must decide and the legal choices, or with
``auto`` the default decision (RDR-9). docs/systems/riders.md.
"""

from __future__ import annotations

from rules.dice import DiceSource, SlotSpec
from rules.errors import FieldError, IllegalDecision, InvalidRequest
from rules.events import EventLog, foundry_trace
from rules.models import MAX_STAT
from rules.riders.models import (
    BASE_ROLLOFF_DICE,
    DIRECTIONS,
    MAX_FATIGUE,
    Awaiting,
    Bonuses,
    Choice,
    CombatRequest,
    CombatResult,
    Concession,
    CounterStep,
    Damage,
    DamageKind,
    Decision,
    DecisionState,
    Direction,
    Item,
    ItemUse,
    Option,
    Phase,
    PositionState,
    Rider,
    RiderBonus,
    RollOff,
    Side,
    SideName,
    SideState,
    Skip,
    parse_dice,
    rage_cap,
)
from rules.riders.sentences import SENTENCES

D6 = 6
SIDES: tuple[SideName, SideName] = ("initiator", "defender")
#: What each phase asks for; which items or damage kinds are legal is checked after.
PHASE_CHOICES: dict[str, tuple[str, ...]] = {
    "rolloff": ("roll", "concede"),
    "counterattack": ("use_item", "concede"),
    "damage": ("damage",),
}
#: The other side of each.
OTHER: dict[SideName, SideName] = {"initiator": "defender", "defender": "initiator"}


def combat_slots(req: CombatRequest) -> SlotSpec:
    slots: dict[str, int | None] = {"rolloff.initiator": D6, "rolloff.defender": D6}
    for side in (req.initiator, req.defender):
        for item in side.items:
            if item.dice is not None:
                slots[f"item.{item.id}"] = parse_dice(item.dice)[1]
    return slots


class _Stop(Exception):
    """The decisions ran out: the combat waits for this one."""

    def __init__(self, awaiting: Awaiting) -> None:
        super().__init__(awaiting["by"])
        self.awaiting = awaiting


class _Fighter:
    """One side's working state during the combat; the request's ``Side`` is never changed.

    For speed the combat's state (totals, items used, fatigue, rage, riders, positions) lives in
    plain attributes here; each side's state an answer returns is built once, at the end, as plain
    dicts of the request models' fields (``SideState``, no pydantic model), as are the decisions
    taken, and a decision's legal options are listed only when needed (to check a caller's
    decision, or to say what the combat awaits)."""

    __slots__ = (
        "fatigue",
        "has_rider",
        "items",
        "name",
        "position",
        "rage",
        "riders",
        "side",
        "total",
        "used",
        "used_ids",
    )

    def __init__(self, name: SideName, side: Side) -> None:
        self.name: SideName = name
        self.side = side
        self.items: list[Item] = side.items
        #: Pre, counter and damage items used, in order (RDR-6 reads Hide Shields and ranged ones).
        self.used: list[Item] = []
        self.used_ids: set[str] = set()
        self.total: int | None = None
        # RDR-6 damage taken so far. The position is a copy of the request's as a dict of its
        # fields: knockback and swap replace it (never change it in place: a swap's damage record
        # holds it too).
        self.fatigue = side.fatigue
        self.rage = side.rage
        self.has_rider = side.has_rider
        self.riders: list[Rider] = side.riders
        self.position: PositionState | None = (
            None if side.position is None else dict(side.position.__dict__)
        )

    def state(self) -> SideState:
        """The side as the request would describe it now (RDR-1: only damage changes it).

        A copy of the request's ``__dict__`` (every field of ``Side`` in declaration order: no alias,
        serialiser or computed field) with the working values set, its riders and items copied the
        same way: the bytes ``Side``'s serialiser writes, without building a model.
        """
        state = dict(self.side.__dict__)
        state["riders"] = [dict(r.__dict__) for r in self.riders]
        state["fatigue"] = self.fatigue
        state["rage"] = self.rage
        state["position"] = self.position
        state["has_rider"] = self.has_rider
        state["items"] = [dict(i.__dict__) for i in self.items]
        return state


class _Combat:
    """One resolution's state: the request, the dice, the events, both sides, the decisions taken."""

    __slots__ = ("auto", "auto_filled", "decisions", "dice", "fighters", "log", "ranged", "taken")

    def __init__(
        self, req: CombatRequest, dice: DiceSource, log: EventLog, ini: _Fighter, dfd: _Fighter
    ) -> None:
        self.decisions = req.decisions
        self.auto = req.auto
        #: The initiator's attack is ranged (RDR-6).
        self.ranged = req.attack.ranged
        self.dice = dice
        self.log = log
        self.fighters: dict[SideName, _Fighter] = {"initiator": ini, "defender": dfd}
        #: The decisions taken, as the result lists them (the caller's copied, the defaults built).
        self.taken: list[DecisionState] = []
        self.auto_filled: list[int] = []

    # ------------------------------------------------------------ decisions (RDR-8..10)

    def take(self, by: SideName, phase: Phase) -> DecisionState:
        """The next decision: the caller's, the default (``auto``), or stop and await it."""
        index = len(self.taken)
        decisions = self.decisions
        if index < len(decisions):
            given = decisions[index]
            _check(
                given,
                index,
                by=by,
                phase=phase,
                options=self.options(by, phase),
                side=self.fighters[by].side,
            )
            # the dict of its fields (a request-shaped model: no alias, serialiser or computed field)
            decision = dict(given.__dict__)
        elif self.auto:
            decision = self.default(by, phase)
            self.auto_filled.append(index)
        else:
            raise _Stop(
                {"by": by, "decision": index, "phase": phase, "choices": self.options(by, phase)}
            )
        self.taken.append(decision)
        return decision

    def options(self, by: SideName, phase: Phase) -> list[Option]:
        """The legal choices of ``by`` at this point (RDR-3..6)."""
        if phase == "rolloff":
            return [
                {"choice": "roll", "item": None, "damage": None, "directions": None},
                {"choice": "concede", "item": None, "damage": None, "directions": None},
            ]
        me = self.fighters[by]
        options: list[Option]
        if phase == "counterattack":
            options = [
                {"choice": "use_item", "item": i.id, "damage": None, "directions": None}
                for i in me.items
                if i.timing == "counter" and i.id not in me.used_ids
            ]
            options.append({"choice": "concede", "item": None, "damage": None, "directions": None})
            return options
        foe = self.fighters[OTHER[by]]
        options = [{"choice": "damage", "item": None, "damage": "fatigue", "directions": None}]
        if foe.position is not None:
            directions = _knockback_directions(foe.position)
            if directions:
                options.append(
                    {
                        "choice": "damage",
                        "item": None,
                        "damage": "knockback",
                        "directions": directions,
                    }
                )
        if me.position is not None and foe.position is not None:
            options.append({"choice": "damage", "item": None, "damage": "swap", "directions": None})
        for item in me.items:
            if item.damage is not None and item.timing != "pre" and item.id not in me.used_ids:
                options.append(
                    {"choice": "damage", "item": item.id, "damage": "item", "directions": None}
                )
        return options

    def default(self, by: SideName, phase: Phase) -> DecisionState:
        """RDR-9: roll; play the first counter item left, else concede; damage by fatigue."""
        choice: Choice = "roll"
        item: str | None = None
        damage: DamageKind | None = None
        if phase == "damage":
            choice, damage = "damage", "fatigue"
        elif phase == "counterattack":
            me = self.fighters[by]
            choice = "concede"
            for i in me.items:
                if i.timing == "counter" and i.id not in me.used_ids:
                    choice, item = "use_item", i.id
                    break
        # Decision's fields, in their order
        return {"by": by, "choice": choice, "item": item, "damage": damage, "direction": None}

    # ------------------------------------------------------------ items

    def use_item(self, me: _Fighter, item: Item) -> ItemUse:
        rolled: list[int] = []
        if item.dice is not None:
            count, sides = parse_dice(item.dice)
            rolled = self.dice.roll_many(f"item.{item.id}", sides, count)
        me.used.append(item)
        me.used_ids.add(item.id)
        return {
            "id": item.id,
            "name": item.name,
            "bonus": item.bonus,
            "dice": rolled,
            "value": item.bonus + sum(rolled),
        }


class _Outcome:
    """What the combat has resolved so far: the result's fields the phases fill in."""

    __slots__ = (
        "awaiting",
        "conceded",
        "counter",
        "damage",
        "instances",
        "presumptive",
        "rolloffs",
        "skipped",
        "winner",
    )

    def __init__(self) -> None:
        self.rolloffs: dict[SideName, RollOff] = {}
        self.counter: list[CounterStep] = []
        self.damage: list[Damage] = []
        self.presumptive: SideName | None = None
        self.winner: SideName | None = None
        self.conceded: Concession | None = None
        self.skipped: Skip | None = None
        self.instances = 1
        self.awaiting: Awaiting | None = None


def resolve_combat(req: CombatRequest, dice: DiceSource) -> CombatResult:
    """Resolve a Dragon Riders combat as far as the decisions go (RDR-1..10): the bonuses, the
    roll-off and counterattack, the damage; then what the combat awaits, or its end."""
    _check_ids(req)
    log = EventLog(SENTENCES)
    ini = _Fighter("initiator", req.initiator)
    dfd = _Fighter("defender", req.defender)
    c = _Combat(req, dice, log, ini, dfd)
    bonuses: dict[SideName, Bonuses] = {
        "initiator": _bonuses(c, ini, dfd),
        "defender": _bonuses(c, dfd, ini),
    }
    out = _Outcome()
    try:
        _deal_damage(c, _contest(c, bonuses, out), out)
    except _Stop as stop:
        out.awaiting = stop.awaiting
    _close(c, out.awaiting)
    winner = out.winner
    return {
        **foundry_trace(dice, log),
        "finished": out.awaiting is None,
        "winner": winner,
        "loser": OTHER[winner] if winner is not None else None,
        "bonuses": bonuses,
        "rolloff": out.rolloffs,
        "presumptive_loser": out.presumptive,
        "counterattack": out.counter,
        "conceded": out.conceded,
        "totals": {"initiator": ini.total, "defender": dfd.total},
        "damage": out.damage,
        "damage_instances": out.instances,
        "damage_skipped": out.skipped,
        "state": {"initiator": ini.state(), "defender": dfd.state()},
        "awaiting": out.awaiting,
        "decisions": c.taken,
        "auto_filled": c.auto_filled,
    }


def _contest(c: _Combat, bonuses: dict[SideName, Bonuses], out: _Outcome) -> SideName:
    """RDR-3: the initiator rolls, the defender rolls or concedes without rolling (RDR-7: two
    damage instances); the lower total is the presumptive loser, the initiator wins ties. Then
    the counterattack (RDR-4, RDR-5) decides the winner."""
    ini, dfd = c.fighters["initiator"], c.fighters["defender"]
    rolloffs = out.rolloffs
    rolloffs["initiator"] = _rolloff(c, ini, bonuses["initiator"])
    d = c.take("defender", "rolloff")
    if d["choice"] == "concede":
        out.winner = "initiator"
        out.instances = 2
        index = len(c.taken) - 1
        out.conceded = {
            "by": "defender",
            "phase": "rolloff",
            "decision": index,
            "without_rolling": True,
        }
        c.log.add("riders.rolloff.conceded", side="defender", decision=index)
    else:
        rolloffs["defender"] = _rolloff(c, dfd, bonuses["defender"])
        ti, td = rolloffs["initiator"]["total"], rolloffs["defender"]["total"]
        presumptive: SideName = "defender" if td <= ti else "initiator"
        out.presumptive = presumptive
        c.log.add(
            "riders.presumptive_loser.tie" if ti == td else "riders.presumptive_loser",
            loser=presumptive,
            loser_total=min(ti, td),
            other_total=max(ti, td),
        )
        out.winner, out.conceded = _counterattack(c, presumptive, out.counter)
    winner = out.winner
    c.log.add("riders.winner", winner=winner, loser=OTHER[winner])
    return winner


def _deal_damage(c: _Combat, winner: SideName, out: _Outcome) -> None:
    """RDR-6: damage, skipped for the winner's Hide Shield or the loser's ranged attack; RDR-7:
    twice after a concession without rolling."""
    loser = OTHER[winner]
    out.skipped = _skip_reason(c, c.fighters[winner], c.fighters[loser])
    if out.skipped is not None:
        c.log.add(f"riders.damage.skipped.{out.skipped}", winner=winner, loser=loser)
        return
    if out.instances == 2:
        c.log.add("riders.damage.double", loser=loser)
    for n in range(1, out.instances + 1):
        out.damage.append(_damage(c, c.fighters[winner], c.fighters[loser], n))


def _close(c: _Combat, awaiting: Awaiting | None) -> None:
    """RDR-8, RDR-10: a finished combat takes no further decision; an unfinished one says what
    it awaits."""
    if awaiting is None:
        if len(c.decisions) > len(c.taken):
            extra = len(c.taken)
            msg = (
                f"decision {extra}: the combat is over after {extra} decision(s); "
                f"no further decision is expected"
            )
            raise IllegalDecision(msg, [FieldError(("decisions", extra), msg)])
        return
    c.log.add(
        "riders.awaiting",
        by=awaiting["by"],
        phase=awaiting["phase"],
        decision=awaiting["decision"],
        choices="; ".join(_describe(o) for o in awaiting["choices"]),
    )


# ---------------------------------------------------------------- phases


def _bonuses(c: _Combat, me: _Fighter, foe: _Fighter) -> Bonuses:
    """RDR-2: riders' elemental bonuses (none at 3 fatigue) + terrain + pre-combat items.

    Before any damage: the fighter's working values (native attributes, cheaper to read than the
    pydantic ``Side``'s) are still the request's.
    """
    name = me.name
    element = foe.side.element
    riders: list[RiderBonus] = []
    elemental = 0
    for r in me.riders:
        bonus = r.bonuses.get(element, 0)
        riders.append({"id": r.id, "current": r.current, "bonus": bonus})
        elemental += bonus
    counted = me.fatigue < MAX_FATIGUE
    if not counted:
        c.log.add("riders.bonus.fatigued", side=name, elemental=elemental)
    items: list[ItemUse] = []
    from_items = 0
    extra_dice = 0
    for item in me.items:
        if item.timing == "pre":
            use = c.use_item(me, item)
            items.append(use)
            value, extra = use["value"], item.extra_rolloff_dice
            from_items += value
            extra_dice += extra
            c.log.add(
                "riders.item.pre",
                side=name,
                item=use["id"],
                name=use["name"],
                dice=use["dice"],
                value=value,
                extra_dice=extra,
            )
    terrain = me.side.terrain_bonus
    total = (elemental if counted else 0) + terrain + from_items
    c.log.add(
        "riders.bonus",
        side=name,
        elemental=elemental if counted else 0,
        terrain=terrain,
        items=from_items,
        total=total,
    )
    return {
        "riders": riders,
        "elemental": elemental,
        "elemental_counted": counted,
        "terrain": terrain,
        "items": items,
        "extra_rolloff_dice": extra_dice,
        "total": total,
    }


def _rolloff(c: _Combat, me: _Fighter, bonuses: Bonuses) -> RollOff:
    """RDR-3: 2d6, plus one d6 per rage level and each pre item's extra dice, plus the bonus.

    Before any damage: the fighter's rage is still the request's.
    """
    name = me.name
    slot = f"rolloff.{name}"
    rage, extra, bonus = me.rage, bonuses["extra_rolloff_dice"], bonuses["total"]
    count = BASE_ROLLOFF_DICE + rage + extra
    rolled = c.dice.roll_many(slot, D6, count)
    rolled_sum = sum(rolled)
    total = rolled_sum + bonus
    me.total = total
    c.log.add(
        "riders.rolloff",
        side=name,
        count=count,
        dice=rolled,
        sum=rolled_sum,
        bonus=bonus,
        total=total,
    )
    return {
        "slot": slot,
        "dice": rolled,
        "rage_dice": rage,
        "item_dice": extra,
        "sum": rolled_sum,
        "bonus": bonus,
        "total": total,
    }


def _counterattack(
    c: _Combat, presumptive: SideName, steps: list[CounterStep]
) -> tuple[SideName, Concession]:
    """RDR-4, RDR-5: the side behind plays counter items until strictly higher, or concedes."""
    behind = presumptive
    while True:
        d = c.take(behind, "counterattack")
        index = len(c.taken) - 1
        if d["choice"] == "concede":
            winner = OTHER[behind]
            c.log.add("riders.conceded", side=behind, winner=winner, decision=index)
            return winner, {
                "by": behind,
                "phase": "counterattack",
                "decision": index,
                "without_rolling": False,
            }
        me, them = c.fighters[behind], c.fighters[OTHER[behind]]
        item = next(i for i in me.items if i.id == d["item"])
        use = c.use_item(me, item)
        mine, theirs = me.total, them.total
        assert mine is not None and theirs is not None
        value = use["value"]
        mine += value
        me.total = mine
        changed = mine > theirs
        c.log.add(
            "riders.counter.item",
            side=behind,
            item=item.id,
            name=item.name,
            dice=use["dice"],
            value=value,
            total=mine,
            other_total=theirs,
        )
        if changed:
            c.log.add("riders.counter.lead", side=behind, total=mine, other_total=theirs)
        steps.append(
            {
                "decision": index,
                "by": behind,
                "item": use,
                "total": mine,
                "totals": {
                    "initiator": c.fighters["initiator"].total,
                    "defender": c.fighters["defender"].total,
                },
                "leader": behind if changed else OTHER[behind],
                "lead_changed": changed,
            }
        )
        if changed:
            behind = OTHER[behind]


def _skip_reason(c: _Combat, winner: _Fighter, loser: _Fighter) -> Skip | None:
    """RDR-6: no damage if the winner used a Hide Shield or the loser made a ranged attack."""
    for item in winner.used:
        if item.hide_shield:
            return "hide_shield"
    if loser.name == "initiator" and c.ranged:
        return "ranged"
    for item in loser.used:
        if item.ranged:
            return "ranged"
    return None


def _knockback_directions(pos: PositionState) -> list[Direction]:
    x: int = pos["x"]
    y: int = pos["y"]
    return [
        name
        for name, (dx, dy) in DIRECTIONS.items()
        if abs(x + dx) <= MAX_STAT and abs(y + dy) <= MAX_STAT
    ]


def _damage(c: _Combat, me: _Fighter, foe: _Fighter, n: int) -> Damage:
    """RDR-6: the winner picks one damage: fatigue, knockback, swap or a damage item."""
    d = c.take(me.name, "damage")
    index = len(c.taken) - 1
    damage = d["damage"]
    if damage == "fatigue":
        return _fatigue(c, foe, index, n)
    if damage == "knockback":
        return _knockback(c, foe, d["direction"], index, n)
    if damage == "swap":
        return _swap(c, me, foe, index, n)
    return _damage_item(c, me, d["item"], index, n)


def _fatigue(c: _Combat, foe: _Fighter, index: int, n: int) -> Damage:
    """RDR-6: one more fatigue; at 3 fatigue the loser gains a rage level instead and loses its
    Dragon Rider (the current riders)."""
    loser = foe.name
    lost: list[str] = []
    rider_lost = False
    if foe.fatigue < MAX_FATIGUE:
        foe.fatigue += 1
        c.log.add("riders.damage.fatigue", loser=loser, fatigue=foe.fatigue, n=n)
    else:
        lost = [r.id for r in foe.riders if r.current]
        rider_lost = foe.has_rider
        foe.rage = min(foe.rage + 1, max(foe.rage, rage_cap(foe.side)))  # a service limit
        foe.has_rider = False
        foe.riders = [r for r in foe.riders if not r.current]
        c.log.add(
            "riders.damage.fatigue_at_max",
            loser=loser,
            rider_lost=rider_lost,
            riders=lost,
            rage=foe.rage,
            n=n,
        )
    return {
        "kind": "fatigue",
        "decision": index,
        "fatigue": foe.fatigue,
        "rider_lost": rider_lost,
        "riders_lost": lost,
        "rage": foe.rage,
    }


def _knockback(c: _Combat, foe: _Fighter, direction: Direction, index: int, n: int) -> Damage:
    """RDR-6: the loser moves one space in the chosen direction, facing unchanged."""
    assert foe.position is not None
    dx, dy = DIRECTIONS[direction]
    before = foe.position
    x: int = before["x"]
    y: int = before["y"]
    new_x, new_y = x + dx, y + dy
    after = dict(before)
    after["x"] = new_x
    after["y"] = new_y
    foe.position = after
    c.log.add("riders.damage.knockback", loser=foe.name, direction=direction, x=new_x, y=new_y, n=n)
    return {
        "kind": "knockback",
        "decision": index,
        "direction": direction,
        "before": {"x": x, "y": y},
        "after": {"x": new_x, "y": new_y},
    }


def _swap(c: _Combat, me: _Fighter, foe: _Fighter, index: int, n: int) -> Damage:
    """RDR-6: the winner and the loser swap places and facings."""
    assert me.position is not None and foe.position is not None
    mine, theirs = me.position, foe.position
    me.position = theirs
    foe.position = mine
    c.log.add("riders.damage.swap", winner=me.name, loser=foe.name, n=n)
    return {"kind": "swap", "decision": index, "winner": theirs, "loser": mine}


def _damage_item(c: _Combat, me: _Fighter, item_id: str | None, index: int, n: int) -> Damage:
    """RDR-6: the winner uses an unused damage item (a Hookshot); the caller applies its effect."""
    item = next(i for i in me.items if i.id == item_id)
    me.used.append(item)
    me.used_ids.add(item.id)
    assert item.damage is not None
    c.log.add(
        "riders.damage.item",
        winner=me.name,
        loser=OTHER[me.name],
        name=item.name,
        effect=item.damage,
        n=n,
    )
    return {
        "kind": "item",
        "decision": index,
        "item": item.id,
        "name": item.name,
        "effect": item.damage,
    }


# ---------------------------------------------------------------- checks and defaults


def _check_ids(req: CombatRequest) -> None:
    """Item ids name slots (``item.<id>``), so they must be unique across both sides."""
    seen: dict[str, tuple[SideName, int]] = {}
    for side in SIDES:
        for j, item in enumerate(getattr(req, side).items):
            if item.id in seen:
                first, k = seen[item.id]
                raise InvalidRequest.at(
                    (side, "items", j, "id"),
                    f"item id '{item.id}' is already used by {first}.items[{k}]: item ids must be "
                    f"unique across both sides (each rolls in slot item.<id>)",
                )
            seen[item.id] = (side, j)


def _describe(o: Option) -> str:
    choice = o["choice"]
    if choice == "use_item":
        return f"use_item {o['item']}"
    if choice == "damage":
        damage = o["damage"]
        if damage == "item":
            return f"damage item {o['item']}"
        if damage == "knockback":
            return f"damage knockback ({'/'.join(o['directions'] or [])})"
        return f"damage {damage}"
    return choice


def _check(
    d: Decision, index: int, *, by: SideName, phase: Phase, options: list[Option], side: Side
) -> None:
    """RDR-10: a decision must be one of the legal options at its point, else IllegalDecision."""

    def illegal(part: str | None, msg: str) -> IllegalDecision:
        loc: tuple[str | int, ...] = (
            ("decisions", index) if part is None else ("decisions", index, part)
        )
        expected = ", ".join(_describe(o) for o in options)
        text = f"decision {index} ({phase}): {msg}; expected from the {by}: {expected}"
        return IllegalDecision(text, [FieldError(loc, text)])

    if d.by != by:
        raise illegal("by", f"it is the {by}'s decision, not the {d.by}'s")
    if d.choice not in PHASE_CHOICES[phase]:
        raise illegal("choice", f"'{d.choice}' is not possible here")
    if d.choice != "damage" and d.damage is not None:
        raise illegal("damage", "a damage kind only goes with choice 'damage'")
    if not (d.choice == "damage" and d.damage == "knockback") and d.direction is not None:
        raise illegal("direction", "a direction only goes with damage 'knockback'")
    if d.choice in ("roll", "concede"):
        if d.item is not None:
            raise illegal("item", f"no item goes with '{d.choice}'")
        return
    if d.choice == "use_item":
        if d.item is None:
            raise illegal("item", "use_item needs the `item` to play")
        if not any(o["item"] == d.item for o in options):
            raise illegal("item", _why_not_playable(d.item, side))
        return
    # damage
    if d.damage is None:
        raise illegal("damage", "choice 'damage' needs a `damage` kind")
    kinds = [o for o in options if o["damage"] == d.damage]
    if not kinds:
        if d.damage == "item" and d.item is not None:
            raise illegal("item", _why_not_damage_item(d.item, side))
        why = {
            "knockback": "knockback needs the loser's position",
            "swap": "swap needs both sides' positions",
            "item": "the winner has no unused damage item",
        }.get(d.damage, f"'{d.damage}' is not possible here")
        raise illegal("damage", why)
    if d.damage == "knockback":
        if d.direction is None:
            raise illegal("direction", "knockback needs a `direction`")
        if d.direction not in (kinds[0]["directions"] or []):
            raise illegal("direction", f"knockback {d.direction} leaves the board's bounds")
    if d.damage == "item":
        if d.item is None:
            raise illegal("item", "damage 'item' needs the `item` to use")
        if not any(o["item"] == d.item for o in kinds):
            raise illegal("item", _why_not_damage_item(d.item, side))
    elif d.item is not None:
        raise illegal("item", f"no item goes with damage '{d.damage}'")


def _why_not_playable(item_id: str, side: Side) -> str:
    item = next((i for i in side.items if i.id == item_id), None)
    if item is None:
        return f"item '{item_id}' is not one of this side's items"
    if item.timing != "counter":
        return f"item '{item_id}' is a {item.timing} item, not a counter item"
    return f"item '{item_id}' was already used (an item is used once)"


def _why_not_damage_item(item_id: str, side: Side) -> str:
    item = next((i for i in side.items if i.id == item_id), None)
    if item is None:
        return f"item '{item_id}' is not one of the winner's items"
    if item.damage is None:
        return f"item '{item_id}' deals no combat damage (no `damage`)"
    return f"item '{item_id}' was already used (an item is used once)"
