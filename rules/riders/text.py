"""English texts of the Dragon Riders event codes: the source of the catalogs (``rules.narration``).

Rendering is separate from resolving (STYLE 8). ``make catalogs`` extracts these into
``rules/locale/dragonroll.pot``; each language's ``.po`` translates them. A side is told by its name,
else its id (``side``, ``winner``, ``loser`` hold ``initiator`` or ``defender``).
"""

from rules.narration import Message, counted, sentence, term

TEXTS: tuple[Message, ...] = (
    # ------------------------------------------------------------ bonuses (RDR-2, RDR-3)
    sentence(
        "riders.bonus.fatigued",
        "{side} {side:?has|plural=have} 3 fatigue: "
        "{side:?its|feminine=her|masculine=his|plural=their} riders' elemental bonuses "
        "({elemental}) do not count.",
    ),
    sentence(
        "riders.item.pre|extra_dice=*",
        "{side} {side:?uses|plural=use} {name} before the fight: {value:+d} (dice: {dice}) "
        "and {extra_dice} for the roll-off.",
    ),
    sentence(
        "riders.item.pre|extra_dice=0",
        "{side} {side:?uses|plural=use} {name} before the fight: {value:+d} (dice: {dice}).",
    ),
    counted("riders.item.pre#extra_dice", "{extra_dice} extra die", "{extra_dice} extra dice"),
    sentence(
        "riders.bonus",
        "{side}{side:?'s|plural='} bonus is {total}: elemental {elemental}, terrain "
        "{terrain}, items {items}.",
    ),
    # ------------------------------------------------------------ the roll-off (RDR-4)
    sentence(
        "riders.rolloff",
        "{side} {side:?rolls|plural=roll} {count}: {dice}, a sum of {sum}; with "
        "{side:?its|feminine=her|masculine=his|plural=their} bonus of {bonus}, {total}.",
    ),
    counted("riders.rolloff#count", "{count} die", "{count} dice"),
    sentence(
        "riders.rolloff.conceded",
        "{side} {side:?concedes|plural=concede} without rolling and will take two damage.",
    ),
    sentence(
        "riders.presumptive_loser",
        "{loser} {loser:?is|plural=are} behind, {loser_total} against {other_total}: "
        "{loser:?the presumptive loser|plural=the presumptive losers}.",
    ),
    sentence(
        "riders.presumptive_loser.tie",
        "Both total {loser_total}, and the initiator wins ties: {loser} "
        "{loser:?is the presumptive loser|plural=are the presumptive losers}.",
    ),
    # ------------------------------------------------------------ counterattacks (RDR-5)
    sentence(
        "riders.counter.item",
        "{side} {side:?plays|plural=play} {name}: {value:+d} (dice: {dice}), now {total} "
        "against {other_total}.",
    ),
    sentence(
        "riders.counter.lead",
        "{side} {side:?takes|plural=take} the lead, {total} against {other_total}.",
    ),
    sentence(
        "riders.conceded",
        "{side} {side:?concedes|plural=concede}: {winner} {winner:?wins|plural=win}.",
    ),
    sentence(
        "riders.winner",
        "{winner} {winner:?wins|plural=win} the fight; {loser} {loser:?loses|plural=lose}.",
    ),
    # ------------------------------------------------------------ damage (RDR-6)
    sentence("riders.damage.skipped.hide_shield", "No damage: {winner} used a Hide Shield."),
    sentence("riders.damage.skipped.ranged", "No damage: {loser} attacked from range."),
    sentence(
        "riders.damage.double",
        "{loser} conceded without rolling: "
        "{loser:?it takes|feminine=she takes|masculine=he takes|plural=they take} two damage.",
    ),
    sentence(
        "riders.damage.fatigue",
        "Damage {n}: {loser} {loser:?takes|plural=take} one fatigue, now {fatigue}.",
    ),
    sentence(
        "riders.damage.fatigue_at_max|rider_lost=true|riders=*",
        "Damage {n}: {loser} {loser:?is|plural=are} already at 3 fatigue and "
        "{loser:?loses its|feminine=loses her|masculine=loses his|plural=lose their} Dragon "
        "Rider ({riders}); {loser:?its|feminine=her|masculine=his|plural=their} rage rises to "
        "{rage}.",
    ),
    sentence(
        "riders.damage.fatigue_at_max|rider_lost=true|riders=none",
        "Damage {n}: {loser} {loser:?is|plural=are} already at 3 fatigue and "
        "{loser:?loses its|feminine=loses her|masculine=loses his|plural=lose their} Dragon "
        "Rider; {loser:?its|feminine=her|masculine=his|plural=their} rage rises to {rage}.",
    ),
    sentence(
        "riders.damage.fatigue_at_max|rider_lost=false|riders=*",
        "Damage {n}: {loser} {loser:?is|plural=are} already at 3 fatigue, with no Dragon "
        "Rider left to lose; {loser:?its|feminine=her|masculine=his|plural=their} rage rises "
        "to {rage}.",
    ),
    sentence(
        "riders.damage.knockback",
        "Damage {n}: {loser} {loser:?is|plural=are} knocked back {direction}, to ({x}, {y}).",
    ),
    term("riders.direction=N", "north"),
    term("riders.direction=NE", "north-east"),
    term("riders.direction=E", "east"),
    term("riders.direction=SE", "south-east"),
    term("riders.direction=S", "south"),
    term("riders.direction=SW", "south-west"),
    term("riders.direction=W", "west"),
    term("riders.direction=NW", "north-west"),
    sentence(
        "riders.damage.swap",
        "Damage {n}: {winner} and {loser} swap places and facings.",
    ),
    sentence(
        "riders.damage.item",
        "Damage {n}: {winner} {winner:?uses|plural=use} {name} on {loser}: {effect}",
    ),
    # ------------------------------------------------------------ step by step (RDR-10)
    sentence(
        "riders.awaiting",
        "Waiting for {by} to choose what to do in the {phase}.",
    ),
    term("riders.phase=rolloff", "roll-off"),
    term("riders.phase=counterattack", "counterattack"),
    term("riders.phase=damage", "damage step"),
    # ------------------------------------------------------------ lists with nothing in them
    term("riders.list=empty", "none"),
)

#: What each Foundry roll was (``options.flavor``, rules/riders/foundry.py): ``riders.foundry.<key>``.
FLAVORS: tuple[Message, ...] = (
    # TRANSLATORS: a die no other roll shows: {slot} is the kind of roll (below), {who} whose
    sentence("riders.foundry.dice|who=none", "{slot}: {count}d{sides}"),
    sentence("riders.foundry.dice|who=*", "{who}, {slot}: {count}d{sides}"),
    term("riders.slot=rolloff", "roll-off"),
    term("riders.slot=item", "item"),
    sentence("riders.foundry.rolloff", "Roll-off: {side}"),
    sentence(
        "riders.foundry.item",
        "{side} {side:?uses|plural=use} {name}",
    ),
)
