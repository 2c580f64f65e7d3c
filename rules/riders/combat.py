"""Dragon Riders combat resolved from the initial situation plus the decisions so far (RDR-1..10).

The resolver replays the combat from the start every time: the bonuses (RDR-2), the initiator's
roll-off, then each decision in order. Every die comes from its own slot (``rolloff.initiator``,
``rolloff.defender``, ``item.<id>``), and each slot is drawn at most once, so a request with one more
decision shows the same dice and goes one step further (RDR-8). When the decisions run out the
resolver stops and says who must decide and which choices are legal, or, with ``auto``, takes the
default decision (RDR-9).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.dice import DiceSource, SlotSpec
from rules.errors import FieldError, IllegalDecision, InvalidRequest
from rules.events import EventLog
from rules.models import MAX_STAT, trace
from rules.riders.models import (
    BASE_ROLLOFF_DICE,
    DIRECTIONS,
    MAX_FATIGUE,
    Awaiting,
    Bonuses,
    CombatRequest,
    CombatResult,
    Concession,
    CounterStep,
    Damage,
    Decision,
    Direction,
    FatigueDamage,
    Item,
    ItemDamage,
    ItemUse,
    KnockbackDamage,
    Option,
    Phase,
    Point,
    Position,
    RiderBonus,
    RollOff,
    Side,
    SideName,
    Skip,
    States,
    SwapDamage,
    Totals,
    parse_dice,
)
from rules.riders.text import TEXTS

D6 = 6
SIDES: tuple[SideName, SideName] = ("initiator", "defender")
#: What each phase asks for; which items or damage kinds are legal is checked after.
PHASE_CHOICES: dict[str, tuple[str, ...]] = {
    "rolloff": ("roll", "concede"),
    "counterattack": ("use_item", "concede"),
    "damage": ("damage",),
}


def other(side: SideName) -> SideName:
    return "defender" if side == "initiator" else "initiator"


def combat_slots(req: CombatRequest) -> SlotSpec:
    """Every slot the combat may draw from: both roll-offs (d6) and each item with dice."""
    slots: dict[str, int | None] = {"rolloff.initiator": D6, "rolloff.defender": D6}
    for side in (req.initiator, req.defender):
        for item in side.items:
            if item.dice is not None:
                slots[f"item.{item.id}"] = parse_dice(item.dice)[1]
    return slots


class _Stop(Exception):
    """The decisions ran out: the combat waits for this one."""

    def __init__(self, awaiting: Awaiting) -> None:
        super().__init__(awaiting.by)
        self.awaiting = awaiting


@dataclass
class _Combat:
    req: CombatRequest
    dice: DiceSource
    log: EventLog
    sides: dict[SideName, Side]
    taken: list[Decision] = field(default_factory=list)
    auto_filled: list[int] = field(default_factory=list)
    used: dict[SideName, list[Item]] = field(
        default_factory=lambda: {"initiator": [], "defender": []}
    )
    totals: dict[SideName, int | None] = field(
        default_factory=lambda: {"initiator": None, "defender": None}
    )

    # ------------------------------------------------------------ decisions (RDR-8..10)

    def take(self, by: SideName, phase: Phase, options: list[Option]) -> Decision:
        """The next decision: the caller's, the default (``auto``), or stop and await it."""
        index = len(self.taken)
        if index < len(self.req.decisions):
            decision = self.req.decisions[index]
            _check(decision, index, by=by, phase=phase, options=options, side=self.sides[by])
        elif self.req.auto:
            decision = _default(by, options)
            self.auto_filled.append(index)
        else:
            raise _Stop(Awaiting(by=by, decision=index, phase=phase, choices=options))
        self.taken.append(decision)
        return decision

    # ------------------------------------------------------------ items

    def use_item(self, by: SideName, item: Item) -> ItemUse:
        rolled: list[int] = []
        if item.dice is not None:
            count, sides = parse_dice(item.dice)
            rolled = self.dice.roll_many(f"item.{item.id}", sides, count)
        self.used[by].append(item)
        return ItemUse(
            id=item.id,
            name=item.name,
            bonus=item.bonus,
            dice=rolled,
            value=item.bonus + sum(rolled),
        )

    def is_used(self, by: SideName, item: Item) -> bool:
        return any(u.id == item.id for u in self.used[by])


