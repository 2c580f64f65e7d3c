"""The Dragon Riders descriptor (rules/riders.md): its endpoint, odds, simulation, texts and
Foundry pools, as the service serves them (``rules.system``)."""

from typing import Any

from rules.riders import budget, combat, foundry, odds, simulate, text
from rules.riders.models import CombatRequest, CombatResult
from rules.system import (
    Endpoint,
    Odds,
    ShapedOdds,
    Simulator,
    System,
    exact_odds,
    simulation,
)

ENDPOINTS: tuple[Endpoint[Any, Any], ...] = (
    Endpoint(
        path="/combat",
        outcome=(
            "riders.winner",
            "riders.awaiting",
        ),
        summary="Combat, step by step or automatic",
        description=(
            "Resolves a combat from the initial situation plus the `decisions` taken so far and returns "
            "everything resolved so far, then the outcome (`finished`, `winner`, `damage` or "
            "`damage_skipped`, each side's new `state`) or the decision `awaiting` (who decides and "
            "exactly the legal `choices`; send one back as the next decision, with `by`). "
            "Bonuses: riders' elemental bonuses against the opponent's element (none at 3 fatigue) + "
            "terrain + every `pre` item listed (RDR-2). Roll-off: 2d6 + one d6 per rage level + pre "
            "items' extra dice, plus the bonus; the defender may concede without rolling (two damage "
            "instances, RDR-7); the lower total is the presumptive loser, the initiator wins ties "
            "(RDR-3). Counterattack: the side behind plays counter items until strictly higher (then "
            "the other side answers) or concedes; each item is used once (RDR-5). Damage: skipped if "
            "the winner used a Hide Shield or the loser made a ranged attack; else fatigue (at 3: the "
            "rider is lost and rage +1), knockback (N, NE, E, SE, S, SW, W, NW; x east, y south), "
            "swap (places and facings) or a damage item (RDR-6). `auto: true` fills missing decisions "
            "(RDR-9): the defender rolls, the side behind plays its counter items in order and "
            "concedes when none is left, the winner picks fatigue. The response lists every decision "
            "taken (`decisions`, auto-filled ones in `auto_filled`) so a client can replay them. "
            "A decision that is not legal at its point is a 422 `illegal-decision` naming "
            "`decisions[i]` and what was expected (RDR-10)."
        ),
        request=CombatRequest,
        result=CombatResult,
        resolve=combat.resolve_combat,
        slots=combat.combat_slots,
        slot_doc=(
            "`rolloff.initiator` (d6), `rolloff.defender` (d6): the roll-offs; `item.<item id>` "
            "(the item's die): the dice of an item with `dice`. Each slot is drawn once, so adding a "
            "decision never changes the dice already shown."
        ),
        work=budget.combat_work,
        examples={
            "river-crossing": {
                "auto": True,
                "initiator": {
                    "id": "red",
                    "element": "fire",
                    "riders": [{"id": "ash", "current": True, "bonuses": {"water": 2}}],
                    "rage": 1,
                    "position": {"x": 0, "y": 0, "facing": "E"},
                    "items": [
                        {"id": "lance", "name": "Dragon Lance", "timing": "counter", "dice": "1d6"}
                    ],
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
            # short enough for the MCP tool's description (service.mcp_tools)
            "a duel: fire against water": {
                "auto": True,
                "initiator": {"id": "red", "element": "fire"},
                "defender": {"id": "blue", "element": "water"},
                "seed": "duel",
            },
        },
    ),
)

DUEL = {
    "initiator": {"id": "red", "element": "fire", "rage": 1, "terrain_bonus": 2},
    "defender": {
        "id": "blue",
        "element": "water",
        "riders": [{"id": "r1", "bonuses": {"fire": 2}}],
        "items": [{"id": "wand", "name": "Wand", "timing": "counter", "dice": "1d6"}],
    },
}

ODDS: tuple[Odds[Any, Any] | ShapedOdds, ...] = (
    exact_odds(
        odds.CombatOddsRequest,
        odds.combat_odds,
        path="/odds",
        of="/combat",
        work=budget.odds_work,
        summary="Odds of the roll-off (the /riders/combat request)",
        description=(
            "`initiator_wins` and `defender_wins` of the roll-off (RDR-2, RDR-3: 2d6 + a d6 per rage "
            "level + pre items' extra dice, plus the bonuses; the defender rolls; the initiator wins "
            "ties), each side's total, and for every counter item the chance it alone turns the "
            "roll-off for its side (`turns`: behind, and the item puts it strictly ahead; "
            "`given_behind`: the same knowing it is behind) (RDR-5). `decisions` and `auto` are "
            "accepted and do not change the odds."
        ),
        examples={"fire against water": DUEL},
    ),
)

SIMULATIONS: tuple[Simulator[Any], ...] = (
    simulation(
        simulate.CombatSimulateRequest,
        simulate.simulate,
        of="/combat",
        work=budget.simulate_work,
        summary="Simulate whole combats (the /riders/combat request with auto decisions)",
        description=(
            "Each run is the `/riders/combat` request with `auto: true` (RDR-9: the defender rolls, "
            "the side behind plays its counter items in order, the winner picks fatigue) seeded "
            "`{seed}/{i}`. Endings: the winner; length in decisions taken."
        ),
        examples={"fire against water": {**DUEL, "seed": "sky", "runs": 200}},
    ),
)

SYSTEM = System(
    id="riders",
    name={
        "en": "Dragon Riders",
        "pl": "Jeźdźcy smoków",
        "fi": "Lohikäärmeratsastajat",
        "ar": "فرسان التنانين",
    },
    about=(
        "a board game of dragons (fire, water, earth, lightning, wind, metal) carrying riders:"
        " combat is a 2d6 roll-off with rage, elemental and terrain bonuses, items, counterattacks"
    ),
    # bumped whenever an answer could change for the same request and seed (System.rules_version)
    rules_version="riders-8",
    endpoints=ENDPOINTS,
    texts=text.TEXTS,
    flavors=text.FLAVORS,
    odds=ODDS,
    simulations=SIMULATIONS,
    foundry=foundry.pools,
    compiled=("rules.riders.combat",),
)
