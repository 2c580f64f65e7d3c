"""English sentences for the dragon battle's event codes (rendering is separate, STYLE 8)."""

from rules.narration import Message, sentence

TEXTS: tuple[Message, ...] = (
    sentence("dragon.aside", "{id} stands aside and takes no part (DRG-4)."),
    sentence("dragon.order", "Strength order: {names} (DRG-2)."),
    sentence("dragon.pair.formed", "{a} takes its target {b}: they form a battle pair."),
    sentence("dragon.left_over.wait", "{id} is left over ({why}) and waits for the next round."),
    sentence(
        "dragon.left_over.join",
        "{id} is left over ({why}) and joins {ally}: its dice add to that roll.",
    ),
    sentence(
        "dragon.left_over.join_failed",
        "{id} is left over ({why}) and would join {ally}, but {ally} is not in a pair: it waits.",
    ),
    sentence(
        "dragon.left_over.auto_win",
        "{id} is left over ({why}) and wins automatically against {against}, outside the battle.",
    ),
    sentence("dragon.pool.rolled", "{owner} rolls {count}d{sides} in {slot}: {dice}."),
    sentence("dragon.pool.empty", "{owner} has prosperity 0 and rolls nothing."),
    sentence(
        "dragon.sweep.not_triggered",
        "The dragon die shows {dragon_die}, below the dragon's highest {highest}: no sweep.",
    ),
    sentence(
        "dragon.sweep.failed",
        "The dragon die's {dragon_die} does not beat {opponent}'s {opponent_highest} together with even the weakest other entity: no sweep.",
    ),
    sentence(
        "dragon.sweep.taken",
        "The dragon die's {dragon_die} beats {opponent}'s {opponent_highest} and the weakest {names} together ({total}): the dragon defeats them all with one roll.",
    ),
    sentence(
        "dragon.pair.unresolved", "The pair {a}-{b} is not resolved: the dragon die swept {names}."
    ),
    sentence(
        "dragon.pair.interrupted",
        "{a} and {b} both roll a highest {highest}: the fight is interrupted, no consequences.",
    ),
    sentence(
        "dragon.pair.won",
        "{winner} beats {loser}, highest {winner_highest} against {loser_highest}: {successes} successes.",
    ),
    sentence(
        "dragon.prosperity.lost", "{id} loses {loss} prosperity ({reason}): {before} -> {after}."
    ),
    sentence(
        "dragon.location.party",
        "The location {id} is a party of the battle: its extra loss is already counted.",
    ),
    sentence(
        "dragon.wound", "The dragon loses to {slayer}: a wound ({wounds} against battle {battle})."
    ),
    sentence("dragon.slayer.known", "{id} is already known as a dragonslayer."),
    sentence("dragon.slayer.revealed", "{id} is tougher than it looked, a dragonslayer: {how}."),
    sentence(
        "dragon.change.player",
        "The dragon's player may make one change at level {level} ({scale}), from a {result}.",
    ),
    sentence("dragon.change.none", "The dragon's highest die {result} reaches no change level."),
    sentence(
        "dragon.change.destruction",
        "The other players and the GM make one destruction change at level {level} ({scale}), from the dragon die's {result}.",
    ),
    sentence("dragon.change.no_destruction", "The dragon die's {result} reaches no change level."),
    sentence(
        "dragon.defeated",
        "The dragon is defeated ({wounds} wounds against battle {battle}): it cannot go on, even with a reroll, and must sleep or retreat; it may not attack {slayer} the same way again.",
    ),
    sentence("dragon.battle.ended", "The battle ends after round {round}."),
    sentence("dragon.battle.continues", "The battle goes on after round {round}."),
    sentence(
        "dragon.hoard", "Hoard: {amount} (strongest enemy {strongest}, level {level}, minus 1)."
    ),
)
