"""A turn plan checked against its budgets (D5E-4, D5E-8, D5E-9). No dice.

Budgets: movement up to the speed, split freely around the action (each Dash action adds the speed
once more); at most one action; a bonus action only when the plan names the feature granting it, and
at most one; one free object interaction, a second one must be taken as the action (`uses_action`);
one reaction per round; a surprised creature neither moves, acts nor reacts on its first turn (and a
free interaction rides on a move or the action, so it has none either); an incapacitated creature
takes no actions, bonus actions or reactions.
"""

from __future__ import annotations

from rules.dice import DiceSource, SlotSpec
from rules.dnd5e.models import (
    Action,
    BonusAction,
    Budget,
    Interaction,
    Move,
    Reaction,
    TurnRequest,
    TurnResult,
    Violation,
)
from rules.dnd5e.sentences import SENTENCES
from rules.events import EventLog, trace


def turn_slots(req: TurnRequest) -> SlotSpec:
    return {}


def turn(req: TurnRequest, dice: DiceSource) -> TurnResult:
    log = EventLog(SENTENCES)
    out: list[Violation] = []
    stunned = req.surprised and req.first_turn  # D5E-4

    def flag(rule: str, step: int | None, code: str, message: str) -> None:
        out.append(Violation(rule=rule, step=step, code=code, message=message))

    dashes = sum(1 for s in req.steps if isinstance(s, Action) and s.name.strip().lower() == "dash")
    allowed = req.speed * (1 + dashes)
    movement = actions = bonus = free = reactions = 0
    over_at: int | None = None

    def take_action(i: int, what: str) -> None:
        nonlocal actions
        actions += 1
        if stunned:
            flag(
                "D5E-4",
                i,
                "surprised",
                f"{what}: a surprised creature takes no action on its first turn",
            )
        if req.incapacitated:
            flag("D5E-8", i, "incapacitated", f"{what}: an incapacitated creature takes no action")
        if actions > 1:
            flag("D5E-8", i, "second_action", f"{what}: the turn has only one action")

    for i, step in enumerate(req.steps):
        if isinstance(step, Move):
            movement += step.feet
            if stunned and step.feet > 0:
                flag("D5E-4", i, "surprised", "a surprised creature cannot move on its first turn")
            if movement > allowed and over_at is None:
                over_at = i
        elif isinstance(step, Action):
            take_action(i, f"action {step.name!r}")
        elif isinstance(step, BonusAction):
            bonus += 1
            if step.feature is None or not step.feature.strip():
                flag(
                    "D5E-9",
                    i,
                    "bonus_action_not_granted",
                    f"bonus action {step.name!r}: no feature, spell or ability granting it is named",
                )
            if bonus > 1:
                flag("D5E-9", i, "second_bonus_action", "only one bonus action per turn")
            if stunned or req.incapacitated:
                flag(
                    "D5E-9",
                    i,
                    "actions_prevented",
                    f"bonus action {step.name!r}: what prevents actions prevents bonus actions",
                )
        elif isinstance(step, Interaction):
            if step.uses_action:
                take_action(i, f"interaction with {step.object!r} (as the action)")
            else:
                free += 1
                if free > 1:
                    flag(
                        "D5E-9",
                        i,
                        "second_interaction",
                        f"interaction with {step.object!r}: only one is free; a second one "
                        "needs the action (uses_action)",
                    )
                if stunned:
                    flag(
                        "D5E-4",
                        i,
                        "surprised",
                        f"interaction with {step.object!r}: a free interaction happens during "
                        "a move or the action, and a surprised creature has neither",
                    )
        elif isinstance(step, Reaction):
            reactions += 1
            if stunned:
                flag("D5E-4", i, "surprised", "no reaction until the surprised first turn ends")
            if req.incapacitated:
                flag("D5E-9", i, "incapacitated", "an incapacitated creature takes no reaction")
            if req.reaction_used or reactions > 1:
                flag("D5E-9", i, "second_reaction", "only one reaction per round")
    if over_at is not None:
        flag(
            "D5E-8",
            over_at,
            "movement_exceeds_speed",
            f"movement {movement} ft is more than the {allowed} ft allowed",
        )
    out.sort(key=lambda v: (v.step is None, v.step or 0))
    for v in out:
        log.add(
            "dnd5e.turn.violation",
            step=v.step,
            message=v.message,
            rule=v.rule,
            violation=v.code,
            movement=movement,
            allowed=allowed,
        )
    if out:
        log.add("dnd5e.turn.invalid", count=len(out))
    else:
        log.add("dnd5e.turn.valid")
    return TurnResult(
        valid=not out,
        violations=out,
        budget=Budget(
            movement=movement,
            movement_allowed=allowed,
            actions=actions,
            bonus_actions=bonus,
            free_interactions=free,
            reactions=reactions,
        ),
        **trace(dice, log),
    )
