"""English texts of the dragon battle's event codes: the source of the catalogs (``rules.narration``).

Rendering is separate from resolving (STYLE 8). ``make catalogs`` extracts these into
``rules/locale/dragonroll.pot``; each language's ``.po`` translates them.
"""

from rules.narration import Message, counted, sentence, term

TEXTS: tuple[Message, ...] = (
    # ------------------------------------------------------------ who fights whom (DRG-1..4)
    sentence("dragon.aside", "{id} stands aside and takes no part in the battle."),
    sentence("dragon.order", "Order of strength: {order}."),
    sentence("dragon.pair.formed", "{a} takes on {b}: they form a battle pair."),
    sentence(
        "dragon.left_over.wait|target=none",
        "{id} has no target and is left over: it waits for the next round.",
    ),
    sentence(
        "dragon.left_over.wait|target=*",
        "{id} is left over, its target {target} already paired: it waits for the next round.",
    ),
    sentence(
        "dragon.left_over.join|target=none",
        "{id} has no target and is left over: it joins {ally}, its dice added to that roll.",
    ),
    sentence(
        "dragon.left_over.join|target=*",
        "{id} is left over, its target {target} already paired: it joins {ally}, its dice added "
        "to that roll.",
    ),
    sentence(
        "dragon.left_over.join_failed|target=none",
        "{id} has no target and is left over: it would join {ally}, but {ally} is not in a pair, "
        "so it waits.",
    ),
    sentence(
        "dragon.left_over.join_failed|target=*",
        "{id} is left over, its target {target} already paired: it would join {ally}, but {ally} "
        "is not in a pair, so it waits.",
    ),
    sentence(
        "dragon.left_over.auto_win|target=none",
        "{id} has no target and is left over: it wins against {against}, outside the battle.",
    ),
    sentence(
        "dragon.left_over.auto_win|target=*",
        "{id} is left over, its target {target} already paired: it wins against {against}, "
        "outside the battle.",
    ),
    # ------------------------------------------------------------ dice (DRG-5..8)
    sentence("dragon.pool.rolled|slot=dragon_die", "The dragon die, a d{sides}, shows {dice}."),
    sentence("dragon.pool.rolled|slot=*", "{owner} rolls {count}d{sides}: {dice}."),
    sentence("dragon.pool.empty", "{owner} has no prosperity left and rolls nothing."),
    # ------------------------------------------------------------ the dragon die's sweep (DRG-11)
    sentence(
        "dragon.sweep.not_triggered",
        "The dragon die shows {dragon_die}, below the dragon's highest {highest}: no sweep.",
    ),
    sentence(
        "dragon.sweep.failed",
        "The dragon die's {dragon_die} does not beat {opponent}'s {opponent_highest} together "
        "with even the weakest other entity: no sweep.",
    ),
    sentence(
        "dragon.sweep.taken",
        "The dragon die's {dragon_die} beats {opponent}'s {opponent_highest} and {added} "
        "together ({total}): the dragon defeats them all with one roll.",
    ),
    sentence(
        "dragon.pair.unresolved",
        "The pair {a} and {b} is not fought out: the dragon die swept away {swept}.",
    ),
    # ------------------------------------------------------------ battle pairs (DRG-9..12)
    sentence(
        "dragon.pair.interrupted",
        "{a} and {b} both roll a highest {highest}: the fight is broken off, with no consequences.",
    ),
    sentence(
        "dragon.pair.won",
        "{winner} beats {loser}, highest die {winner_highest} against {loser_highest}: "
        "{successes}.",
    ),
    counted("dragon.pair.won#successes", "{successes} success", "{successes} successes"),
    sentence(
        "dragon.prosperity.lost|loss=0",
        "{id} has no prosperity left to lose ({reason}).",
    ),
    sentence(
        "dragon.prosperity.lost|loss=*",
        "{id} loses {loss} prosperity ({reason}): {before}, now {after}.",
    ),
    term("dragon.reason=lost_pair", "it lost its battle pair"),
    term("dragon.reason=swept", "swept away by the dragon die"),
    term("dragon.reason=dragon_die", "the dragon die's collateral damage"),
    sentence(
        "dragon.location.party",
        "The location {id} took part in the battle: its extra loss is already counted.",
    ),
    sentence(
        "dragon.pair.spared",
        "The fight of {a} and {b} was broken off: {ids}.",
    ),
    counted(
        "dragon.pair.spared#ids",
        "{ids} loses nothing to the dragon die either",
        "{ids} lose nothing to the dragon die either",
    ),
    sentence(
        "dragon.location.spared",
        "The location {id} fought in a broken-off pair: it loses nothing to the dragon die.",
    ),
    # ------------------------------------------------------------ wounds, slayers (DRG-14, DRG-15)
    sentence(
        "dragon.wound",
        "The dragon loses to {slayer} and takes a wound: {wounds} against its battle of {battle}.",
    ),
    counted("dragon.wound#wounds", "{wounds} wound", "{wounds} wounds"),
    sentence("dragon.slayer.known", "{id} is already known as a dragonslayer."),
    sentence(
        "dragon.slayer.revealed|kind=individual",
        "{id} is tougher than it looked: a dragonslayer.",
    ),
    sentence(
        "dragon.slayer.revealed|kind=group",
        "{id} hides a dragonslayer minority: {new_entity}, prosperity {prosperity}, d{sides}.",
    ),
    # ------------------------------------------------------------ changes (DRG-12, DRG-13)
    sentence(
        "dragon.change.player",
        "The dragon's player may make one change on the scale of {level:@scale} (highest die "
        "{result}).",
    ),
    sentence("dragon.change.none", "The dragon's highest die, {result}, is too low for a change."),
    sentence(
        "dragon.change.destruction",
        "The other players and the GM make one change of destruction on the scale of "
        "{level:@scale}, from the dragon die's {result}.",
    ),
    sentence(
        "dragon.change.no_destruction",
        "The dragon die's {result} is too low for a change of destruction.",
    ),
    term("dragon.scale=0", "an individual"),
    term("dragon.scale=1", "a group"),
    term("dragon.scale=2", "a village"),
    term("dragon.scale=3", "a cluster of villages"),
    term("dragon.scale=4", "a big city"),
    term("dragon.scale=5", "a kingdom"),
    term("dragon.scale=6", "the world"),
    # ------------------------------------------------------------ the end of a round (DRG-15..17)
    sentence(
        "dragon.defeated",
        "The dragon is defeated ({wounds} against its battle of {battle}): it cannot go on, even "
        "with a reroll, and must sleep or retreat; it may never attack {slayer} the same way "
        "again.",
    ),
    counted("dragon.defeated#wounds", "{wounds} wound", "{wounds} wounds"),
    sentence("dragon.battle.ended", "The battle ends after round {round}."),
    sentence("dragon.battle.continues", "The battle goes on after round {round}."),
    sentence(
        "dragon.hoard.by_strength",
        "{id} is the strongest enemy that fought: the first in the order of strength, with "
        "prosperity {prosperity} and level {level}.",
    ),
    sentence(
        "dragon.hoard.by_level",
        "{id} is the strongest enemy that fought: the first of the highest level among them, "
        "{level}.",
    ),
    sentence(
        "dragon.hoard.dragonslayer",
        "{id} is a dragonslayer: it counts one level higher, {level} instead of {own}.",
    ),
    sentence(
        "dragon.hoard",
        "The hoard grows by {amount}: the level of {strongest}, the strongest enemy, is {level}, "
        "less 1.",
    ),
    # ------------------------------------------------------------ who, when the request names none
    term("dragon.role=dragon", "the dragon"),
)

#: What each Foundry roll was (``options.flavor``, rules/dragon/foundry.py): ``dragon.foundry.<key>``.
FLAVORS: tuple[Message, ...] = (
    sentence("dragon.foundry.dice", "{slot}: {count}d{sides}"),
    sentence(
        "dragon.foundry.won",
        "{owner}: {count}d{sides} against a highest {against}, successes: {successes}",
    ),
    sentence("dragon.foundry.none", "{owner}: {count}d{sides}, no successes"),
)