def resolve_combat(req: CombatRequest, dice: DiceSource) -> CombatResult:
    """Resolve a Dragon Riders combat as far as the decisions go (RDR-1..10)."""
    _check_ids(req)
    log = EventLog(TEXTS)
    c = _Combat(
        req=req, dice=dice, log=log, sides={"initiator": req.initiator, "defender": req.defender}
    )
    bonuses = {side: _bonuses(c, side) for side in SIDES}
    rolloffs: dict[SideName, RollOff] = {}
    counter: list[CounterStep] = []
    damage: list[Damage] = []
    presumptive: SideName | None = None
    winner: SideName | None = None
    conceded: Concession | None = None
    skipped: Skip | None = None
    instances = 1
    awaiting: Awaiting | None = None
    try:
        # RDR-3: the initiator rolls, the defender rolls or concedes without rolling.
        rolloffs["initiator"] = _rolloff(c, "initiator", bonuses["initiator"].total)
        d = c.take("defender", "rolloff", [Option(choice="roll"), Option(choice="concede")])
        if d.choice == "concede":
            winner = "initiator"
            instances = 2
            conceded = Concession(
                by="defender", phase="rolloff", decision=len(c.taken) - 1, without_rolling=True
            )
            log.add("riders.rolloff.conceded", side="defender", decision=len(c.taken) - 1)
        else:
            rolloffs["defender"] = _rolloff(c, "defender", bonuses["defender"].total)
            ti, td = c.totals["initiator"], c.totals["defender"]
            assert ti is not None and td is not None
            presumptive = "defender" if td <= ti else "initiator"
            log.add(
                "riders.presumptive_loser.tie" if ti == td else "riders.presumptive_loser",
                loser=presumptive,
                loser_total=min(ti, td),
                other_total=max(ti, td),
            )
            winner, conceded = _counterattack(c, presumptive, counter)
        loser = other(winner)
        log.add("riders.winner", winner=winner, loser=loser)
        # RDR-6: damage, skipped for a Hide Shield or a ranged attack.
        skipped = _skip_reason(c, winner, loser)
        if skipped is not None:
            log.add(f"riders.damage.skipped.{skipped}", winner=winner, loser=loser)
        else:
            if instances == 2:
                log.add("riders.damage.double", loser=loser)
            for n in range(1, instances + 1):
                damage.append(_damage(c, winner, loser, n))
    except _Stop as stop:
        awaiting = stop.awaiting
    finished = awaiting is None
    if finished and len(req.decisions) > len(c.taken):
        extra = len(c.taken)
        msg = (
            f"decision {extra}: the combat is over after {extra} decision(s); "
            f"no further decision is expected"
        )
        raise IllegalDecision(msg, [FieldError(("decisions", extra), msg)])
    if not finished:
        assert awaiting is not None
        log.add(
            "riders.awaiting",
            by=awaiting.by,
            phase=awaiting.phase,
            decision=awaiting.decision,
            choices="; ".join(_describe(o) for o in awaiting.choices),
        )
    return CombatResult(
        finished=finished,
        winner=winner,
        loser=other(winner) if winner is not None else None,
        bonuses=bonuses,
        rolloff=rolloffs,
        presumptive_loser=presumptive,
        counterattack=counter,
        conceded=conceded,
        totals=Totals(initiator=c.totals["initiator"], defender=c.totals["defender"]),
        damage=damage,
        damage_instances=instances,
        damage_skipped=skipped,
        state=States(initiator=c.sides["initiator"], defender=c.sides["defender"]),
        awaiting=awaiting,
        decisions=c.taken,
        auto_filled=c.auto_filled,
        **trace(dice, log),
    )


# ---------------------------------------------------------------- phases


def _bonuses(c: _Combat, side: SideName) -> Bonuses:
    """RDR-2: riders' elemental bonuses (none at 3 fatigue) + terrain + pre-combat items."""
    me, foe = c.sides[side], c.sides[other(side)]
    riders = [
        RiderBonus(id=r.id, current=r.current, bonus=r.bonuses.get(foe.element, 0))
        for r in me.riders
    ]
    elemental = sum(r.bonus for r in riders)
    counted = me.fatigue < MAX_FATIGUE
    if not counted:
        c.log.add("riders.bonus.fatigued", side=side, elemental=elemental)
    items: list[ItemUse] = []
    for item in me.items:
        if item.timing == "pre":
            use = c.use_item(side, item)
            items.append(use)
            c.log.add(
                "riders.item.pre",
                side=side,
                item=item.id,
                name=item.name,
                dice=use.dice,
                value=use.value,
                extra_dice=item.extra_rolloff_dice,
            )
    total = (elemental if counted else 0) + me.terrain_bonus + sum(i.value for i in items)
    c.log.add(
        "riders.bonus",
        side=side,
        elemental=elemental if counted else 0,
        terrain=me.terrain_bonus,
        items=sum(i.value for i in items),
        total=total,
    )
    return Bonuses(
        riders=riders,
        elemental=elemental,
        elemental_counted=counted,
        terrain=me.terrain_bonus,
        items=items,
        extra_rolloff_dice=me.extra_rolloff_dice,
        total=total,
    )


