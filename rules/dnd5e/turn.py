"""A turn plan checked against its budgets (D5E-4, D5E-8, D5E-9), no dice: movement split around the
action, one action, a bonus action its feature grants, one free interaction, one reaction a round,
and what a surprised or incapacitated creature may not do (docs/systems/dnd5e.md).
"""

from __future__ import annotations

from rules.dice import DiceSource, SlotSpec
from rules.dnd5e.models import (
    Action,
    BonusAction,
    Interaction,
    Move,
    Reaction,
    Step,
    TurnRequest,
    TurnResult,
    Violation,
)
from rules.dnd5e.sentences import SENTENCES
from rules.events import EventLog, foundry_trace


def turn_slots(req: TurnRequest) -> SlotSpec:
    return {}


def _is_dash(step: Step) -> bool:
    """D5E-8, D5E-9: a Dash adds the speed to the movement budget, taken as the action or as a
    bonus action a named feature grants (a bonus action without one is refused and adds nothing)."""
    if isinstance(step, Action):
        return step.name.strip().lower() == "dash"
    if isinstance(step, BonusAction):
        return step.name.strip().lower() == "dash" and _granted(step)
    return False


def _step_order(v: Violation) -> tuple[bool, int]:
    step = v["step"]
    return (step is None, step or 0)


def _granted(step: BonusAction) -> bool:
    return step.feature is not None and bool(step.feature.strip())


class _Plan:
    """What the plan uses so far and the violations found, step by step (D5E-4, D5E-8, D5E-9)."""

    __slots__ = (
        "actions",
        "allowed",
        "bonus",
        "free",
        "movement",
        "over_at",
        "reactions",
        "req",
        "stunned",
        "violations",
    )

    def __init__(self, req: TurnRequest) -> None:
        self.req = req
        self.stunned = req.surprised and req.first_turn  # D5E-4
        self.allowed = req.speed * (1 + sum(1 for s in req.steps if _is_dash(s)))
        self.movement = self.actions = self.bonus = self.free = self.reactions = 0
        #: The step where the movement first goes beyond the budget (D5E-8), flagged at the end.
        self.over_at: int | None = None
        self.violations: list[Violation] = []

    def flag(self, rule: str, step: int | None, code: str, message: str) -> None:
        self.violations.append({"rule": rule, "step": step, "code": code, "message": message})

    def move(self, i: int, step: Move) -> None:
        """D5E-8: movement up to the budget, split freely; D5E-4: none on a surprised first turn."""
        self.movement += step.feet
        if self.stunned and step.feet > 0:
            self.flag("D5E-4", i, "surprised", "a surprised creature cannot move on its first turn")
        if self.movement > self.allowed and self.over_at is None:
            self.over_at = i

    def action(self, i: int, what: str) -> None:
        """D5E-8: one action; D5E-4: none on a surprised first turn; none when incapacitated."""
        self.actions += 1
        if self.stunned:
            self.flag(
                "D5E-4",
                i,
                "surprised",
                f"{what}: a surprised creature takes no action on its first turn",
            )
        if self.req.incapacitated:
            self.flag(
                "D5E-8", i, "incapacitated", f"{what}: an incapacitated creature takes no action"
            )
        if self.actions > 1:
            self.flag("D5E-8", i, "second_action", f"{what}: the turn has only one action")

    def bonus_action(self, i: int, step: BonusAction) -> None:
        """D5E-9: only when a named feature grants it, at most one, prevented with the actions."""
        self.bonus += 1
        if not _granted(step):
            self.flag(
                "D5E-9",
                i,
                "bonus_action_not_granted",
                f"bonus action {step.name!r}: no feature, spell or ability granting it is named",
            )
        if self.bonus > 1:
            self.flag("D5E-9", i, "second_bonus_action", "only one bonus action per turn")
        if self.stunned or self.req.incapacitated:
            self.flag(
                "D5E-9",
                i,
                "actions_prevented",
                f"bonus action {step.name!r}: what prevents actions prevents bonus actions",
            )

    def interaction(self, i: int, step: Interaction) -> None:
        """D5E-9: one free object interaction, a second one as the action; D5E-4: none surprised."""
        if step.uses_action:
            self.action(i, f"interaction with {step.object!r} (as the action)")
            return
        self.free += 1
        if self.free > 1:
            self.flag(
                "D5E-9",
                i,
                "second_interaction",
                f"interaction with {step.object!r}: only one is free; a second one "
                "needs the action (uses_action)",
            )
        if self.stunned:
            self.flag(
                "D5E-4",
                i,
                "surprised",
                f"interaction with {step.object!r}: a free interaction happens during "
                "a move or the action, and a surprised creature has neither",
            )

    def reaction(self, i: int) -> None:
        """D5E-9: one reaction per round; D5E-4: none until the surprised first turn ends."""
        self.reactions += 1
        if self.stunned:
            self.flag("D5E-4", i, "surprised", "no reaction until the surprised first turn ends")
        if self.req.incapacitated:
            self.flag("D5E-9", i, "incapacitated", "an incapacitated creature takes no reaction")
        if self.req.reaction_used or self.reactions > 1:
            self.flag("D5E-9", i, "second_reaction", "only one reaction per round")

    def check_movement(self) -> list[Violation]:
        """D5E-8: the movement over the budget, at the step it first went over; then every
        violation in step order (the whole-plan ones last)."""
        if self.over_at is not None:
            self.flag(
                "D5E-8",
                self.over_at,
                "movement_exceeds_speed",
                f"movement {self.movement} ft is more than the {self.allowed} ft allowed",
            )
        self.violations.sort(key=_step_order)
        return self.violations


def turn(req: TurnRequest, dice: DiceSource) -> TurnResult:
    """D5E-4, D5E-8, D5E-9: walk the plan step by step against its budgets, then narrate."""
    log = EventLog(SENTENCES)
    plan = _Plan(req)
    for i, step in enumerate(req.steps):
        if isinstance(step, Move):
            plan.move(i, step)
        elif isinstance(step, Action):
            plan.action(i, f"action {step.name!r}")
        elif isinstance(step, BonusAction):
            plan.bonus_action(i, step)
        elif isinstance(step, Interaction):
            plan.interaction(i, step)
        elif isinstance(step, Reaction):
            plan.reaction(i)
    out = plan.check_movement()
    for v in out:
        log.add(
            "dnd5e.turn.violation",
            step=v["step"],
            message=v["message"],
            rule=v["rule"],
            violation=v["code"],
            movement=plan.movement,
            allowed=plan.allowed,
        )
    if out:
        log.add("dnd5e.turn.invalid", count=len(out))
    else:
        log.add("dnd5e.turn.valid")
    return {
        **foundry_trace(dice, log),
        "valid": not out,
        "violations": out,
        "budget": {
            "movement": plan.movement,
            "movement_allowed": plan.allowed,
            "actions": plan.actions,
            "bonus_actions": plan.bonus,
            "free_interactions": plan.free,
            "reactions": plan.reactions,
        },
    }
