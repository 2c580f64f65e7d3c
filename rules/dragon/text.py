"""English sentences for the dragon battle's event codes (rendering is separate, STYLE 8)."""

TEXTS: dict[str, str] = {
    "dragon.aside": "{id} stands aside and takes no part (DRG-4).",
    "dragon.order": "Strength order: {names} (DRG-2).",
    "dragon.pair.formed": "{a} takes its target {b}: they form a battle pair.",
    "dragon.left_over.wait": "{id} is left over ({why}) and waits for the next round.",
    "dragon.left_over.join": "{id} is left over ({why}) and joins {ally}: its dice add to that roll.",
    "dragon.left_over.join_failed": (
        "{id} is left over ({why}) and would join {ally}, but {ally} is not in a pair: it waits."
    ),
    "dragon.left_over.auto_win": (
        "{id} is left over ({why}) and wins automatically against {against}, outside the battle."
    ),
    "dragon.pool.rolled": "{owner} rolls {count}d{sides} in {slot}: {dice}.",
    "dragon.pool.empty": "{owner} has prosperity 0 and rolls nothing.",
    "dragon.sweep.not_triggered": (
        "The dragon die shows {dragon_die}, below the dragon's highest {highest}: no sweep."
    ),
    "dragon.sweep.failed": (
        "The dragon die's {dragon_die} does not beat {opponent}'s {opponent_highest} together "
        "with even the weakest other entity: no sweep."
    ),
    "dragon.sweep.taken": (
        "The dragon die's {dragon_die} beats {opponent}'s {opponent_highest} and the weakest "
        "{names} together ({total}): the dragon defeats them all with one roll."
    ),
    "dragon.pair.unresolved": "The pair {a}-{b} is not resolved: the dragon die swept {names}.",
    "dragon.pair.interrupted": (
        "{a} and {b} both roll a highest {highest}: the fight is interrupted, no consequences."
    ),
    "dragon.pair.won": (
        "{winner} beats {loser}, highest {winner_highest} against {loser_highest}: "
        "{successes} successes."
    ),
    "dragon.prosperity.lost": "{id} loses {loss} prosperity ({reason}): {before} -> {after}.",
    "dragon.pair.spared": (
        "The pair {a}-{b} was interrupted: it costs its parties ({names}) nothing, not even the "
        "dragon die's extra point (DRG-10)."
    ),
    "dragon.location.spared": (
        "The location {id} fought in an interrupted pair: it loses nothing to the dragon die (DRG-10)."
    ),
    "dragon.location.party": (
        "The location {id} is a party of the battle: its extra loss is already counted."
    ),
    "dragon.wound": "The dragon loses to {slayer}: a wound ({wounds} against battle {battle}).",
    "dragon.slayer.known": "{id} is already known as a dragonslayer.",
    "dragon.slayer.revealed": "{id} is tougher than it looked, a dragonslayer: {how}.",
    "dragon.change.player": (
        "The dragon's player may make one change at level {level} ({scale}), from a {result}."
    ),
    "dragon.change.none": "The dragon's highest die {result} reaches no change level.",
    "dragon.change.destruction": (
        "The other players and the GM make one destruction change at level {level} ({scale}), "
        "from the dragon die's {result}."
    ),
    "dragon.change.no_destruction": "The dragon die's {result} reaches no change level.",
    "dragon.defeated": (
        "The dragon is defeated ({wounds} wounds against battle {battle}): it cannot go on, even "
        "with a reroll, and must sleep or retreat; it may not attack {slayer} the same way again."
    ),
    "dragon.battle.ended": "The battle ends after round {round}.",
    "dragon.battle.continues": "The battle goes on after round {round}.",
    "dragon.hoard.by_strength": (
        "{id} is the strongest enemy that fought: the first of them in the strength order, with "
        "prosperity {prosperity} (DRG-2, DRG-17); its level is {level}."
    ),
    "dragon.hoard.by_level": (
        "{id} is the strongest enemy that fought: the first of the highest level among them, {level} "
        "(option strongest_enemy: highest_level, DRG-17)."
    ),
    "dragon.hoard.dragonslayer": (
        "{id} is a dragonslayer: it counts one level higher, {level} for its {own} (DRG-17)."
    ),
    "dragon.hoard": "Hoard: {amount} (strongest enemy {strongest}, level {level}, minus 1).",
}
