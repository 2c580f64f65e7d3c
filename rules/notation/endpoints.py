"""Everything about the ``/dice`` endpoints but the HTTP layer: their summaries, descriptions, slots
and examples, so the service registers them in a few lines (service/routers/dice.py) and a registry
entry can take them as they are."""

from __future__ import annotations

from typing import Any

from rules.notation.parser import DEPTH, MAX_COUNT, MAX_DICE_TERMS, MAX_SIDES

SYSTEM = "notation"
PREFIX = "/dice"
TAG = "Dice notation"

_GRAMMAR = (
    f"`NdM` (N defaults to 1; 1-{MAX_COUNT} dice of 2-{MAX_SIDES} sides), `d%` (d100), `dF` (Fate: -1, 0, +1); keep "
    "and drop `kh` `kl` `dh` `dl` (`k` is `kh`, the count defaults to 1); exploding `!` or `x` "
    "(on the highest face), `!>N` `!>=N` `!<N` `!=N`, once: `xo` or `!o`; rerolls `r<N` (again "
    "and again, also `rr`), `ro<N` (once), any comparison, `r` alone rerolls 1s; `minN` `maxN` "
    "per die; success counting `cs>=N`, then `cf<=N` (the total is the successes less the "
    "failures); `+ - * /` (`/` floors; a divisor that can be 0 is refused), parentheses, labels "
    "`[fire]`, shorthands (`adv`, `dis`, `stat`, `fate`, `pct` and the deployment's own). `>` "
    "and `<` are strict. Modifiers apply in this order, whatever order they are written in: "
    "rerolls, explosions, min/max, keep/drop (in written order), counting. A die is rerolled, or "
    f"explodes, at most {DEPTH} times in a chain. At most {MAX_DICE_TERMS} dice terms. "
    "docs/notation.md has the grammar."
)

ROLL_SUMMARY = "Roll any dice notation"
ROLL_DESCRIPTION = (
    "Rolls the notation term by term, left to right, and answers every die in draw order (`rolls`), "
    "each term with every die `kept`, `dropped`, `exploded`, `rerolled`, `success` or `failure`, "
    "the `total` and the `formula` (the notation written back, normalised). A bad notation is a "
    "422 naming the column and what was expected there. With `foundry: true`, one Foundry `Roll` "
    "of the whole formula, in Foundry's dialect (its `r` is our `ro`, its `rr` our `r`, its `df` "
    "our `cf`). " + _GRAMMAR
)
ROLL_SLOTS = (
    "`term.<n>` (the term's die; a Fate die is drawn as a d3, 1 = -1), n = 0, 1 ... for each dice "
    "term left to right: its base dice, then its rerolls, then its explosions, each in the order "
    "Foundry draws them (the results scanned from the first, each new die appended)."
)

ODDS_SUMMARY = "Exact odds of any dice notation"
ODDS_DESCRIPTION = (
    "The exact distribution of the total of a `/dice/roll` request, without drawing: `total` "
    "(`result` as `[{value, p: {p, exact}}]`, `mean`, `percentiles`, `tail`), and `at_least` and "
    "`at_most` for every value. Exploding dice and rerolls go to the depth the roller stops at; "
    "the rolls where a chain was cut are `tail` (left out of `result`, counted in the rest as the "
    "roller counts them). Keep/drop together with exploding dice is a 422 here (the roller takes "
    "it). Questions too large to answer exactly in time are a 422 limit-exceeded. " + _GRAMMAR
)

ROLL_EXAMPLES: dict[str, Any] = {
    "ability scores": {"notation": "4d6kh3", "seed": "table-1"},
    "advantage": {"notation": "adv+5", "seed": 7, "name": "Ala"},
    "a dice pool": {"notation": "8d10cs>=7", "seed": "night"},
}
ODDS_EXAMPLES: dict[str, Any] = {
    "ability scores": {"notation": "4d6kh3"},
    "a dice pool with failures": {"notation": "8d10cs>=7df<=1"},
    "exploding": {"notation": "3d6!"},
}
