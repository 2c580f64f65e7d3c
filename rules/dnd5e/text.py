"""English texts of the dnd5e event codes: the source of the catalogs (``rules.narration``). The lists
of ids (``noticed_ids``, ``tied``, ``ordered``, ``member_ids``) are shown by name; the older string
parameters (``noticed``, ``ids``, ``order``, ``members``) hold the same ids joined, for callers.
"""

from rules.narration import Message, counted, sentence, term

TEXTS: tuple[Message, ...] = (
    # ------------------------------------------------------------ surprise (D5E-3, D5E-4)
    sentence(
        "dnd5e.stealth.rolled",
        "{id} {id:?hides|plural=hide}: Stealth {total} (d20 {d20s}, {mode}, {modifier:+d}).",
    ),
    sentence(
        "dnd5e.stealth.given",
        "{id} {id:?hides|plural=hide}: Stealth {total}.",
    ),
    sentence(
        "dnd5e.surprise.gm|verdict=surprised",
        "The GM rules that {id} {id:?is|plural=are} surprised.",
    ),
    sentence(
        "dnd5e.surprise.gm|verdict=not surprised",
        "The GM rules that {id} {id:?is|plural=are} not surprised.",
    ),
    sentence(
        "dnd5e.surprise.noticed",
        "{id} (passive Perception {passive}) {id:?notices|plural=notice} {noticed_ids}: not "
        "surprised.",
    ),
    sentence(
        "dnd5e.surprise.in_view",
        "{id} {id:?sees|plural=see} an opponent who is not hiding: not surprised.",
    ),
    sentence(
        "dnd5e.surprise.no_opponent",
        "{id} {id:?has|plural=have} no opponent: not surprised.",
    ),
    sentence(
        "dnd5e.surprise.unnoticed",
        "{id} (passive Perception {passive}) {id:?notices|plural=notice} none of "
        "{unnoticed_ids}: surprised. {id:?It|feminine=She|masculine=He|plural=They} can "
        "neither move nor act on {id:?its|feminine=her|masculine=his|plural=their} first "
        "turn, nor react until that turn ends.",
    ),
    # ------------------------------------------------------------ initiative (D5E-5..7)
    sentence(
        "dnd5e.initiative.rolled",
        "Initiative {total} for {member_ids} (d20 {d20s}, {mode}, {modifier:+d}).",
    ),
    sentence("dnd5e.initiative.tie", "A tie at {total}: {tied}."),
    sentence(
        "dnd5e.tiebreak.rolled",
        "{id} {id:?rolls|plural=roll} {value} to break the tie.",
    ),
    sentence("dnd5e.tiebreak.dexterity", "The tie at {total} goes by Dexterity: {ordered}."),
    sentence("dnd5e.tiebreak.given", "The tie at {total} goes by the order given: {ordered}."),
    sentence("dnd5e.initiative.order", "Initiative order: {ordered}."),
    # ------------------------------------------------------------ a turn's budget (D5E-4, D5E-8, D5E-9)
    sentence(
        "dnd5e.turn.violation|violation=surprised",
        "Step {step:pos}: a surprised creature cannot move, act or react on its first turn.",
    ),
    sentence(
        "dnd5e.turn.violation|violation=incapacitated",
        "Step {step:pos}: an incapacitated creature takes no action and no reaction.",
    ),
    sentence(
        "dnd5e.turn.violation|violation=second_action",
        "Step {step:pos}: a turn has only one action.",
    ),
    sentence(
        "dnd5e.turn.violation|violation=bonus_action_not_granted",
        "Step {step:pos}: a bonus action needs a feature, spell or ability that grants it.",
    ),
    sentence(
        "dnd5e.turn.violation|violation=second_bonus_action",
        "Step {step:pos}: a turn has only one bonus action.",
    ),
    sentence(
        "dnd5e.turn.violation|violation=actions_prevented",
        "Step {step:pos}: what prevents actions prevents bonus actions too.",
    ),
    sentence(
        "dnd5e.turn.violation|violation=second_interaction",
        "Step {step:pos}: only one object interaction is free; a second one takes the action.",
    ),
    sentence(
        "dnd5e.turn.violation|violation=second_reaction",
        "Step {step:pos}: only one reaction per round.",
    ),
    sentence(
        "dnd5e.turn.violation|violation=movement_exceeds_speed",
        "Step {step:pos}: {movement} of movement, more than the {allowed} allowed.",
    ),
    counted("dnd5e.turn.violation#movement", "{movement} foot", "{movement} feet"),
    counted("dnd5e.turn.violation#allowed", "{allowed} foot", "{allowed} feet"),
    sentence("dnd5e.turn.valid", "The turn fits its movement, action and reaction budgets."),
    sentence("dnd5e.turn.invalid", "The turn breaks {count}."),
    counted("dnd5e.turn.invalid#count", "{count} rule", "{count} rules"),
    # ------------------------------------------------------------ checks and attacks (D5E-10..15)
    sentence(
        "dnd5e.check.success",
        "Check {total} (d20 {d20s}, {mode}, {modifier:+d}) against DC {dc}: success.",
    ),
    sentence(
        "dnd5e.check.failure",
        "Check {total} (d20 {d20s}, {mode}, {modifier:+d}) against DC {dc}: failure.",
    ),
    sentence(
        "dnd5e.attack.critical",
        "A natural 20: a critical hit on {target} (total {total} against AC {ac}).",
    ),
    sentence(
        "dnd5e.attack.fumble", "A natural 1: the attack misses (total {total} against AC {ac})."
    ),
    sentence(
        "dnd5e.attack.hit",
        "Attack {total} (d20 {d20s}, {mode}) against AC {ac}: a hit on {target}.",
    ),
    sentence("dnd5e.attack.miss", "Attack {total} (d20 {d20s}, {mode}) against AC {ac}: a miss."),
    term("dnd5e.mode=normal", "no advantage"),
    term("dnd5e.mode=advantage", "with advantage"),
    term("dnd5e.mode=disadvantage", "with disadvantage"),
    sentence(
        "dnd5e.damage.part|rolls=*",
        "Damage {n:pos} ({dice:notation} {type}): dice {rolls}, modifier {modifier:+d}, "
        "{total} in all.",
    ),
    sentence(
        "dnd5e.damage.part|rolls=none",
        "Damage {n:pos} ({dice:notation} {type}): no dice, a flat {total}.",
    ),
    sentence(
        "dnd5e.damage.critical|rolls=*",
        "Damage {n:pos} ({dice:notation} {type}): dice {rolls} and, for the critical, "
        "{critical_rolls}; modifier {modifier:+d} once, {total} in all.",
    ),
    sentence(
        "dnd5e.damage.critical|rolls=none",
        "Damage {n:pos} ({dice:notation} {type}): no dice, a flat {total}, which a critical "
        "hit does not double.",
    ),
    sentence(
        "dnd5e.damage.type|applied=immunity",
        "{target} {target:?is|plural=are} immune to {type}: {rolled} becomes {total}.",
    ),
    sentence(
        "dnd5e.damage.type|applied=resistance",
        "{target} {target:?resists|plural=resist} {type}: {rolled} is halved to {total}.",
    ),
    sentence(
        "dnd5e.damage.type|applied=vulnerability",
        "{target} {target:?is|plural=are} vulnerable to {type}: {rolled} is doubled to {total}.",
    ),
    sentence(
        "dnd5e.damage.type|applied=resistance, vulnerability",
        "{target} both {target:?resists|plural=resist} and {target:?is|plural=are} vulnerable "
        "to {type}: {rolled} is halved, then doubled, to {total}.",
    ),
    # TRANSLATORS: the "d" of a dice notation ("1d12+3"): the language's way to write a die
    term("dnd5e.notation=d", "d"),
    term("dnd5e.type=acid", "acid"),
    term("dnd5e.type=bludgeoning", "bludgeoning"),
    term("dnd5e.type=cold", "cold"),
    term("dnd5e.type=fire", "fire"),
    term("dnd5e.type=force", "force"),
    term("dnd5e.type=lightning", "lightning"),
    term("dnd5e.type=necrotic", "necrotic"),
    term("dnd5e.type=piercing", "piercing"),
    term("dnd5e.type=poison", "poison"),
    term("dnd5e.type=psychic", "psychic"),
    term("dnd5e.type=radiant", "radiant"),
    term("dnd5e.type=slashing", "slashing"),
    term("dnd5e.type=thunder", "thunder"),
    sentence("dnd5e.damage.total", "{total} damage in all."),
    sentence("dnd5e.target.temp_hp", "Temporary hit points absorb {absorbed}."),
    sentence(
        "dnd5e.target.hp",
        "{target} {target:?drops|plural=drop} from {before} to {after} hit points.",
    ),
    sentence(
        "dnd5e.target.unconscious",
        "{target} {target:?falls|plural=fall} to 0 hit points and {target:?is|plural=are} "
        "unconscious.",
    ),
    sentence(
        "dnd5e.target.monster_dies",
        "{target} {target:?drops|plural=drop} to 0 hit points and {target:?dies|plural=die}.",
    ),
    sentence(
        "dnd5e.target.massive",
        "{left_over} damage is left over at 0 hit points, at least "
        "{target}{target:?'s|plural='} maximum of {max_hp}: {target} "
        "{target:?dies|plural=die} outright.",
    ),
    sentence(
        "dnd5e.target.failures",
        "Damage at 0 hit points: {added}, {failures} in all.",
    ),
    counted(
        "dnd5e.target.failures#added", "{added} death save failure", "{added} death save failures"
    ),
    sentence(
        "dnd5e.target.dead",
        "Three death save failures: {target} {target:?dies|plural=die}.",
    ),
    # ------------------------------------------------------------ death saves (D5E-16)
    sentence("dnd5e.death_save.nat20", "A natural 20: the creature regains 1 hit point and wakes."),
    sentence("dnd5e.death_save.nat1", "A natural 1: two failures, {failures} in all."),
    sentence("dnd5e.death_save.success", "Death save {total}: a success, {successes} in all."),
    sentence("dnd5e.death_save.failure", "Death save {total}: a failure, {failures} in all."),
    sentence("dnd5e.death_save.stable", "Three successes: the creature is stable."),
    sentence(
        "dnd5e.death_save.reset",
        "No longer dying: both counts go back to 0 (they stood at {successes} and {failures}).",
    ),
    counted("dnd5e.death_save.reset#successes", "{successes} success", "{successes} successes"),
    counted("dnd5e.death_save.reset#failures", "{failures} failure", "{failures} failures"),
    sentence("dnd5e.death_save.dead", "Three failures: the creature dies."),
    # ------------------------------------------------------------ who, when the request names none
    term("dnd5e.role=target", "the target"),
    # ------------------------------------------------------------ a list with nothing in it
    term("dnd5e.list=empty", "none"),
)