def _rolloff(c: _Combat, side: SideName, bonus: int) -> RollOff:
    """RDR-3: 2d6, plus one d6 per rage level and each pre item's extra dice, plus the bonus."""
    me = c.sides[side]
    slot = f"rolloff.{side}"
    count = BASE_ROLLOFF_DICE + me.rage + me.extra_rolloff_dice
    rolled = c.dice.roll_many(slot, D6, count)
    total = sum(rolled) + bonus
    c.totals[side] = total
    c.log.add(
        "riders.rolloff",
        side=side,
        count=count,
        dice=rolled,
        sum=sum(rolled),
        bonus=bonus,
        total=total,
    )
    return RollOff(
        slot=slot,
        dice=rolled,
        rage_dice=me.rage,
        item_dice=me.extra_rolloff_dice,
        sum=sum(rolled),
        bonus=bonus,
        total=total,
    )


def _counterattack(
    c: _Combat, presumptive: SideName, steps: list[CounterStep]
) -> tuple[SideName, Concession]:
    """RDR-4, RDR-5: the side behind plays counter items until strictly higher, or concedes."""
    behind = presumptive
    while True:
        options = [
            Option(choice="use_item", item=i.id)
            for i in c.sides[behind].items
            if i.timing == "counter" and not c.is_used(behind, i)
        ]
        options.append(Option(choice="concede"))
        d = c.take(behind, "counterattack", options)
        index = len(c.taken) - 1
        if d.choice == "concede":
            winner = other(behind)
            c.log.add("riders.conceded", side=behind, winner=winner, decision=index)
            return winner, Concession(
                by=behind, phase="counterattack", decision=index, without_rolling=False
            )
        item = next(i for i in c.sides[behind].items if i.id == d.item)
        use = c.use_item(behind, item)
        mine, theirs = c.totals[behind], c.totals[other(behind)]
        assert mine is not None and theirs is not None
        mine += use.value
        c.totals[behind] = mine
        changed = mine > theirs
        c.log.add(
            "riders.counter.item",
            side=behind,
            item=item.id,
            name=item.name,
            dice=use.dice,
            value=use.value,
            total=mine,
            other_total=theirs,
        )
        if changed:
            c.log.add("riders.counter.lead", side=behind, total=mine, other_total=theirs)
        steps.append(
            CounterStep(
                decision=index,
                by=behind,
                item=use,
                total=mine,
                totals=Totals(initiator=c.totals["initiator"], defender=c.totals["defender"]),
                leader=behind if changed else other(behind),
                lead_changed=changed,
            )
        )
        if changed:
            behind = other(behind)


def _made_ranged_attack(c: _Combat, side: SideName) -> bool:
    attack = side == "initiator" and c.req.attack.ranged
    return attack or any(i.ranged for i in c.used[side])


def _skip_reason(c: _Combat, winner: SideName, loser: SideName) -> Skip | None:
    """RDR-6: no damage if the winner used a Hide Shield or the loser made a ranged attack."""
    if any(i.hide_shield for i in c.used[winner]):
        return "hide_shield"
    if _made_ranged_attack(c, loser):
        return "ranged"
    return None


def _knockback_directions(pos: Position) -> list[Direction]:
    return [
        name
        for name, (dx, dy) in DIRECTIONS.items()
        if abs(pos.x + dx) <= MAX_STAT and abs(pos.y + dy) <= MAX_STAT
    ]


