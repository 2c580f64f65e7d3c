"""``/dragon``: the dragon battle (rules/dragon.md)."""

from fastapi import APIRouter

from rules.dragon import battle, budget
from rules.dragon.models import BattleRequest, BattleResult
from service.routing import add_resolver

router = APIRouter(prefix="/dragon", tags=["Dragon battle"])

add_resolver(
    router,
    "/battle",
    resolver=battle.battle,
    slots=battle.battle_slots,
    work=budget.battle_work,
    request_model=BattleRequest,
    response_model=BattleResult,
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
    system="dragon",
    slot_doc=(
        "`pool.dragon` (d8/d10/d12/d20 by age): the dragon's battle dice; `dragon_die` "
        "(d12/d20/d30/d100 by age): the dragon die; `pool.<entity id>` (the entity's die): its "
        "pool; `slayer.<entity id>` (one step above the entity's die): an individual "
        "dragonslayer's extra die. Pools are drawn pair by pair, each member before the parties "
        "joined to it."
    ),
)
