"""English sentences for the dnd5e event codes (rendering is separate from resolving, STYLE 8)."""

TEXTS: dict[str, str] = {
    # surprise (D5E-3, D5E-4)
    "dnd5e.stealth.rolled": "{id} hides: Stealth {total} (d20s {d20s}, {mode}, {modifier:+d}).",
    "dnd5e.stealth.given": "{id} hides: Stealth {total}.",
    "dnd5e.surprise.gm": "The GM rules {id} {verdict}.",
    "dnd5e.surprise.noticed": (
        "{id} (passive Perception {passive}) notices {noticed}; not surprised."
    ),
    "dnd5e.surprise.in_view": "{id} sees an opponent that is not hiding; not surprised.",
    "dnd5e.surprise.no_opponent": "{id} has no opponent; not surprised.",
    "dnd5e.surprise.unnoticed": (
        "{id} (passive Perception {passive}) notices none of {unnoticed}: surprised. It can neither "
        "move nor act on its first turn, nor react until that turn ends."
    ),
    # initiative (D5E-5..7)
    "dnd5e.initiative.rolled": (
        "{id} rolls initiative {total} (d20s {d20s}, {mode}, {modifier:+d}) for {members}."
    ),
    "dnd5e.initiative.tie": "Tied at {total}: {ids}.",
    "dnd5e.tiebreak.rolled": "{id} rolls {value} to break the tie.",
    "dnd5e.tiebreak.dexterity": "Tie at {total} broken by Dexterity: {ids}.",
    "dnd5e.tiebreak.given": "Tie at {total} broken by the given order: {ids}.",
    "dnd5e.initiative.order": "Initiative order: {order}.",
    # turn (D5E-4, D5E-8, D5E-9)
    "dnd5e.turn.violation": "Step {step}: {message} ({rule}).",
    "dnd5e.turn.valid": "The turn plan fits its budgets.",
    "dnd5e.turn.invalid": "The turn plan breaks {count} rule(s).",
    # checks and attacks (D5E-10..15)
    "dnd5e.check.success": "Check {total} (d20s {d20s}, {mode}, {modifier:+d}) meets DC {dc}.",
    "dnd5e.check.failure": "Check {total} (d20s {d20s}, {mode}, {modifier:+d}) misses DC {dc}.",
    "dnd5e.attack.critical": "Natural 20: a critical hit (total {total} against AC {ac}).",
    "dnd5e.attack.fumble": "Natural 1: the attack misses (total {total} against AC {ac}).",
    "dnd5e.attack.hit": "Attack {total} (d20s {d20s}, {mode}) hits AC {ac}.",
    "dnd5e.attack.miss": "Attack {total} (d20s {d20s}, {mode}) misses AC {ac}.",
    "dnd5e.damage.part": (
        "Damage part {n} ({dice}, {type}): dice {rolls}, modifier {modifier:+d}: {total}."
    ),
    "dnd5e.damage.critical": (
        "Damage part {n} ({dice}, {type}): dice {rolls} and again {critical_rolls} (critical), "
        "modifier {modifier:+d} once: {total}."
    ),
    "dnd5e.damage.type": "{type}: {rolled} becomes {total} ({applied}).",
    "dnd5e.damage.total": "Total damage {total}.",
    "dnd5e.target.temp_hp": "Temporary hit points absorb {absorbed}.",
    "dnd5e.target.hp": "The target drops from {before} to {after} hit points.",
    "dnd5e.target.unconscious": "The target falls to 0 hit points and is unconscious.",
    "dnd5e.target.monster_dies": "The monster drops to 0 hit points and dies.",
    "dnd5e.target.massive": (
        "{left_over} damage left over at 0 hit points is at least the maximum {max_hp}: "
        "the target dies outright."
    ),
    "dnd5e.target.failures": (
        "Damage at 0 hit points: {added} death save failure(s), {failures} in all."
    ),
    "dnd5e.target.dead": "Three death save failures: the target dies.",
    # death saves (D5E-16)
    "dnd5e.death_save.nat20": "Natural 20: the creature regains 1 hit point and wakes.",
    "dnd5e.death_save.nat1": "Natural 1: two failures ({failures} in all).",
    "dnd5e.death_save.success": "Death save {total}: a success ({successes} in all).",
    "dnd5e.death_save.failure": "Death save {total}: a failure ({failures} in all).",
    "dnd5e.death_save.stable": "Three successes: the creature is stable.",
    "dnd5e.death_save.dead": "Three failures: the creature dies.",
    "dnd5e.death_save.reset": (
        "No longer dying: both counts reset to 0 (from {successes} success(es) and "
        "{failures} failure(s))."
    ),
}
