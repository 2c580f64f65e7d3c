"""English texts of the dice notation's event codes (``notation.*``): the source of the catalogs
(``rules.narration``). A term is told by its notation as normalised (``4d6kh3``, ``2d6[fire]``);
the roller by the request's ``name`` (``roller``, null without one) and ``gender`` (``gender``, null
without one: a form that needs none)."""

from rules.narration import Message, counted, sentence, term

TEXTS: tuple[Message, ...] = (
    sentence("notation.rerolled", "{notation}: rerolls {dice}."),
    sentence("notation.exploded", "{notation} explodes on {dice}: {count}."),
    counted("notation.exploded#count", "{count} more die", "{count} more dice"),
    sentence("notation.rolled", "{notation} shows {dice}: {total}."),
    sentence("notation.kept", "{notation} shows {dice} and keeps {kept}: {total}."),
    sentence("notation.counted|failing=false", "{notation} shows {dice}: {successes}."),
    # Foundry's cf alone: the term counts its failures (each 1), not a sum
    sentence("notation.counted|failing=only", "{notation} shows {dice}: {failures}."),
    sentence(
        "notation.counted|failing=true",
        "{notation} shows {dice}: {successes} and {failures}, {total} in all.",
    ),
    counted("notation.counted#successes", "{successes} success", "{successes} successes"),
    counted("notation.counted#failures", "{failures} failure", "{failures} failures"),
    sentence("notation.total|roller=none|gender=*", "{formula} totals {total}."),
    # the request's gender beside its name: the languages whose verb agrees (Arabic) choose here
    sentence("notation.total|roller=*|gender=feminine", "{roller} rolls {formula}: {total}."),
    # a grammatically plural group name ("The Wolves"): a plural verb in every language
    sentence("notation.total|roller=*|gender=plural", "{roller} roll {formula}: {total}."),
    # a group of beasts or things (Arabic: a feminine singular verb), a group of women
    sentence("notation.total|roller=*|gender=plural-nonhuman", "{roller} roll {formula}: {total}."),
    sentence("notation.total|roller=*|gender=plural-feminine", "{roller} roll {formula}: {total}."),
    sentence("notation.total|roller=*|gender=*", "{roller} rolls {formula}: {total}."),
    # TRANSLATORS: POST /dice/draw: {stream} is a slot's name (an id, shown as written), {first}
    # and {last} count the slot's dice from 1, {count}d{sides} the dice drawn (4d6)
    sentence(
        "notation.drawn|one=true", "Die {first:pos} of slot {stream} ({count}d{sides}): {dice}."
    ),
    sentence(
        "notation.drawn|one=false",
        "Dice {first:pos} to {last:pos} of slot {stream} ({count}d{sides}): {dice}.",
    ),
    # Roll20's matches: m marks the values two or more dice show (the total unchanged), mt counts them
    sentence(
        "notation.matched|counting=false", "{notation} shows {dice}, matching {values}: {total}."
    ),
    sentence("notation.matched|counting=true", "{notation} shows {dice}: {matches}."),
    counted("notation.matched#matches", "{matches} match", "{matches} matches"),
    # a repeated roll (`repeat`, avrae's !rr and !rrr): each repetition's total, then all of them
    sentence("notation.repetition", "Roll {index}: {total}."),
    sentence("notation.repeated|checked=false", "{formula}, {repeat}: {totals}; {total} in all."),
    sentence(
        "notation.repeated|checked=true",
        "{formula}, {repeat}: {totals}; {successes} DC {dc}, {total} in all.",
    ),
    counted("notation.repeated#repeat", "once", "{repeat} times"),
    counted("notation.repeated#successes", "{successes} reaches", "{successes} reach"),
    term("notation.list=empty", "none"),
)

#: What the Foundry roll is (``options.flavor``, rules/notation/foundry.py).
FLAVORS: tuple[Message, ...] = (
    # TRANSLATORS: a die no other roll shows: {slot} is the kind of roll (below), {who} whose
    sentence("notation.foundry.dice|who=none", "{slot}: {count}d{sides}"),
    sentence("notation.foundry.dice|who=*", "{who}, {slot}: {count}d{sides}"),
    term("notation.slot=term", "dice"),
    sentence("notation.foundry.roll|roller=none", "{formula}"),
    sentence("notation.foundry.roll|roller=*", "{roller}: {formula}"),
)
