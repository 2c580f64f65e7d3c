"""Everything about the ``/dice`` endpoints but the HTTP layer: their summaries, descriptions, slots
and examples, which its registry entry (rules/notation/system.py) takes as they are."""

from __future__ import annotations

from typing import Any

from rules.notation.parser import DEPTH, MAX_COUNT, MAX_DICE_TERMS, MAX_SIDES

SYSTEM = "notation"
PREFIX = "/dice"
TAG = "Dice notation"

_GRAMMAR = (
    "Read in the request's `dialect` (docs/notation.md has the table): `foundry` (the default: "
    "Foundry VTT's `r` once, `rr` again and again, `x`/`xo`, `k`/`kh`/`kl`/`d`/`dh`/`dl`, "
    "`min`/`max`, `cs` (bare: the highest face), `cf` counting failures, `df` deducting them, `>` "
    "strict, modifiers in lower case, `# comment`), `roll20` (`8d10>7f1` counts successes and "
    "deducts failures, `>` and `<` hold their target, `!`, `!!` compounding, `r` again and again, "
    "`ro` once, `cs`/`cf` mark criticals, any case) or `avrae` (avrae/d20: `rr`, `ro`, `e6`, "
    "`mi`/`ma`, `kh`/`kl`/`ph`/`pl`, `k3` keeping the 3s, `d%` a tens die, `(a, b)kh1` sets, a "
    f"trailing comment). In all: `NdM` (1-{MAX_COUNT} dice of 2-{MAX_SIDES} sides), `dF` (not "
    "avrae), pools `{a, b}kh`, `floor` `ceil` `round` `abs` (not avrae), `+ - * /` (`/` floors), "
    "parentheses, labels `[fire]` (after a space too), shorthands (`adv`, `dis`, `stat`, `fate`, "
    "`pct` and the deployment's own). Modifiers apply in this order, whatever order they are "
    "written in: rerolls, explosions, min/max, keep/drop (in written order), selectors, counting. "
    f"Rerolling again and again is exact (at most {DEPTH} rerolls, the last from the faces that "
    f"stand); a die explodes at most {DEPTH} times in a chain. At most {MAX_DICE_TERMS} dice "
    "terms, nesting 50 deep, totals within 2^53 - 1. Pasted as each tool's users paste it: its "
    "chat command taken off and reported with its roll `mode` (Foundry `/r` `/gmr` `/br` `/sr` "
    "`/pr`, Roll20 `/r` `/gmroll` `/gr`, avrae `!r` `!rr N` `!rrr N dice DC`, inline `[[ ]]`), "
    "avrae's `adv`/`dis` applied as d20 applies them; `repeat` rolls it N times (repetition i "
    "seeded `{seed}/{i}`); data references (`@abilities.str.mod`, `@{selected|str}`) read "
    "`data`. Text the dialect does not read is a 422 naming the dialect or tool that would."
)

ROLL_SUMMARY = "Roll any dice notation"
ROLL_DESCRIPTION = (
    "Rolls the notation term by term, left to right, and answers every die in draw order (`rolls`), "
    "each term with every die `kept`, `dropped`, `exploded`, `rerolled`, `success` or `failure`, "
    "the `total` and the `formula` (the notation written back, normalised). A bad notation is a "
    "422 naming the column and what was expected there. With `foundry: true`, one Foundry `Roll` "
    "of the whole formula, written in the foundry dialect. " + _GRAMMAR
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
    "`at_most` for every value. Exploding dice go to the depth the roller stops at; the rolls "
    "where a chain was cut are `tail` (left out of `result`, counted in the rest as the roller "
    "counts them); rerolls are exact. With `repeat`, `sum` is the repetitions' sum's "
    "distribution and, with avrae's `!rrr` DC, `successes` how many reach it. Questions too "
    "large to answer exactly in time are a 422 limit-exceeded. " + _GRAMMAR
)

ROLL_EXAMPLES: dict[str, Any] = {
    "ability scores": {"notation": "4d6kh3", "seed": "table-1"},
    # the MCP dice tool's description shows it: how to say "six times" (service.mcp_tools)
    "six ability scores": {"notation": "4d6kh3", "repeat": 6, "seed": "stats"},
    "advantage": {"notation": "adv+5", "seed": 7, "name": "Ala"},
    "a dice pool": {"notation": "8d10cs>=7", "seed": "night"},
    "Roll20 successes and failures": {"notation": "10d10>8f1", "dialect": "roll20", "seed": 3},
    "avrae reliable talent": {"notation": "1d20mi10 + 7 to hit", "dialect": "avrae", "seed": 1},
    "avrae's multiroll": {"notation": "!rr 6 4d6kh3", "dialect": "avrae", "seed": "stats"},
    "a Foundry GM roll": {
        "notation": "/gmr 1d20 + @abilities.dex.mod",
        "data": {"abilities": {"dex": {"mod": 3}}},
        "seed": 2,
    },
}
ODDS_EXAMPLES: dict[str, Any] = {
    "ability scores": {"notation": "4d6kh3"},
    "a dice pool with failures": {"notation": "8d10cs>=7df<=1"},
    "exploding": {"notation": "3d6!"},
    "advantage as a pool": {"notation": "{1d20, 1d20}kh + 5"},
}
