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
        "{winner} {winner:?wins|plural=win} the opposed test, {winner_total} against "
        "{loser_total}.",
    ),
    sentence(
        "dos.opposed.winner|reason=luck",
        "{winner} {winner:?wins|plural=win} the opposed test by luck ({winner_total} against "
        "{loser_total}).",
    ),
    sentence(
        "dos.opposed.winner|reason=bad_luck",
        "{winner} {winner:?wins|plural=win} the opposed test: {loser} "
        "{loser:?has|plural=have} bad luck ({winner_total} against {loser_total}).",
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
        "{id} (speed {speed}) {id:?has|plural=have} no opponent left who can fight: {actions} "
        "per turn.",
    ),
    # TRANSLATORS: the opponents' names, in the form of their number ("przeciwnik: X", "przeciwnicy: X i Y")
    counted("dos.actions.count#opponents", "{opponents}", "{opponents}"),
    counted("dos.actions.count#actions", "{actions} action", "{actions} actions"),
    sentence(
        "dos.initiative.placed",
        "The GM places {id} at position {position} "
        "({id:?it waited or was hidden|feminine=she waited or was hidden|masculine=he waited or was hidden|plural=they waited or were hidden}).",
    ),
    sentence(
        "dos.initiative.rolled",
        "{id} {id:?rolls|plural=roll} {roll} for initiative: {total} with speed {speed}.",
    ),
    # TRANSLATORS: the whole sentence is the counted phrase below, in the form of the number of names
    sentence("dos.initiative.tie", "{ids}."),
    counted(
        "dos.initiative.tie#ids",
        "{ids} {ids:?ties|plural=tie} at {total} and {ids:?rolls|plural=roll} again",
        "{ids} tie at {total} and roll again among themselves",
    ),
    sentence(
        "dos.initiative.reroll",
        "{id} {id:?rolls|plural=roll} {roll} to break the tie: {total} with speed {speed}.",
    ),
    sentence("dos.initiative.order", "Initiative order: {order}."),
    sentence(
        "dos.attack.total",
        "{attacker} {attacker:?attacks|plural=attack}: {total} ({stat} + {result}, {percent:+d}%).",
    ),
    sentence(
        "dos.attack.ranged",
        "{attacker} {attacker:?shoots or throws|plural=shoot or throw}: {total} ({stat} + "
        "{result}, {percent:+d}%) against DC {dc}, {outcome}.",
    ),
    sentence(
        "dos.defense.total|kind=block|running=false",
        "{defender} {defender:?blocks|plural=block}: {total} ({stat} + {result}, "
        "{percent:+d}%), block {used} of {allowed} this turn.",
    ),
    sentence(
        "dos.defense.total|kind=block|running=true",
        "{defender} {defender:?blocks|plural=block} on the run: {total} ({stat} + {result}, "
        "{percent:+d}%), block {used} of {allowed} this turn.",
    ),
    sentence(
        "dos.defense.total|kind=dodge|running=false",
        "{defender} {defender:?dodges|plural=dodge}: {total} ({stat} + {result}, "
        "{percent:+d}%), dodge {used} of {allowed} this turn.",
    ),
    sentence(
        "dos.defense.total|kind=dodge|running=true",
        "{defender} {defender:?dodges|plural=dodge} on the run: {total} ({stat} + {result}, "
        "{percent:+d}%), dodge {used} of {allowed} this turn.",
    ),
    sentence(
        "dos.defense.none|hit=true",
        "{defender} {defender:?does|plural=do} not defend: the attack goes home.",
    ),
    sentence(
        "dos.defense.none|hit=false",
        "{defender} {defender:?does|plural=do} not defend, but "
        "{attacker}{attacker:?'s|plural='} bad luck spoils the attack.",
    ),
    sentence(
        "dos.attack.hit|reason=total",
        "{attacker}{attacker:?'s|plural='} total beats {defender}{defender:?'s|plural='}. Hit!",
    ),
    sentence(
        "dos.attack.hit|reason=luck",
        "{attacker} {attacker:?has|plural=have} luck against {defender}. Hit!",
    ),
    sentence(
        "dos.attack.hit|reason=bad_luck",
        "{defender} {defender:?has|plural=have} bad luck against {attacker}. Hit!",
    ),
    sentence(
        "dos.attack.hit|reason=no_defense",
        "{defender} {defender:?does|plural=do} not defend against {attacker}. Hit!",
    ),
    sentence(
        "dos.attack.hit|reason=dc",
        "{attacker}{attacker:?'s|plural='} shot reaches {defender}. Hit!",
    ),
    sentence(
        "dos.attack.miss|reason=total",
        "{defender}{defender:?'s|plural='} total holds against "
        "{attacker}{attacker:?'s|plural='}. Miss.",
    ),
    sentence(
        "dos.attack.miss|reason=luck",
        "{defender} {defender:?has|plural=have} luck against {attacker}. Miss.",
    ),
    sentence(
        "dos.attack.miss|reason=bad_luck",
        "{attacker} {attacker:?has|plural=have} bad luck against {defender}. Miss.",
    ),
    sentence(
        "dos.attack.miss|reason=tie",
        "{attacker} and {defender} tie, and a tie goes to the defence. Miss.",
    ),
    sentence(
        "dos.attack.miss|reason=dc",
        "{attacker}{attacker:?'s|plural='} shot falls short of {defender}. Miss.",
    ),
    sentence(
        "dos.run.stopped",
        "{defender} {defender:?rolls|plural=roll} {die} after the {kind} on the run: "
        "{defender:?it stops and loses|feminine=she stops and loses|masculine=he stops and loses|plural=they stop and lose} "
        "the rest of {defender:?its|feminine=her|masculine=his|plural=their} turn.",
    ),
    sentence(
        "dos.run.keeps_running",
        "{defender} {defender:?rolls|plural=roll} {die} after the {kind} on the run: "
        "{defender:?it keeps|feminine=she keeps|masculine=he keeps|plural=they keep} running.",
    ),
    term("dos.kind=block", "block"),
    term("dos.kind=dodge", "dodge"),
    sentence("dos.location.rolled", "Hit location: {location} (d10: {die})."),
    sentence(
        "dos.location.aimed",
        "The attack was aimed at the {location:@aimed}: no location roll.",
    ),
    term("dos.location=head", "head"),
    term("dos.location=torso", "torso"),
    term("dos.location=right_arm", "right arm"),
    term("dos.location=left_arm", "left arm"),
    term("dos.location=right_leg", "right leg"),
    term("dos.location=left_leg", "left leg"),
    term(
        "dos.aimed=head",
        "head",
    ),
    term(
        "dos.aimed=torso",
        "torso",
    ),
    term(
        "dos.aimed=right_arm",
        "right arm",
    ),
    term(
        "dos.aimed=left_arm",
        "left arm",
    ),
    term(
        "dos.aimed=right_leg",
        "right leg",
    ),
    term(
        "dos.aimed=left_leg",
        "left leg",
    ),
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
    sentence(
        "dos.damage.none",
        "{target} {target:?takes|plural=take} no damage.",
    ),
    sentence(
        "dos.damage.light_as_serious",
        "{target} {target:?is|plural=are} at 0 hp: light damage counts as serious.",
    ),
    sentence(
        "dos.damage.full_bar",
        "{target} {target:?has|plural=have} no hp left: the light damage counts as serious, "
        "against a full bar of {max_hp}.",
    ),
    sentence(
        "dos.damage.beaten",
        "{target} {target:?is|plural=are} already beaten: light damage counts as serious, and "
        "the bar is not refilled.",
    ),
    sentence(
        "dos.damage.no_full_bar",
        "{target} {target:?is|plural=are} at 0 hp with no maximum to refill: light damage "
        "counts as serious.",
    ),
    sentence(
        "dos.damage.applied",
        "{target} {target:?takes|plural=take} {amount} {kind} damage: {hp_before} hp, now {hp}.",
    ),
    sentence(
        "dos.damage.critical",
        "{target} {target:?takes|plural=take} a critical wound.",
    ),
    sentence(
        "dos.damage.incapacitated",
        "{target} {target:?falls|plural=fall} to 0 hp and {target:?is|plural=are} out of the "
        "fight.",
    ),
    sentence(
        "dos.maneuver.side",
        "{who}: {stat} {value} + {skill} {result}, {percent:+d}%: {total}.",
    ),
    term("dos.stat=dexterity", "dexterity"),
    term("dos.stat=strength", "strength"),
    term("dos.skill=unarmed", "unarmed combat"),
    term("dos.skill=weapon", "weapon combat"),
    term("dos.skill=dodge", "dodge"),
    sentence(
        "dos.maneuver.grab.success",
        "{a} {a:?grabs|plural=grab} {b} ({reason}).",
    ),
    sentence(
        "dos.maneuver.grab.failure",
        "{a} {a:?fails|plural=fail} to grab {b} ({reason}).",
    ),
    sentence(
        "dos.maneuver.break_free.success",
        "{a} {a:?breaks|plural=break} free from {b} ({reason}).",
    ),
    sentence(
        "dos.maneuver.break_free.failure",
        "{a} {a:?fails|plural=fail} to break free from {b} ({reason}).",
    ),
    sentence(
        "dos.maneuver.push.success",
        "{a} {a:?pushes|plural=push} {b} back ({reason}).",
    ),
    sentence(
        "dos.maneuver.push.failure",
        "{a} {a:?fails|plural=fail} to push {b}, who {b:?stays|plural=stay} put ({reason}).",
    ),
    sentence(
        "dos.maneuver.feint_push.success",
        "{a} {a:?drives|plural=drive} {b} back with feints ({reason}).",
    ),
    sentence(
        "dos.maneuver.feint_push.failure",
        "{a}{a:?'s|plural='} feints do not move {b} ({reason}).",
    ),
    term("dos.reason=total", "the higher total"),
    term("dos.reason=luck", "luck"),
    term("dos.reason=bad_luck", "bad luck"),
    term("dos.reason=tie", "a tie"),
    sentence(
        "dos.turn.begins",
        "{id} {id:?begins|plural=begin} {id:?its|feminine=her|masculine=his|plural=their} "
        "turn with {actions}.",
    ),
    counted("dos.turn.begins#actions", "{actions} action", "{actions} actions"),
    sentence(
        "dos.turn.incapacitated",
        "{id} {id:?is|plural=are} out of the fight and {id:?does|plural=do} nothing.",
    ),
    sentence(
        "dos.turn.stopped",
        "{id} {id:?was|plural=were} stopped while running and {id:?has|plural=have} lost "
        "{id:?its|feminine=her|masculine=his|plural=their} turn.",
    ),
    sentence(
        "dos.turn.run",
        "{id} {id:?runs|plural=run} {metres}, all "
        "{id:?its|feminine=her|masculine=his|plural=their} actions.",
    ),
    counted("dos.turn.run#metres", "{metres} metre", "{metres} metres"),
    sentence(
        "dos.turn.step",
        "{id} {id:?steps|plural=step} {metres} (at most {max_metres}).",
    ),
    counted("dos.turn.step#metres", "{metres} metre", "{metres} metres"),
    sentence(
        "dos.turn.wait",
        "{id} {id:?waits|plural=wait} for {id:?its|feminine=her|masculine=his|plural=their} "
        "moment; the GM may place {id:?it|feminine=her|masculine=him|plural=them} first next "
        "turn.",
    ),
    sentence(
        "dos.turn.target_down",
        "{target} {target:?is|plural=are} down: {id} {id:?does|plural=do} not make {skipped}.",
    ),
    counted(
        "dos.turn.target_down#skipped",
        "{id:?its|feminine=her|masculine=his|plural=their} remaining attack",
        "{id:?its|feminine=her|masculine=his|plural=their} {skipped} remaining attacks",
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
    sentence(
        "dos.foundry.attack",
        "{attacker} {attacker:?attacks|plural=attack}",
    ),
    sentence(
        "dos.foundry.ranged",
        "{attacker} {attacker:?shoots|plural=shoot} against DC {dc}",
    ),
    sentence(
        "dos.foundry.defense",
        "{defender} {defender:?defends|plural=defend}: {kind}",
    ),
    sentence("dos.foundry.maneuver", "{who}: {stat} + {skill}"),
    sentence("dos.foundry.initiative", "{id}: initiative"),
    sentence("dos.foundry.initiative_reroll", "{id}: initiative tie-break"),
    sentence("dos.foundry.luck", "{what}: luck!"),
    sentence("dos.foundry.bad_luck", "{what}: bad luck!"),
)