def _damage(c: _Combat, winner: SideName, loser: SideName, n: int) -> Damage:
    """RDR-6: the winner picks one damage: fatigue, knockback, swap or a damage item."""
    me, foe = c.sides[winner], c.sides[loser]
    options = [Option(choice="damage", damage="fatigue")]
    if foe.position is not None:
        directions = _knockback_directions(foe.position)
        if directions:
            options.append(Option(choice="damage", damage="knockback", directions=directions))
    if me.position is not None and foe.position is not None:
        options.append(Option(choice="damage", damage="swap"))
    for item in me.items:
        if item.damage is not None and item.timing != "pre" and not c.is_used(winner, item):
            options.append(Option(choice="damage", damage="item", item=item.id))
    d = c.take(winner, "damage", options)
    index = len(c.taken) - 1
    if d.damage == "fatigue":
        if foe.fatigue < MAX_FATIGUE:
            foe = foe.model_copy(update={"fatigue": foe.fatigue + 1})
            c.sides[loser] = foe
            c.log.add("riders.damage.fatigue", loser=loser, fatigue=foe.fatigue, n=n)
            return FatigueDamage(
                decision=index, fatigue=foe.fatigue, rider_lost=False, riders_lost=[], rage=foe.rage
            )
        lost = [r.id for r in foe.riders if r.current]
        rider_lost = foe.has_rider
        foe = foe.model_copy(
            update={
                "rage": foe.rage + 1,
                "has_rider": False,
                "riders": [r for r in foe.riders if not r.current],
            }
        )
        c.sides[loser] = foe
        c.log.add(
            "riders.damage.fatigue_at_max",
            loser=loser,
            rider_lost=rider_lost,
            riders=lost,
            rage=foe.rage,
            n=n,
        )
        return FatigueDamage(
            decision=index,
            fatigue=foe.fatigue,
            rider_lost=rider_lost,
            riders_lost=lost,
            rage=foe.rage,
        )
    if d.damage == "knockback":
        assert foe.position is not None and d.direction is not None
        dx, dy = DIRECTIONS[d.direction]
        before = foe.position
        after = before.model_copy(update={"x": before.x + dx, "y": before.y + dy})
        c.sides[loser] = foe.model_copy(update={"position": after})
        c.log.add(
            "riders.damage.knockback",
            loser=loser,
            direction=d.direction,
            x=after.x,
            y=after.y,
            n=n,
        )
        return KnockbackDamage(
            decision=index,
            direction=d.direction,
            before=Point(x=before.x, y=before.y),
            after=Point(x=after.x, y=after.y),
        )
    if d.damage == "swap":
        assert me.position is not None and foe.position is not None
        mine, theirs = me.position, foe.position
        c.sides[winner] = me.model_copy(update={"position": theirs})
        c.sides[loser] = foe.model_copy(update={"position": mine})
        c.log.add("riders.damage.swap", winner=winner, loser=loser, n=n)
        return SwapDamage(decision=index, winner=theirs, loser=mine)
    item = next(i for i in me.items if i.id == d.item)
    c.used[winner].append(item)
    assert item.damage is not None
    c.log.add(
        "riders.damage.item", winner=winner, loser=loser, name=item.name, effect=item.damage, n=n
    )
    return ItemDamage(decision=index, item=item.id, name=item.name, effect=item.damage)


# ---------------------------------------------------------------- checks and defaults


def _check_ids(req: CombatRequest) -> None:
    """Item ids name slots (``item.<id>``), so they must be unique across both sides."""
    seen: dict[str, str] = {}
    for side in SIDES:
        for j, item in enumerate(getattr(req, side).items):
            where = f"{side}.items[{j}]"
            if item.id in seen:
                raise InvalidRequest.at(
                    (side, "items", j, "id"),
                    f"item id '{item.id}' is already used by {seen[item.id]}: item ids must be "
                    f"unique across both sides (each rolls in slot item.<id>)",
                )
            seen[item.id] = where


def _default(by: SideName, options: list[Option]) -> Decision:
    """RDR-9: roll; play the first counter item left, else concede; damage by fatigue."""
    first = options[0]
    if first.choice == "damage":
        return Decision(by=by, choice="damage", damage="fatigue")
    return Decision(by=by, choice=first.choice, item=first.item)


def _describe(o: Option) -> str:
    if o.choice == "use_item":
        return f"use_item {o.item}"
    if o.choice == "damage":
        if o.damage == "item":
            return f"damage item {o.item}"
        if o.damage == "knockback":
            return f"damage knockback ({'/'.join(o.directions or [])})"
        return f"damage {o.damage}"
    return o.choice


def _check(
    d: Decision, index: int, *, by: SideName, phase: Phase, options: list[Option], side: Side
) -> None:
    """RDR-10: a decision must be one of the legal options at its point, else IllegalDecision."""
    expected = ", ".join(_describe(o) for o in options)
    where = f"decision {index} ({phase})"

    def illegal(part: str | None, msg: str) -> IllegalDecision:
        loc: tuple[str | int, ...] = (
            ("decisions", index) if part is None else ("decisions", index, part)
        )
        text = f"{where}: {msg}; expected from the {by}: {expected}"
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
        if not any(o.item == d.item for o in options):
            raise illegal("item", _why_not_playable(d.item, side))
        return
    # damage
    if d.damage is None:
        raise illegal("damage", "choice 'damage' needs a `damage` kind")
    kinds = [o for o in options if o.damage == d.damage]
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
        if d.direction not in (kinds[0].directions or []):
            raise illegal("direction", f"knockback {d.direction} leaves the board's bounds")
    if d.damage == "item":
        if d.item is None:
            raise illegal("item", "damage 'item' needs the `item` to use")
        if not any(o.item == d.item for o in kinds):
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
