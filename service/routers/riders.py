"""``/riders``: Dragon Riders board-game combat (rules/riders.md)."""

from fastapi import APIRouter

from rules.riders import budget, combat
from rules.riders.models import CombatRequest, CombatResult
from service.routing import add_resolver

router = APIRouter(prefix="/riders", tags=["Dragon Riders"])

add_resolver(
    router,
    "/combat",
    resolver=combat.resolve_combat,
    slots=combat.combat_slots,
    work=budget.combat_work,
    request_model=CombatRequest,
    response_model=CombatResult,
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
    system="riders",
    slot_doc=(
        "`rolloff.initiator` (d6), `rolloff.defender` (d6): the roll-offs; `item.<item id>` "
        "(the item's die): the dice of an item with `dice`. Each slot is drawn once, so adding a "
        "decision never changes the dice already shown."
    ),
)
