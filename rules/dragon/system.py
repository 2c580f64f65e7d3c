"""The dragon battle descriptor (rules/dragon.md): its endpoint, odds, simulation, texts and
Foundry pools, as the service serves them (``rules.system``)."""

from typing import Any

from rules.dragon import battle, budget, foundry, odds, simulate, text
from rules.dragon.models import BattleRequest, BattleResult
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
        path="/battle",
        outcome=(
            "dragon.defeated",
            "dragon.battle.ended",
            "dragon.battle.continues",
            "dragon.hoard",
        ),
        summary="Resolve one round of a dragon's violent conflict",
        description=(
            "Parties pair up in strength order: the dragon first, then entities by prosperity, free "
            "(gm) entities first on ties, then request order; each takes its target if still unpaired "
            "(DRG-2); left-over parties wait, join an ally in a pair, or win automatically outside "
            "the battle (DRG-3). The dragon rolls `battle + features_used` dice of its age's size "
            "(DRG-6, DRG-T1), plus the dragon die if used (DRG-7, DRG-T2); an entity rolls "
            "`prosperity` dice of its level's size (DRG-5, DRG-T3), an individual dragonslayer one "
            "more die a step higher (DRG-8). The higher single die wins; successes are the winner's "
            "dice strictly above the loser's highest; equal highest dice interrupt the pair, whose "
            "parties then suffer nothing, not even the dragon die's extra point (DRG-9, DRG-10). "
            "A dragon die showing the dragon's highest result may sweep its opponent and the weakest "
            "other entities (DRG-11). Losers lose prosperity; the dragon's win gives the player a "
            "change at its DRG-T4 level; the dragon die costs every party and the location 1 more "
            "prosperity and gives a destruction change (DRG-12, DRG-13). A dragon's loss reveals a "
            "dragonslayer and wounds it; wounds >= battle defeat it (DRG-14, DRG-15). The battle ends "
            "after this round unless `continues` (DRG-16); hoard is the strongest enemy's level - 1 (by "
            "default the first enemy in the strength order), a dragonslayer counting one level "
            "higher (DRG-17). `next_state` is the next round's "
            "request body (without seed or dice)."
        ),
        request=BattleRequest,
        result=BattleResult,
        resolve=battle.battle,
        slots=battle.battle_slots,
        slot_doc=(
            "`pool.dragon` (d8/d10/d12/d20 by age): the dragon's battle dice; `dragon_die` "
            "(d12/d20/d30/d100 by age): the dragon die; `pool.<entity id>` (the entity's die): its "
            "pool; `slayer.<entity id>` (one step above the entity's die): an individual "
            "dragonslayer's extra die. Pools are drawn pair by pair, each member before the parties "
            "joined to it."
        ),
        work=budget.battle_work,
        examples={
            "vale": {
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
            # short enough for the MCP tool's description (service.mcp_tools)
            "a village against an age-3 dragon": {
                "dragon": {"age": 3, "battle": 3, "dragon_die": True, "target": "village"},
                "entities": [
                    {
                        "id": "village",
                        "controller": "gm",
                        "kind": "group",
                        "prosperity": 4,
                        "level": 2,
                        "target": "dragon",
                    }
                ],
                "seed": "vale",
            },
        },
    ),
)

VILLAGE = {
    "dragon": {"age": 3, "battle": 3, "dragon_die": True, "target": "village"},
    "entities": [
        {
            "id": "village",
            "controller": "gm",
            "kind": "group",
            "prosperity": 4,
            "level": 2,
            "target": "dragon",
        }
    ],
}

ODDS: tuple[Odds[Any, Any] | ShapedOdds, ...] = (
    exact_odds(
        odds.BattleOddsRequest,
        odds.battle_odds,
        path="/odds",
        of="/battle",
        work=budget.odds_work,
        summary="Odds of a battle round (the /dragon/battle request)",
        description=(
            "For every pair the round forms (as `/dragon/battle` forms them, DRG-2, DRG-3): `a_wins`, "
            "`b_wins`, `interrupted` (equal highest dice) and the successes of each winner (DRG-9, "
            "DRG-10). With the dragon die: the chance it triggers a sweep, sweeps, and takes each "
            "number of entities (DRG-11). A pair's odds are its own roll's; a sweep leaves the pairs "
            "it takes from unresolved."
        ),
        examples={"a village against an age-3 dragon": VILLAGE},
    ),
)

SIMULATIONS: tuple[Simulator[Any], ...] = (
    simulation(
        simulate.BattleSimulateRequest,
        simulate.simulate,
        of="/battle",
        work=budget.simulate_work,
        summary="Simulate whole battles (the /dragon/battle request, round after round)",
        description=(
            "Each run plays `/dragon/battle` rounds: round r of run i is seeded `{seed}/{i}/{r}`, "
            "the first the request, each next one the last result's `next_state`; the dragon "
            "continues (spends a reroll, DRG-16) while `rerolls` (default 0) last and it is not "
            "defeated. Endings: `dragon_won` (it won its pair or swept in the last round), "
            "`dragon_defeated` (DRG-15), `not_won`; length in rounds."
        ),
        examples={"a village against an age-3 dragon": {**VILLAGE, "seed": "vale", "runs": 200}},
    ),
)

SYSTEM = System(
    id="dragon",
    name={
        "en": "Dragon battle",
        "pl": "Bitwa smoka",
        "fi": "Lohikäärmeen taistelu",
        "ar": "معركة التنين",
    },
    about=(
        "a Finnish game of a dragon fighting villages, tribes and heroes: dice pools by prosperity"
        " and level, a dragon die, wounds and a hoard, one round of battle at a time"
    ),
    # bumped whenever an answer could change for the same request and seed (System.rules_version)
    rules_version="dragon-8",
    endpoints=ENDPOINTS,
    texts=text.TEXTS,
    flavors=text.FLAVORS,
    odds=ODDS,
    simulations=SIMULATIONS,
    foundry=foundry.pools,
    compiled=("rules.dragon.battle", "rules.dragon.tables"),
)
