"""A request for each message the engine refuses with (``rules/``), as a table would send it, and
the template of ``service.problem_texts`` that tells it (its catalog context): what
``tests/service/test_problem_texts.py`` sends in every language. The few messages no request can
reach are listed in :data:`UNREACHED`, each with why and its English as the engine writes it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Literal

#: Which app a request is sent to: the default one; ``tight`` (a budget of 1 base die: every
#: resolver's budget refusal); ``loose`` (no dice budget to speak of: the answer's size refuses);
#: ``none`` (a budget of 0 base dice).
App = Literal["default", "tight", "loose", "none"]


@dataclass(frozen=True)
class Case:
    context: str
    path: str
    body: Any
    app: App = "default"


# ---------------------------------------------------------------- bodies

ATTACKER = {"dexterity": 25, "strength": 18, "skill": 2, "weapon": {"kind": "melee", "damage": 5}}
DEFENDER = {"dexterity": 9, "block": 1, "hp": 12, "max_hp": 12}


def attack(attacker: dict[str, Any] | None = None, defender: dict[str, Any] | None = None,
           **more: Any) -> dict[str, Any]:  # fmt: skip
    """A /dos/attack request: Ignatius on the kobold, changed."""
    return {
        "attacker": {**ATTACKER, **(attacker or {})},
        "defender": {**DEFENDER, **(defender or {})},
        **more,
    }


def fighter(id_: str, side: str = "a", **more: Any) -> dict[str, Any]:
    """A combatant of a /dos/turn request."""
    return {"id": id_, "side": side, "speed": 12, "dexterity": 10, "hp": 10, **more}


def turn(*combatants: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"combatants": list(combatants), **more}


B = fighter("b", "b")


def declares(**declaration: Any) -> dict[str, Any]:
    """A /dos/turn request in which ``a`` declares one thing against ``b``."""
    return turn(fighter("a", declare=[declaration]), B)


def entity(
    id_: str, controller: str = "gm", kind: str = "individual", **more: Any
) -> dict[str, Any]:
    return {"id": id_, "controller": controller, "kind": kind, "prosperity": 2, "level": 2, **more}


def battle(*entities: dict[str, Any], target: str = "g", **more: Any) -> dict[str, Any]:
    """A /dragon/battle request: an age-3 dragon attacking ``target``."""
    dragon = {"age": 3, "battle": 2, "target": target, **more.pop("dragon", {})}
    return {"dragon": dragon, "entities": list(entities), **more}


G = entity("g", target="dragon")
PLAYER = entity("p", "player", target="g")
ASIDE = entity("s", aside=True)

RIDERS: dict[str, Any] = {
    "initiator": {
        "id": "red",
        "element": "fire",
        "position": {"x": 0, "y": 0, "facing": "E"},
        "items": [
            {"id": "lance", "name": "Lance", "timing": "counter", "dice": "1d6"},
            {"id": "hook", "name": "Hook", "timing": "damage", "damage": "pulls the foe"},
        ],
    },
    "defender": {
        "id": "blue",
        "element": "water",
        "position": {"x": 1, "y": 0, "facing": "W"},
        "items": [
            {"id": "bolt", "name": "Bolt", "timing": "counter", "bonus": 3},
            {"id": "shield", "name": "Shield", "timing": "damage", "damage": "blocks a blow"},
        ],
    },
}


def riders(*decisions: dict[str, Any], initiator: dict[str, Any] | None = None,
           defender: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:  # fmt: skip
    """A /riders/combat request (the defender rolls first, then the loser may counter, then the
    winner chooses the damage), its sides changed."""
    body = copy.deepcopy(RIDERS)
    body["initiator"].update(initiator or {})
    body["defender"].update(defender or {})
    return {**body, "decisions": list(decisions), "seed": "s1", **more}


def decision(by: str, choice: str, **more: Any) -> dict[str, Any]:
    return {"by": by, "choice": choice, **more}


ROLL = decision("defender", "roll")
#: The roll-off lost and conceded: the initiator's damage step is next.
WON = (ROLL, decision("defender", "concede"))


def creature(id_: str, side: str = "players", **more: Any) -> dict[str, Any]:
    """A combatant of a /dnd5e/initiative request."""
    return {"id": id_, "side": side, "dex_mod": 1, "passive_perception": 12, **more}


def initiative(*combatants: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"combatants": list(combatants), **more}


def damage(dice: str = "1d8+3", **target: Any) -> dict[str, Any]:
    """A /dnd5e/attack request whose damage is ``dice``."""
    return {
        "attack_bonus": 5,
        "damage": [{"dice": dice, "type": "slashing"}],
        "target": {"ac": 13, "hp": 22, "max_hp": 22, **target},
    }


def roll(notation: str, dialect: str | None = None, **more: Any) -> dict[str, Any]:
    return {"notation": notation, **({"dialect": dialect} if dialect else {}), **more}


def case(context: str, path: str, body: Any, app: App = "default") -> Case:
    return Case(context, path, body, app)


# ---------------------------------------------------------------- the cases

ROLL_PATH = "/dice/roll"
ODDS_PATH = "/dice/odds"
TURN = "/dos/turn"
DRAGON = "/dragon/battle"
RIDE = "/riders/combat"
INITIATIVE = "/dnd5e/initiative"
ATTACK5 = "/dnd5e/attack"


def _notation(context: str, notation: str, dialect: str | None = None, **more: Any) -> Case:
    return case(context, ROLL_PATH, roll(notation, dialect, **more))


NOTATION = (
    _notation("notation=length", "@a", data={"a": "1+" * 260 + "1"}),
    _notation("notation=expected_number", "4d6min"),
    _notation("notation=range", "2d0"),
    _notation("notation=start", " "),
    _notation("notation=after", "2d6)"),
    _notation("notation=nesting", "(" * 51 + "1" + ")" * 51),
    _notation("notation=close", "(1d6"),
    _notation("notation=close|pool", "{1d6, 1d8"),
    _notation("notation=pool_size", "{" + ", ".join(["1"] * 21) + "}kh"),
    _notation("notation=term", "2d6+"),
    _notation("notation=call", "floor(1d6"),
    _notation("notation=shorthand", "2d6+foo"),
    _notation("notation=terms", "+".join(["1d6"] * 21)),
    _notation("notation=label", "1d20[fire"),
    _notation("notation=label_length", "1d20[" + "x" * 40 + "]"),
    _notation("notation=count", "101d6"),
    _notation("notation=avrae_d", "1D20", "avrae"),
    _notation("notation=avrae_fate", "4dF", "avrae"),
    _notation("notation=sides", "2dx"),
    _notation("notation=nested", "(100d6)d6"),
    _notation("notation=nested_modifiers", "(2d6)d6kh1"),
    _notation("notation=roll20_group", "{4d6+3d8}k4", "roll20"),
    _notation("notation=pool_keep", "{1d6, 1d8}q"),
    _notation("notation=pool_holds", "{1d6, 1d8}kh3"),
    _notation("notation=min_max", "4d6min5max2"),
    _notation("notation=modifier", "4d6q"),
    _notation("notation=matches", "4d6m!", "roll20"),
    _notation("notation=term_rolls", "2d6kh3"),
    _notation("notation=cs_after_cf", "4d6cf<2cs"),
    _notation("notation=cf_after_cs", "4d6cscf"),
    _notation("notation=deducts|cs", "4d6df"),
    _notation("notation=deducts", "4d6f1", "roll20"),
    _notation("notation=rerolled", "1d6r<7"),
    _notation("notation=explodes_once", "1d6xx"),
    _notation("notation=explode", "1d6x>0"),
    _notation("notation=once", "1d6rr1r2"),
    _notation("notation=selector", "4d6kx", "avrae"),
    _notation("notation=compare", "4d6cf"),
    _notation("notation=divisor", "1d6/(1d3-2)"),
    _notation("notation=total", "1000000*1000000*1000000"),
    _notation("notation=command", "/r"),
    _notation("notation=inline", "[[1d6]] and [[1d8]]"),
    _notation("notation=iterations_dice", "!rr 6", "avrae"),
    _notation("notation=iterations_first", "!rr x 1d6", "avrae"),
    _notation("notation=iterations", "!rr 200 1d6", "avrae"),
    _notation("notation=dc_first", "!rrr 6", "avrae"),
    _notation("notation=quoted", '!rrr 6 "1d20+5 15', "avrae"),
    _notation("notation=dc", "!rrr 6 1d20 x", "avrae"),
    _notation("notation=advantage|higher", "1d20rr1 adv", "avrae"),
    _notation("notation=advantage|lower", "1d20rr1 dis", "avrae"),
    _notation("notation=avrae_word", "1d20 adv", "roll20"),
    _notation("notation=spaced_modifier", "4d6 kh3", "roll20"),
    _notation("notation=dice_comment", "1d20 2d6", "roll20"),
    _notation("notation=references", "+".join(["@a"] * 21), data={"a": 1}),
    _notation("notation=reference", "@a", data={}),
    _notation("notation=reference_value", "@a", data={"a": [1]}),
    _notation("notation=reference_whole", "@a", data={"a": 1.5}),
    _notation("notation=reference_deeper", "@a", data={"a": "@b"}),
    # another tool's dice: Dice Maiden's, each of its modifiers
    _notation("notation.maiden", "4d6 k3", "roll20"),
    _notation("notation.maiden=sets", "6 4d6 k3"),
    _notation("notation.maiden=plain,sets", "6 4d6"),
    _notation("notation=maiden", "6 4d6 k3"),
    _notation("notation.maiden.modifier=ie", "10d10 ie r2 kl3 t8 f1"),
    _notation("notation.maiden.modifier=e", "10d10 e ir2 k3 d1"),
    # what a number is, what was found, the modifiers a dialect reads
    _notation("notation.thing=number", "99999999"),
    _notation("notation.thing=pool_keep", "{1d6, 1d8}kh0"),
    _notation("notation.thing=dice_keep", "4d6kh0"),
    _notation("notation.thing=match", "4d6m1", "roll20"),
    _notation("notation.thing=clamp", "4d6min"),
    _notation("notation.thing=selects", "4d6k1001", "avrae"),
    _notation("notation.thing=compares", "4d6cs>"),
    _notation("notation.thing=group_successes", "{1d6, 1d8}>", "roll20"),
    _notation("notation.thing=success", "4d6>", "roll20"),
    _notation("notation.thing=successes", "4d6cs>3cs>4"),
    _notation("notation.thing=failures", "4d6cs>3df1df2"),
    _notation("notation.thing=sort", "4d6ss", "roll20"),
    _notation("notation.thing=matches", "4d6mm", "roll20"),
    _notation("notation.found=end", "2d6+"),
    _notation("notation.modifiers=roll20", "4d6q", "roll20"),
    _notation("notation.modifiers=avrae", "4d6q", "avrae"),
    _notation("notation.change=reroll", "4d6r1m", "roll20"),
    _notation("notation.change=success", "4d6>3f1m", "roll20"),
    _notation("notation.change=keep", "4d6kh3m", "roll20"),
    # the detail: another dialect's reading, the data references replaced
    _notation("engine=notation|dialects", "4dF", "avrae"),
    _notation("engine=notation|replaced", "@a", data={"a": "2d6+"}),
    _notation("engine=notation|replaced,dialects", "@a", data={"a": "4d6sa"}),
    _notation("engine=notation.repeat", "!rr 6 4d6kh3", "avrae", repeat=3),
    case(
        "engine=notation.draw",
        "/dice/draw",
        {"draws": [{"slot": "a", "sides": 6, "count": 1}, {"slot": "a", "sides": 6, "count": 1}]},
    ),
)


def _odds(context: str, notation: str, dialect: str | None = None) -> Case:
    return case(context, ODDS_PATH, roll(notation, dialect))


ODDS = (
    _odds("engine=notation.odds|values", "10d1000"),
    _odds("engine=notation.odds|bits", "100d1000"),
    _odds("engine=notation.odds|divides", "floor(100d100/100d100)"),
    _odds("engine=notation.odds|combines-up-to", "100d100*100d100"),
    _odds("engine=notation.odds|pool", "{50d100, 50d100, 50d100}kh2"),
    _odds("engine=notation.odds|keep", "100d1000kh50"),
    _odds("engine=notation.odds|fractions", "100d100m", "roll20"),
    _odds("engine=notation.odds|matches", "100d100mt", "roll20"),
    _odds("engine=notation.odds|programme", "20d10x>5kh3"),
    _odds("engine=notation.odds|explosions", "100d10r<3x>6kh1"),
    _odds("engine=notation.odds|steps", "25d6x>2kh3"),
    _odds("engine=notation.odds", "10d1000"),
)

DOS = (
    case("engine=combat.duplicate", TURN, turn(fighter("a"), fighter("a", "b"))),
    case("engine=combat.reference|combatant", TURN, turn(fighter("a", opponents=["zz"]), B)),
    case("engine=combat.own|combatant", TURN, turn(fighter("a", opponents=["a"]), B)),
    case("engine=combat.twice|combatant", TURN, turn(fighter("a", opponents=["b", "b"]), B)),
    case("engine=combat.reference", TURN, turn(fighter("a"), B, order=["a", "b", "zz"])),
    case("engine=combat.twice", TURN, turn(fighter("a"), B, order=["a", "b", "a"])),
    case(
        "combat.role=placed",
        "/dos/initiative",
        {"combatants": [{"id": "a", "speed": 9}], "first": ["zz"]},
    ),
    case("combat.role=opponent", TURN, turn(fighter("a", opponents=["zz"]), B)),
    case("combat.role=order", TURN, turn(fighter("a"), B, order=["a", "b", "zz"])),
    case("engine=combat.order", TURN, turn(fighter("a"), B, order=["a"])),
    case("engine=combat.first", TURN, turn(fighter("a"), B, order=["a", "b"], first=["a"])),
    case("engine=combat.no_target", TURN, declares(action="wait", target="b")),
    case("engine=combat.needs_target", TURN, declares(action="attack")),
    case("engine=combat.unknown_target", TURN, declares(action="attack", target="zz")),
    case("engine=combat.self_target", TURN, declares(action="attack", target="a")),
    case("engine=combat.attack_field", TURN, declares(action="wait", aim="head")),
    case("engine=combat.count", TURN, declares(action="wait", count=2)),
    case(
        "engine=combat.at_range",
        TURN,
        turn(
            fighter(
                "a",
                weapon={"kind": "thrown", "damage": 2},
                declare=[{"action": "attack", "target": "b"}],
            ),
            B,
        ),
    ),
    case(
        "engine=combat.not_at_range", TURN, declares(action="attack", target="b", ranged={"dc": 9})
    ),
    case(
        "engine=combat.no_dodge_target",
        TURN,
        declares(action="attack", target="b", defense="dodge"),
    ),
    case(
        "engine=combat.alone",
        TURN,
        turn(fighter("a", declare=[{"action": "run"}, {"action": "wait"}]), B),
    ),
    case("engine=combat.metres", TURN, declares(action="wait", metres=1)),
    case(
        "engine=combat.one_step",
        TURN,
        turn(fighter("a", speed=40, declare=[{"action": "step"}, {"action": "step"}]), B),
    ),
    case("engine=combat.step_length", TURN, declares(action="step", metres=10)),
    case("combat.declaration", TURN, declares(action="step", metres=10)),
    case("engine=combat.dodge_defense", TURN, turn(fighter("a", defense="dodge"), B)),
    case("engine=combat.actions", TURN, declares(action="attack", target="b", count=50)),
    case(
        "engine=combat.turn_limit",
        TURN,
        turn(
            fighter("a", speed=1000, declare=[{"action": "attack", "target": "b", "count": 1000}]),
            fighter("b", "b", speed=1, declare=[{"action": "attack", "target": "a"}]),
            dice={"a.1.attack": [5]},  # the slots are counted where a script is checked
        ),
    ),
    case("engine=more", TURN, turn(fighter("a", opponents=["zz", "yy"]), B)),
    case(
        "engine=combat.tie",
        "/dos/initiative",
        {
            "combatants": [{"id": "a", "speed": 9}, {"id": "b", "speed": 9}],
            "dice": {"initiative.a": [5] * 102, "initiative.b": [5] * 102},
        },
    ),
    case(
        "combat.defense.verb=block",
        "/dos/attack",
        attack(defender={"incapacitated": True}, defense="block"),
    ),
    case(
        "combat.defense.verb=dodge",
        "/dos/attack",
        attack(defender={"dodge": 1, "incapacitated": True}, defense="dodge"),
    ),
    case(
        "engine=combat.no_block",
        "/dos/attack",
        attack(defender={"blocks_used": 2}, defense="block"),
    ),
    case(
        "combat.defense=block", "/dos/attack", attack(defender={"blocks_used": 2}, defense="block")
    ),
    case("engine=combat.no_dodge", "/dos/attack", attack(defense="dodge")),
    case("combat.defense=dodge", "/dos/attack", attack(defense="dodge")),
    case(
        "engine=combat.ranged", "/dos/attack", attack({"weapon": {"kind": "thrown", "damage": 2}})
    ),
    case("engine=combat.melee", "/dos/attack", attack(ranged={"dc": 10})),
    case(
        "engine=combat.odds_ranged",
        "/dos/odds/attack",
        {
            "attacker": {**ATTACKER, "weapon": {"kind": "thrown", "damage": 2}},
            "defender": {"dexterity": 9, "hp": 12},
        },
    ),
    case("engine=combat.odds_pool", "/dos/odds/test", {"stat": 10, "skill": 60, "dc": 30}),
    case("engine=combat.odds_pool|field", "/dos/odds/test", {"stat": 10, "skill": 60, "dc": 30}),
    # the models' own checks
    case(
        "error=value_error|combat.difficulty",
        "/dos/test",
        {"stat": 24, "skill": 3, "dc": 43, "difficulty": "hard", "modifier_percent": 10},
    ),
    case(
        "error=value_error|combat.defense_difficulty",
        "/dos/attack",
        attack(defense_difficulty="hard", defense_modifier_percent=10),
    ),
    case(
        "error=value_error|combat.successes_needed",
        "/dos/complex",
        {"stat": 9, "skill": 2, "dc": 20, "attempts": 2, "successes_needed": 3},
    ),
    case(
        "error=value_error|combat.unarmed",
        "/dos/attack",
        attack({"weapon": {"kind": "unarmed", "damage": 3}}),
    ),
    case("error=value_error|hp", "/dos/attack", attack(defender={"hp": 20})),
    case(
        "error=value_error|combat.damage",
        "/dos/damage",
        {"strength": 18, "target": {"hp": 12, "max_hp": 12}},
    ),
    case(
        "error=value_error|combat.amount",
        "/dos/damage",
        {"strength": 18, "amount": 3, "target": {"hp": 12, "max_hp": 12}},
    ),
    case(
        "error=value_error|combat.kind",
        "/dos/damage",
        {
            "strength": 18,
            "weapon": {"kind": "melee", "damage": 5},
            "kind": "light",
            "target": {"hp": 12, "max_hp": 12},
        },
    ),
    case(
        "error=value_error|combat.blocks_used", "/dos/attack", attack(defender={"blocks_used": 5})
    ),
    case(
        "error=value_error|combat.dodges_used", "/dos/attack", attack(defender={"dodges_used": 5})
    ),
    case(
        "error=value_error|combat.running",
        "/dos/attack",
        attack(defender={"running": True, "stopped": True}),
    ),
    case("prefix=combatant", TURN, turn(fighter("a", max_hp=5), B)),
)

#: A battle past the minority limit: refused with both of its texts (the rule and the field).
MINORITY_LIMIT = battle(
    entity("g", kind="group", prosperity=5, level=3, target="dragon"),
    *[entity(f"x{i}", aside=True) for i in range(99)],
    dragon={"age": 1, "battle": 1},
    dice={"pool.dragon": [1], "pool.g": [6] * 5},
)

DRAGONS = (
    case("engine=battle.join_self", DRAGON, battle(G, entity("j", if_left_over="join:j"))),
    case("engine=battle.join_dragon", DRAGON, battle(G, entity("j", if_left_over="join:dragon"))),
    case("engine=battle.attack_dragon", DRAGON, battle(G, entity("p", "player", target="dragon"))),
    case("engine=battle.join_unknown", DRAGON, battle(G, entity("j", if_left_over="join:zz"))),
    case("engine=battle.join_enemy", DRAGON, battle(G, PLAYER, entity("j", if_left_over="join:p"))),
    case("engine=battle.join_aside", DRAGON, battle(G, ASIDE, entity("j", if_left_over="join:s"))),
    case("engine=battle.target_ally", DRAGON, battle(G, entity("h", target="g"))),
    case("engine=battle.target_aside", DRAGON, battle(G, ASIDE, entity("h", target="s"))),
    case("engine=battle.target_unknown", DRAGON, battle(G, entity("h", target="zz"))),
    case("engine=battle.target_self", DRAGON, battle(G, entity("h", target="h"))),
    case("engine=battle.defeated", DRAGON, battle(G, dragon={"wounds": 2})),
    case("engine=battle.defeated|field", DRAGON, battle(G, dragon={"wounds": 2})),
    case("engine=battle.rounds", DRAGON, battle(G, continues=True, round=1000)),
    case("engine=battle.rounds|field", DRAGON, battle(G, continues=True, round=1000)),
    case("engine=battle.dragon_id|rename", DRAGON, battle(G, entity("dragon"))),
    case(
        "engine=battle.dragon_id",
        DRAGON,
        battle(G, location={"id": "dragon", "prosperity": 2}),
    ),
    case("engine=battle.twice", DRAGON, battle(G, entity("g"))),
    case("engine=battle.own_parent", DRAGON, battle(G, entity("h", parent="h"))),
    case("engine=battle.individual", DRAGON, battle(G, entity("h", slayer_prosperity=1))),
    case("engine=battle.parent", DRAGON, battle(G, entity("h", parent="zz"))),
    case(
        "engine=battle.minority",
        DRAGON,
        battle(G, entity("h", kind="group", slayer_prosperity=5)),
    ),
    case("engine=battle.dragon_target|unknown", DRAGON, battle(G, target="zz")),
    case("engine=battle.dragon_target|player", DRAGON, battle(G, PLAYER, target="p")),
    case("engine=battle.dragon_target|aside", DRAGON, battle(G, ASIDE, target="s")),
    case(
        "engine=battle.cycle", DRAGON, battle(G, entity("h", parent="i"), entity("i", parent="h"))
    ),
    case("engine=battle.minority_limit", DRAGON, MINORITY_LIMIT),
    case("engine=battle.minority_limit|field", DRAGON, MINORITY_LIMIT),
    case(
        "error=value_error|battle.pool",
        DRAGON,
        battle(G, dragon={"battle": 90, "features_used": 20}),
    ),
)

RIDERS_CASES = (
    case("duel.why=by", RIDE, riders(decision("initiator", "roll"))),
    case("engine=duel.illegal", RIDE, riders(decision("initiator", "roll"))),
    case("duel.why=choice", RIDE, riders(decision("defender", "damage"))),
    case("duel.why=damage", RIDE, riders(decision("defender", "roll", damage="fatigue"))),
    case("duel.why=direction", RIDE, riders(decision("defender", "roll", direction="N"))),
    case("duel.why=item", RIDE, riders(decision("defender", "roll", item="bolt"))),
    case("duel.why=use_item", RIDE, riders(ROLL, decision("defender", "use_item"))),
    case("duel.why=side", RIDE, riders(ROLL, decision("defender", "use_item", item="zz"))),
    case("duel.why=counter", RIDE, riders(ROLL, decision("defender", "use_item", item="shield"))),
    case(
        "duel.why=used",
        RIDE,
        riders(
            ROLL,
            decision("defender", "use_item", item="bolt"),
            decision("defender", "use_item", item="bolt"),
        ),
    ),
    case("duel.why=damage_kind", RIDE, riders(*WON, decision("initiator", "damage"))),
    case(
        "duel.why=winner",
        RIDE,
        riders(*WON, decision("initiator", "damage", damage="item", item="zz")),
    ),
    case(
        "duel.why=no_damage",
        RIDE,
        riders(*WON, decision("initiator", "damage", damage="item", item="lance")),
    ),
    case(
        "duel.why=swap",
        RIDE,
        riders(*WON, decision("initiator", "damage", damage="swap"), initiator={"position": None}),
    ),
    case(
        "duel.why=knockback",
        RIDE,
        riders(
            *WON,
            decision("initiator", "damage", damage="knockback", direction="N"),
            defender={"position": None},
        ),
    ),
    case(
        "duel.why=no_item",
        RIDE,
        riders(*WON, decision("initiator", "damage", damage="item"), initiator={"items": []}),
    ),
    case(
        "duel.why=direction_needed",
        RIDE,
        riders(*WON, decision("initiator", "damage", damage="knockback")),
    ),
    case(
        "duel.why=bounds",
        RIDE,
        riders(
            *WON,
            decision("initiator", "damage", damage="knockback", direction="E"),
            defender={"position": {"x": 1_000_000, "y": 0, "facing": "W"}},
        ),
    ),
    case(
        "duel.why=damage_item", RIDE, riders(*WON, decision("initiator", "damage", damage="item"))
    ),
    case(
        "duel.why=damage_with_item",
        RIDE,
        riders(*WON, decision("initiator", "damage", damage="fatigue", item="hook")),
    ),
    case(
        "engine=duel.over",
        RIDE,
        riders(
            *WON,
            decision("initiator", "damage", damage="fatigue"),
            decision("initiator", "roll"),
        ),
    ),
    case(
        "engine=duel.item_id",
        RIDE,
        riders(defender={"items": [{"id": "lance", "name": "L", "timing": "counter", "bonus": 1}]}),
    ),
    case(
        "error=value_error|duel.extra_rolloff_dice",
        RIDE,
        riders(
            initiator={
                "items": [{"id": "x", "name": "X", "timing": "counter", "extra_rolloff_dice": 1}]
            }
        ),
    ),
    case(
        "error=value_error|duel.damage_item",
        RIDE,
        riders(initiator={"items": [{"id": "x", "name": "X", "timing": "damage"}]}),
    ),
    case(
        "error=value_error|duel.has_rider",
        RIDE,
        riders(initiator={"has_rider": False, "riders": [{"id": "ash", "current": True}]}),
    ),
    case("error=value_error|duel.rolloff", RIDE, riders(initiator={"rage": 99})),
)

FIFTH = (
    case(
        "engine=initiative.group",
        INITIATIVE,
        initiative(
            creature("g1", "gm", group="goblins"),
            creature("g2", "gm", group="goblins", dex_mod=3),
            creature("f"),
        ),
    ),
    case(
        "engine=initiative.dexterity",
        INITIATIVE,
        initiative(creature("f"), creature("g", "gm"), tie_break="dexterity"),
    ),
    case(
        "engine=initiative.twice",
        INITIATIVE,
        initiative(creature("f"), creature("g", "gm"), tie_order=["f", "f"]),
    ),
    case(
        "engine=initiative.unknown|group",
        INITIATIVE,
        initiative(creature("f"), creature("g1", "gm", group="goblins"), tie_order=["g1"]),
    ),
    case(
        "engine=initiative.unknown",
        INITIATIVE,
        initiative(creature("f"), creature("g", "gm"), tie_order=["zz"]),
    ),
    case(
        "engine=initiative.hidden",
        INITIATIVE,
        initiative(
            {"id": "f", "side": "players", "dex_mod": 1},
            creature("g", "gm", hiding={"stealth_total": 15}),
        ),
    ),
    case(
        "engine=initiative.tie",
        INITIATIVE,
        initiative(
            creature("f"),
            creature("g", "gm"),
            tie_break="given",
            dice={"initiative.f": [10], "initiative.g": [10]},
        ),
    ),
    case("engine=initiative.duplicate", INITIATIVE, initiative(creature("f"), creature("f", "gm"))),
    case(
        "engine=initiative.group_id",
        INITIATIVE,
        initiative(creature("f"), creature("g", "gm", group="f")),
    ),
    case(
        "error=value_error|initiative.stealth",
        INITIATIVE,
        initiative(
            creature("f"), creature("g", "gm", hiding={"stealth_total": 15, "stealth_mod": 3})
        ),
    ),
    case("error=value_error|damage.formula", ATTACK5, damage("2d6)")),
    case("notation=start|plain", ATTACK5, damage(" ")),
    case("notation=after|plain", ATTACK5, damage("2d6)")),
    case("notation=term|plain", ATTACK5, damage("2d6+")),
    case("notation=sides|plain", ATTACK5, damage("2d")),
    case("notation=formula_terms", ATTACK5, damage("+".join(["1"] * 21))),
    case("notation=formula_dice", ATTACK5, damage("60d6+50d6")),
    case("notation=formula_modifier", ATTACK5, damage("1000000+1000000")),
    case("error=value_error|hp", ATTACK5, damage(hp=30)),
)

DICE = (
    case("engine=dice.range", ROLL_PATH, roll("1d20", dice={"term.0": [25]})),
    case("engine=dice.slot", ROLL_PATH, roll("1d20", dice={"nope": [2]})),
    case(
        "word=none", "/dos/actions", {"combatants": [{"id": "a", "speed": 9}], "dice": {"x": [1]}}
    ),
    case("engine=dice.exhausted", ROLL_PATH, roll("3d6", dice={"term.0": [1]})),
)

#: A combatant with a large pool and the speed for a thousand attacks.
STRONG = fighter("a", speed=1000, skills={"weapon": 100}, weapon={"kind": "melee", "damage": 5})
ODDS_RIDERS = {k: v for k, v in riders().items() if k not in ("seed", "decisions")}

BUDGETS = (
    case("budget.counted", "/dos/roll", {"pool": 4}, "tight"),  # "pool": written as it is
    case("engine=budget|field", "/dos/test", {"stat": 24, "skill": 3, "dc": 43}, "tight"),
    case(
        "budget.budget",
        "/dos/opposed",
        {"a": {"stat": 25, "skill": 2}, "b": {"stat": 9, "skill": 1}},
        "tight",
    ),
    case(
        "budget.how=combat.complex",
        "/dos/complex",
        {"stat": 9, "skill": 2, "dc": 20, "attempts": 6, "successes_needed": 3},
        "tight",
    ),
    case(
        "budget.how=combat.initiative",
        "/dos/initiative",
        {"combatants": [{"id": "a", "speed": 9}, {"id": "b", "speed": 9}]},
        "tight",
    ),
    case(
        "budget.how=combat.damage",
        "/dos/damage",
        {"strength": 1, "weapon": {"kind": "melee", "damage": 5}, "target": {"hp": 12}},
        "none",
    ),
    case("budget.how=combat.attack", "/dos/attack", attack(), "tight"),
    case(
        "budget.how=combat.maneuver",
        "/dos/maneuver",
        {
            "kind": "grab",
            "a": {"dexterity": 10, "strength": 12, "unarmed": 1},
            "b": {"dexterity": 10, "strength": 12, "dodge": 1},
        },
        "tight",
    ),
    case("budget.how=combat.turn", TURN, declares(action="attack", target="b"), "tight"),
    case(
        "budget.how=combat.simulate",
        "/dos/simulate",
        {
            **turn(
                fighter("a", skills={"weapon": 50}, declare=[{"action": "attack", "target": "b"}]),
                B,
            ),
            "runs": 1000,
            "max_turns": 100,
        },
    ),
    case(
        "budget.how=answer.complex",
        "/dos/complex",
        {"stat": 9, "skill": 20, "dc": 20, "attempts": 1000, "successes_needed": 3},
        "loose",
    ),
    case(
        "budget.how=answer.turn",
        TURN,
        turn(
            {**STRONG, "declare": [{"action": "attack", "target": "b", "count": 1000}]},
            fighter("b", "b", speed=1),
        ),
        "loose",
    ),
    case("budget.how=battle.battle", DRAGON, battle(G), "tight"),
    case(
        "budget.how=battle.simulate",
        "/dragon/simulate",
        {
            **battle(
                *[entity(f"x{i}", prosperity=100, target="dragon") for i in range(21)],
                target="x0",
                dragon={"battle": 100},
            ),
            "runs": 1000,
            "rerolls": 5,
        },
    ),
    case(
        "budget.how=battle.odds",
        "/dragon/odds",
        battle(
            *[entity(f"g{i}", prosperity=100, level=6, target=f"p{i}") for i in range(40)],
            *[
                entity(f"p{i}", "player", prosperity=100, level=6, target=f"g{i}")
                for i in range(40)
            ],
            target="g0",
            dragon={"battle": 100, "dragon_die": True},
        ),
    ),
    case("budget.how=duel.combat", RIDE, riders(auto=True), "tight"),
    case(
        "budget.how=duel.simulate",
        "/riders/simulate",
        {
            **riders(
                auto=True,
                initiator={
                    "rage": 50,
                    "items": [
                        {"id": f"i{i}", "name": "I", "timing": "counter", "dice": "100d6"}
                        for i in range(5)
                    ],
                },
            ),
            "runs": 1000,
        },
    ),
    case(
        "budget.how=duel.odds",
        "/riders/odds",
        {
            **ODDS_RIDERS,
            "initiator": {
                **ODDS_RIDERS["initiator"],
                "rage": 90,
                "items": [
                    {"id": f"i{i}", "name": "I", "timing": "counter", "dice": "100d1000"}
                    for i in range(10)
                ],
            },
        },
    ),
    case(
        "budget.how=d20.initiative",
        INITIATIVE,
        initiative(creature("f"), creature("g", "gm")),
        "tight",
    ),
    case(
        "budget.how=d20.d20s",
        "/dnd5e/check",
        {"modifier": 5, "dc": 15, "advantage": True},
        "tight",
    ),
    case("budget.how=d20.attack", ATTACK5, damage(), "tight"),
    case("budget.how=d20.odds", "/dnd5e/odds/attack", damage("100d20")),
    case("budget.how=notation.roll", ROLL_PATH, roll("4d6"), "tight"),
    case(
        "budget.how=notation.draw",
        "/dice/draw",
        {"draws": [{"slot": "a", "sides": 6, "count": 4}]},
        "tight",
    ),
    case(
        "budget.how=answer.roll",
        ROLL_PATH,
        roll("+".join(["100d1000x>1"] * 20), foundry=True),
        "loose",
    ),
)

CASES: tuple[Case, ...] = (*NOTATION, *ODDS, *DOS, *DRAGONS, *RIDERS_CASES, *FIFTH, *DICE, *BUDGETS)

#: The engine's messages no request reaches, by context: why, the English the engine writes, and
#: its error type where it is a model's (a field message of the engine's errors has none).
UNREACHED: dict[str, tuple[str, str] | tuple[str, str, str]] = {
    "engine=budget": (
        "a work function's budget always names its field (NO_DICE, the one without one, costs "
        "nothing)",
        "runs x (both roll-offs, the items' dice and 20 an item) = 1000 x 734 = 734,000 dice; the "
        "budget is 500,000 dice a request",
    ),
    "engine=budget|answer": (
        "check_answer's guard behind the estimates: no endpoint's answer reaches 4 MiB uncounted",
        "the answer = 4,200,000 bytes; the budget is 4,194,304 bytes an answer (4 MiB)",
    ),
    "budget.counted=encoded": (
        "check_answer's guard, as above",
        "the answer = 4,200,000 bytes; the budget is 4,194,304 bytes an answer (4 MiB)",
    ),
    "budget.how=none": (
        "NO_DICE costs nothing: never over a budget",
        "pool: no dice = 1 base dice; the budget is 0 base dice a request",
    ),
    "budget.how=answer": (
        "no work function counts an answer without saying how",
        "attempts: the answer's size = 5,000,000 bytes at most; the budget is 4,194,304 bytes an "
        "answer (4 MiB)",
    ),
    **{
        f"budget.how={key}": (
            "the pools' own limit (rules.dos.odds.MAX_ODDS_POOL) binds first: 50 dice a pool",
            f"skill: {english} = 60,000 odds terms; the budget is 50,000 odds terms a request",
        )
        for key, english in (
            ("combat.odds_test", "each result of the pool"),
            ("combat.odds_opposed", "each result of a's pool against b's flags"),
            (
                "combat.odds_attack",
                "each result of the attacker's pool against the defense's flags + the damage dice",
            ),
        )
    },
    "budget.unit=terms": (
        "as above: the dos odds' budget",
        "skill: each result of the pool = 60,000 odds terms; the budget is 50,000 odds terms a "
        "request",
    ),
    "budget.how=answer.combat_odds": (
        "as above: a pool of 50 dice answers in far less than 4 MiB",
        "skill: the answer's size: every value of its distributions with its exact fraction = "
        "5,000,000 bytes at most; the budget is 4,194,304 bytes an answer (4 MiB)",
    ),
    "budget.how=answer.battle_odds": (
        "the odds' steps (1,500,000) refuse first",
        "entities: the answer's size: every pair's successes and the sweep's sizes, exactly = "
        "5,000,000 bytes at most; the budget is 4,194,304 bytes an answer (4 MiB)",
    ),
    "budget.how=answer.duel_odds": (
        "the odds' steps (8,000,000) refuse first",
        "initiator.items: the answer's size: both totals' values and every counter's chances = "
        "5,000,000 bytes at most; the budget is 4,194,304 bytes an answer (4 MiB)",
    ),
    "budget.how=answer.draw": (
        "100 draws of 100 dice answer in 2.4 MB at most",
        "draws: the answer's size, counted from the dice drawn = 5,000,000 bytes at most; the "
        "budget is 4,194,304 bytes an answer (4 MiB)",
    ),
    "budget.how=notation.odds": (
        "the odds' own estimate (rules.notation.odds.estimate) refuses first, at the same limit",
        "notation: the steps of the exact odds (each term's dice, explosions and values, each "
        "operator's pairs) = 4,000,000 steps; the budget is 3,500,000 steps a request",
    ),
    "budget.unit=steps": (
        "as above",
        "notation: the steps of the exact odds (each term's dice, explosions and values, each "
        "operator's pairs) = 4,000,000 steps; the budget is 3,500,000 steps a request",
    ),
    "engine=dice.value": (
        "every endpoint names each slot's die, so a script is checked before the first die "
        "(rules.dice.source._check_script); this guards a slot whose die varies",
        "dice.pool.g[0] is 9, but slot 'pool.g' draws a d6 there: values must be 1..6",
    ),
    "engine=combat.own": (
        "a reference without an owner (order, first) is never its owner",
        "a combatant cannot be its own opponent",
    ),
    "engine=initiative.tied": (
        "a script holds 1,000 values a slot: the 1,001st round of tie-break rolls is the seed's",
        "f, g still tied after 1000 rounds of tie-break rolls",
    ),
    "engine=initiative.tied|field": (
        "as above",
        "the tie-break rolls never separate the tie",
    ),
    "engine=notation.odds|combines": (
        "the estimate refuses first (rules.notation.odds: '# pragma: no cover')",
        "'*' at column 8 combines 9,901 x 9,901 values; at most 250,000",
    ),
    "engine=notation.odds|keep-term": (
        "the estimate (the same bound, counted before) refuses first",
        "100d100kh50: keep/drop over 100 dice of 100 values is too large",
    ),
    "notation=formula_length": (
        "a damage part's dice are 200 characters at most in the schema, which refuses first",
        "at position 201: a formula has at most 200 characters",
        "value_error",
    ),
    "notation=comparison": (
        "the parser peeks a comparison before it asks for one ('# pragma: no cover')",
        "notation: column 12: expected a comparison",
    ),
    "notation.maiden=plain": (
        "a Dice Maiden string has a count of sets or a modifier (rules.notation.misread)",
        "notation: column 3: '4d6' is Dice Maiden's: write '4d6' with \"dialect\": \"foundry\"",
    ),
}
