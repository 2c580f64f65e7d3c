"""English sentences for the Dragon Riders event codes (rendering is separate from resolving)."""

from rules.narration import Message, sentence

TEXTS: tuple[Message, ...] = (
    sentence(
        "riders.bonus.fatigued",
        "The {side} has 3 fatigue: its riders' elemental bonuses ({elemental}) do not count.",
    ),
    sentence(
        "riders.item.pre",
        "The {side} uses {name} before combat: {value:+d} (dice {dice}), {extra_dice} extra roll-off dice.",
    ),
    sentence(
        "riders.bonus",
        "The {side}'s bonus is {total}: elemental {elemental} + terrain {terrain} + items {items}.",
    ),
    sentence(
        "riders.rolloff",
        "The {side} rolls {count} d6: {dice} = {sum}; with bonus {bonus} its total is {total}.",
    ),
    sentence(
        "riders.rolloff.conceded",
        "The {side} concedes without rolling (decision {decision}): it takes two instances of damage.",
    ),
    sentence(
        "riders.presumptive_loser",
        "The {loser} is the presumptive loser: {loser_total} against {other_total}.",
    ),
    sentence(
        "riders.presumptive_loser.tie",
        "Both total {loser_total}: the initiator wins ties, the {loser} is the presumptive loser.",
    ),
    sentence(
        "riders.counter.item",
        "The {side} plays {name}: {value:+d} (dice {dice}); its total is {total} against {other_total}.",
    ),
    sentence("riders.counter.lead", "The {side} now leads, {total} against {other_total}."),
    sentence("riders.conceded", "The {side} concedes (decision {decision}): the {winner} wins."),
    sentence("riders.winner", "The {winner} wins the combat; the {loser} loses."),
    sentence("riders.damage.skipped.hide_shield", "No damage: the {winner} used a Hide Shield."),
    sentence("riders.damage.skipped.ranged", "No damage: the {loser} made a ranged attack."),
    sentence(
        "riders.damage.double", "The {loser} conceded without rolling: two instances of damage."
    ),
    sentence("riders.damage.fatigue", "Damage {n}: the {loser} takes one fatigue (now {fatigue})."),
    sentence(
        "riders.damage.fatigue_at_max",
        "Damage {n}: the {loser} is already at 3 fatigue: rider lost: {rider_lost} {riders}; rage is now {rage}.",
    ),
    sentence(
        "riders.damage.knockback",
        "Damage {n}: the {loser} is knocked back {direction} to ({x}, {y}).",
    ),
    sentence(
        "riders.damage.swap", "Damage {n}: the {winner} and the {loser} swap places and facings."
    ),
    sentence("riders.damage.item", "Damage {n}: the {winner} uses {name} on the {loser}: {effect}"),
    sentence(
        "riders.awaiting", "Waiting for decision {decision} by the {by} ({phase}): {choices}."
    ),
)
