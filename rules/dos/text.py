"""English texts of the DoS event codes: the source of the catalogs (``rules.narration``).

Rendering is separate from resolving (STYLE 8). ``make catalogs`` extracts these into
``rules/locale/dragonroll.pot``; each language's ``.po`` translates them.
"""

from rules.narration import Message, counted, sentence, term

TEXTS: tuple[Message, ...] = (
    # ------------------------------------------------------------ pools (DOS-1..6)
    sentence("dos.pool.rolled|size=*", "{size} rolled: {dice}."),
    sentence("dos.pool.rolled|size=0", "No dice to roll."),
    counted("dos.pool.rolled#size", "{size} die", "{size} dice"),
    sentence(
        "dos.pool.all_cancelled|others=*",
        "{ones} against {others}: every die is cancelled, the 1s too.",
    ),
    sentence("dos.pool.all_cancelled|others=0", "{ones} and no other die: every die is cancelled."),
    counted("dos.pool.all_cancelled#ones", "{ones} die showing 1", "{ones} dice showing 1"),
    counted("dos.pool.all_cancelled#others", "{others} other die", "{others} other dice"),
    sentence("dos.die.cancelled", "A 1 cancels the highest die ({value})."),
    sentence("dos.die.exploded", "A 10 explodes and adds {extra}."),
    # TRANSLATORS: {extra} is the list of the extra dice (a 10 adds one more, which may be a 10 again)
    counted("dos.die.exploded#extra", "an extra die: {extra}", "extra dice: {extra}"),
    sentence(
        "dos.luck|others=*",
        "Luck! {tens} against {others}: the action succeeds whatever the total.",
    ),
    sentence(
        "dos.luck|others=0",
        "Luck! {tens} and no other die: the action succeeds whatever the total.",
    ),
    counted("dos.luck#tens", "{tens} die shows 10", "{tens} dice show 10"),
    counted("dos.luck#others", "{others} other die", "{others} other dice"),
    sentence(
        "dos.bad_luck|others=*",
        "Bad luck! {ones} against {others}: the action fails whatever the total.",
    ),
    sentence(
        "dos.bad_luck|others=0",
        "Bad luck! {ones} and no other die: the action fails whatever the total.",
    ),
    counted("dos.bad_luck#ones", "{ones} die shows 1", "{ones} dice show 1"),
    counted("dos.bad_luck#others", "{others} other die", "{others} other dice"),
    sentence("dos.pool.result", "Dice result: {result}."),
    # ------------------------------------------------------------ tests (DOS-7..13)
    sentence(
        "dos.test.success",
        "Total {total} ({stat} + {result}, {percent:+d}%) against DC {dc}: success.",
    ),
    sentence(
        "dos.test.failure",
        "Total {total} ({stat} + {result}, {percent:+d}%) against DC {dc}: failure.",
    ),
    sentence(
        "dos.test.luck", "Luck: the test succeeds whatever the total ({total} against DC {dc})."
    ),
    sentence(
        "dos.test.bad_luck",
        "Bad luck: the test fails whatever the total ({total} against DC {dc}).",
    ),
    sentence("dos.opposed.total", "{side}: total {total} ({stat} + {result}, {percent:+d}%)."),
    sentence(
        "dos.opposed.winner|reason=total",
        "{winner} wins the opposed test, {winner_total} against {loser_total}.",
    ),
    sentence(
        "dos.opposed.winner|reason=luck",
        "{winner} wins the opposed test by luck ({winner_total} against {loser_total}).",
    ),
    sentence(
        "dos.opposed.winner|reason=bad_luck",
        "{winner} wins the opposed test: {loser} has bad luck ({winner_total} against "
        "{loser_total}).",
    ),
    sentence("dos.opposed.tie", "Both sides total {total}: a tie, nobody wins."),
    sentence(
        "dos.complex.attempt",
        "Attempt {n}: {total} against DC {dc}, {outcome}; {successes} so far.",
    ),
    counted("dos.complex.attempt#successes", "{successes} success", "{successes} successes"),
    sentence("dos.complex.success", "The complex test succeeds after {attempts}."),
    counted("dos.complex.success#attempts", "{attempts} attempt", "{attempts} attempts"),
    sentence(
        "dos.complex.failure|partial=true",
        "The complex test fails with {successes} of the {needed} needed in {attempts}: a partial "
        "success.",
    ),
    sentence(
        "dos.complex.failure|partial=false",
        "The complex test fails: not one success in {attempts} ({needed} needed).",
    ),
    counted("dos.complex.failure#attempts", "{attempts} attempt", "{attempts} attempts"),
    term("dos.outcome=success", "a success"),
    term("dos.outcome=failure", "a failure"),
    term("dos.outcome=luck", "luck, a success"),
    term("dos.outcome=bad_luck", "bad luck, a failure"),
    # ------------------------------------------------------------ combat (DOS-14..29)
    sentence(
        "dos.actions.count|opponents=*",
        "{id} (speed {speed}) against {opponents} (speed {opponents_speed}): {actions} per turn.",
    ),
    sentence(
        "dos.actions.count|opponents=none",
        "{id} (speed {speed}) has no opponent left who can fight: {actions} per turn.",
    ),
    # TRANSLATORS: the opponents' names, in the form of their number ("przeciwnik: X", "przeciwnicy: X i Y")
    counted("dos.actions.count#opponents", "{opponents}", "{opponents}"),
    counted("dos.actions.count#actions", "{actions} action", "{actions} actions"),
    sentence(
        "dos.initiative.placed",
        "The GM places {id} at position {position} ({id:?it|feminine=she|masculine=he} waited or was hidden).",
    ),
    sentence(
        "dos.initiative.rolled", "{id} rolls {roll} for initiative: {total} with speed {speed}."
    ),
    # TRANSLATORS: the whole sentence is the counted phrase below, in the form of the number of names
    sentence("dos.initiative.tie", "{ids}."),
    counted(
        "dos.initiative.tie#ids",
        "{ids} ties at {total} and rolls again",
        "{ids} tie at {total} and roll again among themselves",
    ),
    sentence(
        "dos.initiative.reroll", "{id} rolls {roll} to break the tie: {total} with speed {speed}."
    ),
    sentence("dos.initiative.order", "Initiative order: {order}."),
    sentence("dos.attack.total", "{attacker} attacks: {total} ({stat} + {result}, {percent:+d}%)."),
    sentence(
        "dos.attack.ranged",
        "{attacker} shoots or throws: {total} ({stat} + {result}, {percent:+d}%) against DC {dc}, "
        "{outcome}.",
    ),
    sentence(
        "dos.defense.total|kind=block|running=false",
        "{defender} blocks: {total} ({stat} + {result}, {percent:+d}%), block {used} of {allowed} "
        "this turn.",
    ),
    sentence(
        "dos.defense.total|kind=block|running=true",
        "{defender} blocks on the run: {total} ({stat} + {result}, {percent:+d}%), block {used} of "
        "{allowed} this turn.",
    ),
    sentence(
        "dos.defense.total|kind=dodge|running=false",
        "{defender} dodges: {total} ({stat} + {result}, {percent:+d}%), dodge {used} of {allowed} "
        "this turn.",
    ),
    sentence(
        "dos.defense.total|kind=dodge|running=true",
        "{defender} dodges on the run: {total} ({stat} + {result}, {percent:+d}%), dodge {used} of "
        "{allowed} this turn.",
    ),
    sentence("dos.defense.none|hit=true", "{defender} does not defend: the attack goes home."),
    sentence(
        "dos.defense.none|hit=false",
        "{defender} does not defend, but {attacker}'s bad luck spoils the attack.",
    ),
    sentence("dos.attack.hit|reason=total", "{attacker}'s total beats {defender}'s. Hit!"),
    sentence("dos.attack.hit|reason=luck", "{attacker} has luck against {defender}. Hit!"),
    sentence("dos.attack.hit|reason=bad_luck", "{defender} has bad luck against {attacker}. Hit!"),
    sentence(
        "dos.attack.hit|reason=no_defense", "{defender} does not defend against {attacker}. Hit!"
    ),
    sentence("dos.attack.hit|reason=dc", "{attacker}'s shot reaches {defender}. Hit!"),
    sentence(
        "dos.attack.miss|reason=total", "{defender}'s total holds against {attacker}'s. Miss."
    ),
    sentence("dos.attack.miss|reason=luck", "{defender} has luck against {attacker}. Miss."),
    sentence(
        "dos.attack.miss|reason=bad_luck", "{attacker} has bad luck against {defender}. Miss."
    ),
    sentence(
        "dos.attack.miss|reason=tie",
        "{attacker} and {defender} tie, and a tie goes to the defence. Miss.",
    ),
    sentence("dos.attack.miss|reason=dc", "{attacker}'s shot falls short of {defender}. Miss."),
    sentence(
        "dos.run.stopped",
        "{defender} rolls {die} after the {kind} on the run: {defender:?it|feminine=she|masculine=he} stops and loses "
        "the rest of {defender:?its|feminine=her|masculine=his} turn.",
    ),
    sentence(
        "dos.run.keeps_running",
        "{defender} rolls {die} after the {kind} on the run: {defender:?it|feminine=she|masculine=he} keeps running.",
    ),
    term("dos.kind=block", "block"),
    term("dos.kind=dodge", "dodge"),
    sentence("dos.location.rolled", "Hit location: {location} (d10: {die})."),
    sentence("dos.location.aimed", "The attack was aimed at the {location}: no location roll."),
    term("dos.location=head", "head"),
    term("dos.location=torso", "torso"),
    term("dos.location=right_arm", "right arm"),
    term("dos.location=left_arm", "left arm"),
    term("dos.location=right_leg", "right leg"),
    term("dos.location=left_leg", "left leg"),
    sentence("dos.damage.clumsy", "Damage die {die}: a clumsy hit, 1 damage before armour."),
    sentence(
        "dos.damage.rolled|halved=false", "Damage die {die}: {percent} percent of {base} = {raw}."
    ),
    sentence(
        "dos.damage.rolled|halved=true",
        "Damage die {die}: {percent} percent of half of {base} = {raw}.",
    ),
    sentence("dos.damage.armor", "Armour {armor} against {raw}: {amount} gets through."),
    sentence("dos.damage.gm", "The GM sets the damage: {amount}, {kind}."),
    term("dos.kind=light", "light"),
    term("dos.kind=serious", "serious"),
    term("dos.kind=critical", "critical"),
    sentence("dos.damage.none", "{target} takes no damage."),
    sentence("dos.damage.light_as_serious", "{target} is at 0 hp: light damage counts as serious."),
    sentence(
        "dos.damage.full_bar",
        "{target} has no hp left: the light damage counts as serious, against a full "
        "bar of {max_hp}.",
    ),
    sentence(
        "dos.damage.beaten",
        "{target} is already beaten: light damage counts as serious, and the bar is not refilled.",
    ),
    sentence(
        "dos.damage.no_full_bar",
        "{target} is at 0 hp with no maximum to refill: light damage counts as serious.",
    ),
    sentence(
        "dos.damage.applied", "{target} takes {amount} {kind} damage: {hp_before} hp, now {hp}."
    ),
    sentence("dos.damage.critical", "{target} takes a critical wound."),
    sentence("dos.damage.incapacitated", "{target} falls to 0 hp and is out of the fight."),
    sentence(
        "dos.maneuver.side",
        "{who}: {stat} {value} + {skill} {result}, {percent:+d}%: {total}.",
    ),
    term("dos.stat=dexterity", "dexterity"),
    term("dos.stat=strength", "strength"),
    term("dos.skill=unarmed", "unarmed combat"),
    term("dos.skill=weapon", "weapon combat"),
    term("dos.skill=dodge", "dodge"),
    sentence("dos.maneuver.grab.success", "{a} grabs {b} ({reason})."),
    sentence("dos.maneuver.grab.failure", "{a} fails to grab {b} ({reason})."),
    sentence("dos.maneuver.break_free.success", "{a} breaks free from {b} ({reason})."),
    sentence("dos.maneuver.break_free.failure", "{a} fails to break free from {b} ({reason})."),
    sentence("dos.maneuver.push.success", "{a} pushes {b} back ({reason})."),
    sentence("dos.maneuver.push.failure", "{a} fails to push {b}, who stays put ({reason})."),
    sentence("dos.maneuver.feint_push.success", "{a} drives {b} back with feints ({reason})."),
    sentence("dos.maneuver.feint_push.failure", "{a}'s feints do not move {b} ({reason})."),
    term("dos.reason=total", "the higher total"),
    term("dos.reason=luck", "luck"),
    term("dos.reason=bad_luck", "bad luck"),
    term("dos.reason=tie", "a tie"),
    sentence(
        "dos.turn.begins", "{id} begins {id:?its|feminine=her|masculine=his} turn with {actions}."
    ),
    counted("dos.turn.begins#actions", "{actions} action", "{actions} actions"),
    sentence("dos.turn.incapacitated", "{id} is out of the fight and does nothing."),
    sentence(
        "dos.turn.stopped",
        "{id} was stopped while running and has lost {id:?its|feminine=her|masculine=his} turn.",
    ),
    sentence(
        "dos.turn.run", "{id} runs {metres}, all {id:?its|feminine=her|masculine=his} actions."
    ),
    counted("dos.turn.run#metres", "{metres} metre", "{metres} metres"),
    sentence("dos.turn.step", "{id} steps {metres} (at most {max_metres})."),
    counted("dos.turn.step#metres", "{metres} metre", "{metres} metres"),
    sentence(
        "dos.turn.wait",
        "{id} waits for {id:?its|feminine=her|masculine=his} moment; the GM may place {id:?it|feminine=her|masculine=him} first "
        "next turn.",
    ),
    sentence("dos.turn.target_down", "{target} is down: {id} does not make {skipped}."),
    counted(
        "dos.turn.target_down#skipped",
        "{id:?its|feminine=her|masculine=his} remaining attack",
        "{id:?its|feminine=her|masculine=his} {skipped} remaining attacks",
    ),
    # ------------------------------------------------------------ who, when the request gives no name
    term("dos.role=attacker", "the attacker"),
    term("dos.role=defender", "the defender"),
    term("dos.role=target", "the target"),
    term("dos.role=a", "side A"),
    term("dos.role=b", "side B"),
    # ------------------------------------------------------------ a list with nothing in it
    term("dos.list=empty", "none"),
)