#: What each Foundry roll was (``options.flavor``, rules/dnd5e/foundry.py): ``dnd5e.foundry.<key>``.
FLAVORS: tuple[Message, ...] = (
    # TRANSLATORS: a die no other roll shows: {slot} is the kind of roll (below), {who} whose
    sentence("dnd5e.foundry.dice|who=none", "{slot}: {count}d{sides}"),
    sentence("dnd5e.foundry.dice|who=*", "{who}, {slot}: {count}d{sides}"),
    term("dnd5e.slot=stealth", "Stealth"),
    term("dnd5e.slot=initiative", "initiative"),
    term("dnd5e.slot=tiebreak", "tie-break"),
    term("dnd5e.slot=d20", "d20"),
    term("dnd5e.slot=attack", "attack roll"),
    term("dnd5e.slot=damage", "damage"),
    sentence("dnd5e.foundry.check", "Ability check"),
    sentence("dnd5e.foundry.attack", "Attack roll"),
    sentence("dnd5e.foundry.damage", "Damage ({dice:notation}, {type})"),
    sentence("dnd5e.foundry.damage_critical", "Critical damage ({dice:notation}, {type})"),
    sentence("dnd5e.foundry.death_save", "Death saving throw"),
    sentence("dnd5e.foundry.initiative", "{id}: initiative"),
    sentence("dnd5e.foundry.stealth", "{id}: Stealth"),
)
