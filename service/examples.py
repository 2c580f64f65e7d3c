"""One realistic request per resolving endpoint, drawn from the rule files' worked examples.

They are the OpenAPI document's request examples (``service.openapi``), so Swagger UI, ReDoc, the
playground page (``GET /``) and generated clients all start from a request that works; a test
validates each against its endpoint's model and resolves it.
"""

from __future__ import annotations

from typing import Any

from rules.notation import endpoints as notation

IGNATIUS = {
    "dexterity": 25,
    "strength": 18,
    "skill": 2,
    "weapon": {"kind": "melee", "damage": 5},
}
KOBOLD = {"dexterity": 9, "block": 1, "hp": 12, "max_hp": 12}

EXAMPLES: dict[str, dict[str, Any]] = {
    "/dos/roll": {"pool": 4, "seed": "table-1"},
    "/dos/test": {"stat": 24, "skill": 3, "dc": 43, "difficulty": "normal", "seed": "Sarathael"},
    "/dos/opposed": {
        "a": {"stat": 25, "skill": 2},
        "b": {"stat": 9, "skill": 1, "difficulty": "hard"},
        "seed": "arm-wrestling",
    },
    "/dos/complex": {
        "stat": 9,
        "skill": 2,
        "dc": 20,
        "attempts": 6,
        "successes_needed": 3,
        "seed": "Baltir",
    },
    "/dos/actions": {
        "combatants": [
            {"id": "ignatius", "speed": 32, "opponents": ["kobold"]},
            {"id": "kobold", "speed": 9, "opponents": ["ignatius"]},
        ],
        "seed": "kobold-fight",
    },
    "/dos/initiative": {
        "combatants": [
            {"id": "Sarathi", "speed": 12},
            {"id": "Lethi", "speed": 9},
            {"id": "k1", "speed": 9},
            {"id": "k2", "speed": 9},
        ],
        "seed": "kobold-cave",
    },
    "/dos/attack": {"attacker": IGNATIUS, "defender": KOBOLD, "seed": "Ignatius"},
    "/dos/damage": {
        "strength": 18,
        "weapon": {"kind": "melee", "damage": 5},
        "target": {"hp": 12, "max_hp": 12},
        "seed": "dagger",
    },
    "/dos/maneuver": {
        "kind": "grab",
        "a": {"dexterity": 10, "strength": 12, "unarmed": 1},
        "b": {"dexterity": 10, "strength": 12, "dodge": 1},
        "seed": "grab",
    },
    "/dos/turn": {
        "combatants": [
            {
                "id": "ignatius",
                "side": "heroes",
                "speed": 32,
                "dexterity": 25,
                "strength": 18,
                "skills": {"weapon": 2, "block": 2},
                "weapon": {"kind": "melee", "damage": 5},
                "hp": 30,
                "declare": [{"action": "attack", "target": "k1", "count": 3}],
            },
            {
                "id": "k1",
                "side": "kobolds",
                "speed": 9,
                "dexterity": 9,
                "strength": 6,
                "skills": {"block": 1, "unarmed": 1},
                "hp": 12,
                "declare": [{"action": "attack", "target": "ignatius"}],
            },
        ],
        "seed": "goblin ambush",
    },
    "/dragon/battle": {
        "dragon": {
            "age": 3,
            "battle": 2,
            "features_used": 1,
            "dragon_die": True,
            "target": "tribe",
        },
        "entities": [
            {
                "id": "tribe",
                "controller": "gm",
                "kind": "group",
                "prosperity": 4,
                "level": 2,
                "target": "dragon",
            },
            {
                "id": "wolves",
                "controller": "player",
                "kind": "group",
                "prosperity": 2,
                "level": 2,
                "target": "hero",
            },
            {
                "id": "hero",
                "controller": "gm",
                "kind": "individual",
                "prosperity": 1,
                "level": 3,
                "target": "wolves",
            },
        ],
        "location": {"id": "vale", "prosperity": 5},
        "seed": "vale",
    },
    "/riders/combat": {
        "auto": True,
        "initiator": {
            "id": "red",
            "element": "fire",
            "riders": [{"id": "ash", "current": True, "bonuses": {"water": 2}}],
            "rage": 1,
            "position": {"x": 0, "y": 0, "facing": "E"},
            "items": [{"id": "lance", "name": "Dragon Lance", "timing": "counter", "dice": "1d6"}],
        },
        "defender": {
            "id": "blue",
            "element": "water",
            "fatigue": 2,
            "terrain_bonus": 2,
            "position": {"x": 1, "y": 0, "facing": "W"},
            "items": [{"id": "bolt", "name": "Bolt", "timing": "counter", "bonus": 3}],
        },
        "seed": "river-crossing",
    },
    "/dnd5e/initiative": {
        "combatants": [
            {"id": "fighter", "side": "players", "dex_mod": 1, "passive_perception": 12},
            {"id": "rogue", "side": "players", "dex_mod": 4, "passive_perception": 16},
            {
                "id": "g1",
                "side": "gm",
                "dex_mod": 2,
                "group": "goblins",
                "hiding": {"stealth_mod": 6},
            },
            {
                "id": "g2",
                "side": "gm",
                "dex_mod": 2,
                "group": "goblins",
                "hiding": {"stealth_mod": 6},
            },
        ],
        "seed": "ambush",
    },
    "/dnd5e/turn": {
        "speed": 30,
        "steps": [
            {"kind": "move", "feet": 15},
            {"kind": "interaction", "object": "door"},
            {"kind": "action", "name": "attack"},
            {"kind": "move", "feet": 15},
        ],
        "seed": "door",
    },
    "/dnd5e/check": {"modifier": 5, "dc": 15, "advantage": True, "seed": "lockpick"},
    "/dnd5e/attack": {
        "attack_bonus": 5,
        "damage": [{"dice": "1d12+3", "type": "slashing"}, {"dice": "2d6", "type": "fire"}],
        "target": {"ac": 13, "hp": 22, "max_hp": 22, "resistances": ["fire"]},
        "seed": "greataxe",
    },
    "/dnd5e/death-save": {"successes": 1, "failures": 2, "seed": "grim"},
    "/dice/roll": notation.ROLL_EXAMPLES["advantage"],
}