#: What each Foundry roll was (``options.flavor``, rules/dos/foundry.py): ``dos.foundry.<key>``,
#: rendered as a sentence is, over the parameters of the event that totals the roll.
FLAVORS: tuple[Message, ...] = (
    # TRANSLATORS: a die no other roll shows: {slot} is the kind of roll (below), {who} whose
    sentence("dos.foundry.dice|who=none", "{slot}: {count}d{sides}"),
    sentence("dos.foundry.dice|who=*", "{who}, {slot}: {count}d{sides}"),
    term("dos.slot=roll", "dice roll"),
    term("dos.slot=check", "test"),
    term("dos.slot=a", "side A"),
    term("dos.slot=b", "side B"),
    term("dos.slot=attempt", "attempt"),
    term("dos.slot=attack", "attack"),
    term("dos.slot=defense", "defence"),
    term("dos.slot=run_stop", "stopping on the run"),
    term("dos.slot=location", "hit location"),
    term("dos.slot=damage", "damage die"),
    term("dos.slot=initiative", "initiative"),
    sentence("dos.foundry.pool", "Dice roll: {size}d10"),
    sentence("dos.foundry.test", "Test against DC {dc}"),
    sentence("dos.foundry.opposed", "Opposed test: {side}"),
    sentence("dos.foundry.complex", "Complex test, attempt {n} against DC {dc}"),
    sentence("dos.foundry.attack", "{attacker} attacks"),
    sentence("dos.foundry.ranged", "{attacker} shoots against DC {dc}"),
    sentence("dos.foundry.defense", "{defender} defends: {kind}"),
    sentence("dos.foundry.maneuver", "{who}: {stat} + {skill}"),
    sentence("dos.foundry.initiative", "{id}: initiative"),
    sentence("dos.foundry.initiative_reroll", "{id}: initiative tie-break"),
    sentence("dos.foundry.luck", "{what}: luck!"),
    sentence("dos.foundry.bad_luck", "{what}: bad luck!"),
)
