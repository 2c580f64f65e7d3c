"""English texts of the dragon battle's event codes: the source of the catalogs (``rules.narration``).

Rendering is separate from resolving (STYLE 8). ``make catalogs`` extracts these into
``rules/locale/dragonroll.pot``; each language's ``.po`` translates them.
"""

from rules.narration import Message, counted, sentence, term

TEXTS: tuple[Message, ...] = (
    # ------------------------------------------------------------ who fights whom (DRG-1..4)
    sentence(
        "dragon.aside",
        "{id} {id:?stands|plural=stand} aside and {id:?takes|plural=take} no part in the battle.",
    ),
    sentence("dragon.order", "Order of strength: {order}."),
    sentence(
        "dragon.pair.formed",
        "{a} {a:?takes|plural=take} on {b}: they form a battle pair.",
    ),
    # TRANSLATORS: {id:?...} words agree with the entity left over (a group may be plural: "Wolves")
    sentence(
        "dragon.left_over.wait|target=none",
        "{id} {id:?has|plural=have} no target and {id:?is|plural=are} left over: "
        "{id:?it waits|feminine=she waits|masculine=he waits|plural=they wait} for the next round.",
    ),
    sentence(
        "dragon.left_over.wait|target=*",
        "{id} {id:?is|plural=are} left over, {id:?its|feminine=her|masculine=his|plural=their} "
        "target {target} already paired: "
        "{id:?it waits|feminine=she waits|masculine=he waits|plural=they wait} for the next round.",
    ),
    sentence(
        "dragon.left_over.join|target=none",
        "{id} {id:?has|plural=have} no target and {id:?is|plural=are} left over: "
        "{id:?it joins|feminine=she joins|masculine=he joins|plural=they join} {ally}, "
        "{id:?its|feminine=her|masculine=his|plural=their} dice added to that roll.",
    ),
    sentence(
        "dragon.left_over.join|target=*",
        "{id} {id:?is|plural=are} left over, {id:?its|feminine=her|masculine=his|plural=their} "
        "target {target} already paired: "
        "{id:?it joins|feminine=she joins|masculine=he joins|plural=they join} {ally}, "
        "{id:?its|feminine=her|masculine=his|plural=their} dice added to that roll.",
    ),
    sentence(
        "dragon.left_over.join_failed|target=none",
        "{id} {id:?has|plural=have} no target and {id:?is|plural=are} left over: "
        "{id:?it|feminine=she|masculine=he|plural=they} would join {ally}, but {ally} "
        "{ally:?is|plural=are} not in a pair, so "
        "{id:?it waits|feminine=she waits|masculine=he waits|plural=they wait}.",
    ),
    sentence(
        "dragon.left_over.join_failed|target=*",
        "{id} {id:?is|plural=are} left over, {id:?its|feminine=her|masculine=his|plural=their} "
        "target {target} already paired: {id:?it|feminine=she|masculine=he|plural=they} would "
        "join {ally}, but {ally} {ally:?is|plural=are} not in a pair, so "
        "{id:?it waits|feminine=she waits|masculine=he waits|plural=they wait}.",
    ),
    sentence(
        "dragon.left_over.auto_win|target=none",
        "{id} {id:?has|plural=have} no target and {id:?is|plural=are} left over: "
        "{id:?it wins|feminine=she wins|masculine=he wins|plural=they win} against {against}, "
        "outside the battle.",
    ),
    sentence(
        "dragon.left_over.auto_win|target=*",
        "{id} {id:?is|plural=are} left over, {id:?its|feminine=her|masculine=his|plural=their} "
        "target {target} already paired: "
        "{id:?it wins|feminine=she wins|masculine=he wins|plural=they win} against {against}, "
        "outside the battle.",
    ),
    # ------------------------------------------------------------ dice (DRG-5..8)
    sentence("dragon.pool.rolled|slot=dragon_die", "The dragon die, a d{sides}, shows {dice}."),
    sentence(
        "dragon.pool.rolled|slot=*", "{owner} {owner:?rolls|plural=roll} {count}d{sides}: {dice}."
    ),
    sentence(
        "dragon.pool.empty",
        "{owner} {owner:?has|plural=have} no prosperity left and {owner:?rolls|plural=roll} "
        "nothing.",
    ),
    # ------------------------------------------------------------ the dragon die's sweep (DRG-11)
    sentence(
        "dragon.sweep.not_triggered",
        "The dragon die shows {dragon_die}, below the dragon's highest {highest}: no sweep.",
    ),
    sentence(
        "dragon.sweep.failed",
        "The dragon die's {dragon_die} does not beat {opponent}{opponent:?'s|plural='} "
        "{opponent_highest} together with even the weakest other entity: no sweep.",
    ),
    sentence(
        "dragon.sweep.taken",
        "The dragon die's {dragon_die} beats {opponent}{opponent:?'s|plural='} "
        "{opponent_highest} and {added} together ({total}): the dragon defeats them all with "
        "one roll.",
    ),
    counted(
        "dragon.sweep.taken#added",
        "{added}",
        "{added}",
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
        "{winner} {winner:?beats|plural=beat} {loser}, highest die {winner_highest} against "
        "{loser_highest}: "
        "{successes}.",
    ),
    counted("dragon.pair.won#successes", "{successes} success", "{successes} successes"),
    sentence(
        "dragon.prosperity.lost|loss=0",
        "{id} {id:?has|plural=have} no prosperity left to lose ({reason}).",
    ),
    sentence(
        "dragon.prosperity.lost|loss=*",
        "{id} {id:?loses|plural=lose} {loss} prosperity ({reason}): {before}, now {after}.",
    ),
    term("dragon.reason=lost_pair", "defeated in a battle pair"),
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
        "{ids} {ids:?loses|plural=lose} nothing to the dragon die either",
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
    sentence(
        "dragon.slayer.known",
        "{id} {id:?is|plural=are} already known as {id:?a dragonslayer|plural=dragonslayers}.",
    ),
    sentence(
        "dragon.slayer.revealed|kind=individual",
        "{id} {id:?is|plural=are} tougher than {id:?it|feminine=she|masculine=he|plural=they} "
        "looked: {id:?a dragonslayer|plural=dragonslayers}.",
    ),
    # TRANSLATORS: the minority's made-up id ({new_entity}) stays in the params and next_state only
    sentence(
        "dragon.slayer.revealed|kind=group",
        "{id} {id:?hides|plural=hide} a dragonslayer minority: prosperity {prosperity}, d{sides}.",
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
        "{id} {id:?is|plural=are} the strongest enemy that fought: the first in the order of "
        "strength, with "
        "prosperity {prosperity} and level {level}.",
    ),
    sentence(
        "dragon.hoard.by_level",
        "{id} {id:?is|plural=are} the strongest enemy that fought: the first of the highest "
        "level among them, "
        "{level}.",
    ),
    sentence(
        "dragon.hoard.dragonslayer",
        "{id} {id:?is a dragonslayer|plural=are dragonslayers}: "
        "{id:?it counts|feminine=she counts|masculine=he counts|plural=they count} one level "
        "higher, {level} instead of {own}.",
    ),
    sentence(
        "dragon.hoard",
        "The hoard grows by {amount}: the level of {strongest}, the strongest enemy, is {level}, "
        "less 1.",
    ),
    # ------------------------------------------------------------ who, when the request names none
    term("dragon.role=dragon", "the dragon"),
    # ------------------------------------------------------------ a list with nothing in it
    term("dragon.list=empty", "none"),
)

#: What each Foundry roll was (``options.flavor``, rules/dragon/foundry.py): ``dragon.foundry.<key>``.
FLAVORS: tuple[Message, ...] = (
    # TRANSLATORS: a die no other roll shows: {slot} is the kind of roll (below), {who} whose
    sentence("dragon.foundry.dice|who=none", "{slot}: {count}d{sides}"),
    sentence("dragon.foundry.dice|who=*", "{who}, {slot}: {count}d{sides}"),
    term("dragon.slot=dragon_die", "dragon die"),
    term("dragon.slot=pool", "dice"),
    term("dragon.slot=slayer", "dragonslayer's die"),
    sentence(
        "dragon.foundry.won",
        "{owner}: {count}d{sides} against a highest {against}, successes: {successes}",
    ),
    sentence("dragon.foundry.none", "{owner}: {count}d{sides}, no successes"),
)
