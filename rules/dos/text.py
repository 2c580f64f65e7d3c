"""English sentences for the DoS event codes (rendering is separate from resolving, STYLE 8)."""

TEXTS: dict[str, str] = {
    "dos.pool.rolled": "{slot}: rolled {size} d10: {dice}.",
    "dos.pool.all_cancelled": (
        "{slot}: {ones} ones against {others} other dice cancel every die, the ones included."
    ),
    "dos.die.cancelled": "{slot}: the 1 at position {by} cancels the {value} at position {index}.",
    "dos.die.exploded": "{slot}: the 10 at position {index} explodes: extra dice {extra}.",
    "dos.luck": "{slot}: luck! {tens} tens against {others} other dice; the action succeeds.",
    "dos.bad_luck": "{slot}: bad luck! {ones} ones against {others} other dice; the action fails.",
    "dos.pool.result": "{slot}: dice result {result}.",
    "dos.test.success": (
        "Total {total} ({stat} + {result}, {percent:+d}%) beats DC {dc}: success."
    ),
    "dos.test.failure": (
        "Total {total} ({stat} + {result}, {percent:+d}%) does not beat DC {dc}: failure."
    ),
    "dos.test.luck": "Luck: success whatever the total ({total} against DC {dc}).",
    "dos.test.bad_luck": "Bad luck: failure whatever the total ({total} against DC {dc}).",
    "dos.opposed.total": "Side {side}: total {total} ({stat} + {result}, {percent:+d}%).",
    "dos.opposed.winner": (
        "Side {winner} wins the opposed test ({winner_total} against {loser_total}, by {reason})."
    ),
    "dos.opposed.tie": "Both sides total {total}: a tie, nobody wins.",
    "dos.complex.attempt": (
        "Attempt {n}: total {total} against DC {dc}: {outcome} ({successes} successes so far)."
    ),
    "dos.complex.success": "The complex test succeeds after {attempts} attempts.",
    "dos.complex.failure": (
        "The complex test fails: {successes} of {needed} successes in {attempts} attempts"
        " (partial: {partial})."
    ),
    # ------------------------------------------------------------ combat (DOS-14..29)
    "dos.actions.count": (
        "{id}: speed {speed} against opponents {opponents} (speed {opponents_speed}): "
        "{actions} action(s) per turn."
    ),
    "dos.initiative.placed": "{id} is placed at position {position} by the GM (waited or hidden).",
    "dos.initiative.rolled": "{id}: initiative d10 {roll} + speed {speed} = {total}.",
    "dos.initiative.tie": "{ids} tie at {total}: they roll again among themselves.",
    "dos.initiative.reroll": "{id}: tie-break d10 {roll} + speed {speed} = {total}.",
    "dos.initiative.order": "Initiative order: {order}.",
    "dos.attack.total": "{attacker} attacks: total {total} ({stat} + {result}, {percent:+d}%).",
    "dos.attack.ranged": (
        "{attacker} shoots or throws: total {total} ({stat} + {result}, {percent:+d}%) against "
        "DC {dc}: {outcome}."
    ),
    "dos.defense.total": (
        "{defender} tries to {kind}: total {total} ({stat} + {result}, {percent:+d}%); "
        "{used} of {allowed} used this turn (running: {running})."
    ),
    "dos.defense.none": (
        "{defender} does not defend: the attack hits unless {attacker} has bad luck (DOS-19)."
    ),
    "dos.attack.hit": "{attacker} hits {defender} ({reason}).",
    "dos.attack.miss": "{attacker} does not hit {defender} ({reason}).",
    "dos.run.stopped": (
        "{defender} rolls {die} after a successful {kind} while running: it stops and loses "
        "the rest of its turn (DOS-22)."
    ),
    "dos.run.keeps_running": (
        "{defender} rolls {die} after a successful {kind} while running: it keeps running."
    ),
    "dos.location.rolled": "Hit location d10 {die}: {location}.",
    "dos.location.aimed": "The attack was aimed at the {location}: no location roll.",
    "dos.damage.clumsy": "Damage die {die}: a clumsy hit deals exactly 1.",
    "dos.damage.rolled": (
        "Damage die {die}: {percent}% of base {base} (halved: {halved}) = {raw}."
    ),
    "dos.damage.armor": "Armor {armor} absorbs part of {raw}: {amount} left.",
    "dos.damage.gm": "The GM sets {amount} {kind} damage (DOS-29).",
    "dos.damage.none": "{target} takes no damage.",
    "dos.damage.light_as_serious": (
        "{target} is at 0 hp: light damage counts as serious (DOS-28)."
    ),
    "dos.damage.full_bar": (
        "{target} has no life points left: the light damage is dealt as serious damage against "
        "a full bar of {max_hp} (DOS-28)."
    ),
    "dos.damage.beaten": (
        "{target} is on its second bar: light damage counts as serious, with no refill (DOS-28)."
    ),
    "dos.damage.no_full_bar": (
        "{target} is at 0 hp with no max_hp to refill: light damage counts as serious (DOS-28)."
    ),
    "dos.damage.applied": "{target} takes {amount} {kind} damage: hp {hp_before} -> {hp}.",
    "dos.damage.critical": "{target} takes a critical wound (DOS-28).",
    "dos.damage.incapacitated": "{target} falls to 0 hp and is incapacitated (DOS-28).",
    "dos.maneuver.side": (
        "{who} ({side}): {kind} with {stat} {value} + {skill} dice {result}, {percent:+d}%: "
        "total {total}."
    ),
    "dos.maneuver.grab.success": "{a} grabs {b} ({reason}).",
    "dos.maneuver.grab.failure": "{a} fails to grab {b} ({reason}).",
    "dos.maneuver.break_free.success": "{a} breaks free from {b} ({reason}).",
    "dos.maneuver.break_free.failure": "{a} fails to break free from {b} ({reason}).",
    "dos.maneuver.push.success": "{a} pushes {b} ({reason}).",
    "dos.maneuver.push.failure": "{a} fails to push {b}, who stays put ({reason}).",
    "dos.maneuver.feint_push.success": "{a} drives {b} back with feints ({reason}).",
    "dos.maneuver.feint_push.failure": "{a}'s feints do not move {b} ({reason}).",
    "dos.turn.begins": "{id} begins its turn with {actions} action(s).",
    "dos.turn.incapacitated": "{id} is incapacitated and takes no action.",
    "dos.turn.stopped": "{id} was stopped while running and has lost its turn (DOS-22).",
    "dos.turn.run": "{id} runs {metres} metres (all its actions, DOS-22).",
    "dos.turn.step": "{id} steps {metres} metres (at most {max_metres}, DOS-23).",
    "dos.turn.wait": "{id} waits for its moment; the GM may place it first next turn.",
    "dos.turn.target_down": (
        "{id}: {target} is incapacitated; {skipped} remaining attack(s) are not made."
    ),
}
