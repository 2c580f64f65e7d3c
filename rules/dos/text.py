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
}
