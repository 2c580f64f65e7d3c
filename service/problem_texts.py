"""Problems in the reader's language: a problem's title, its detail and its field messages told in
the language of the request (its ``lang`` when the body can be read, else ``Accept-Language``),
from a gettext domain of their own, ``problems`` (``service/locale/<lang>/LC_MESSAGES/problems.po``).

A problem is built in English where it happens (``service.problems``, pydantic, the middleware,
the engine's errors in ``rules/``); :func:`localized` tells it again in the reader's language just
before it is sent, from its kind and its English texts: each English text of the catalog is a
template (``no resource at {path}; ...``) that is matched against the problem's text to read its
values back, then the language's template is filled with them. A value that is itself a text of
the catalog is told in the language too: the field message inside a validation error's detail, the
JSON parser's reason, and the parts the engine builds its messages from (a notation's error after
its column, a budget's count, a Dragons of Shadows declaration: :data:`FIELDS`). A text no template
matches stays English. So the English texts stay where they are written, and a change of wording
there leaves that text English until its template here follows: the tests send every kind of
problem and every message the engine writes (found in its source) in every language.

The problem says which language each text is in: ``lang`` (the language of the answer, as
``Content-Language`` says: its ``title`` is always in it), ``detail_lang`` (its ``detail``'s) and
each error's ``lang`` (its ``msg``'s): a client shows them in one language and marks the English
ones (``lang="en"``).
"""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import orjson
from babel.lists import format_list

from rules.narration import DEFAULT, FSI, LANGUAGES, PDI, RTL
from service.language import negotiate

DOMAIN: Final = "problems"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
#: Scope key: the request's raw body, noted where the route reads it (``service.routing``).
BODY_KEY: Final = "dragonroll.body"


@dataclass(frozen=True, slots=True)
class Text:
    """One text of the catalog: its context (the key), its English template, and for a counted
    one its English plural and the value whose number chooses the form."""

    context: str
    text: str
    plural: str | None = None
    count: str | None = None


def text(context: str, english: str) -> Text:
    return Text(context, english)


def counted(context: str, one: str, many: str, count: str) -> Text:
    return Text(context, one, many, count)


#: The details the service writes (``service.problems``, the middleware), by kind (a variant after
#: ``|``): each is matched in that order, the first that fits is the one.


#: The details the service writes (``service.problems``, the middleware), by kind (a variant after
#: ``|``): each is matched in that order, the first that fits is the one.
DETAILS: Final = (
    text("detail=not-found", "no resource at {path}; see /docs for the endpoints"),
    text(
        "detail=method-not-allowed|allowed", "{method} is not allowed on {path}; allowed: {allowed}"
    ),
    text("detail=method-not-allowed", "{method} is not allowed on {path}"),
    text("detail=payload-too-large", "the request body is larger than the limit of {limit} bytes"),
    text(
        "detail=unsupported-media-type",
        "Content-Type {content_type} is not JSON: send 'Content-Type: application/json'",
    ),
    text(
        "detail=unsupported-media-type|none",
        "the request has no Content-Type: send 'Content-Type: application/json'",
    ),
    text("detail=duplicate-key", "the key {key} appears twice in one object: send each key once"),
    text(
        "detail=cpu-limit",
        "the request took more than {seconds} s of CPU time, the limit of one request "
        "(DRAGONROLL_JOB_CPU_SECONDS), and was stopped: ask for less (fewer dice, values, items or "
        "runs)",
    ),
    text(
        "detail=overloaded",
        "every worker of the heavy lane is busy and its queue is full: try again in {seconds} s",
    ),
    text(
        "detail=overloaded|share",
        "this client already has as many heavy requests running and waiting as its share of the"
        " heavy lane allows: send fewer at once, or try again in {seconds} s",
    ),
    text(
        "detail=shutting-down|started",
        "the service is shutting down and stopped this request before its answer: send it again",
    ),
    text(
        "detail=shutting-down",
        "the service is shutting down and takes no more work: send the request again",
    ),
    text(
        "detail=internal-error",
        "the service failed to resolve this request; the error was logged with its request id",
    ),
    text(
        "detail=preflight-refused",
        "this preflight is refused ({refused}); see docs/operations.md, CORS",
    ),
    text("detail=malformed-json", "the body is not valid JSON: {reason}"),
    counted(
        "detail=validation-error|more",
        "{where}: {msg} (and {more} more)",
        "{where}: {msg} (and {more} more)",
        "more",
    ),
    text("detail=validation-error", "{where}: {msg}"),
)

#: A field's message by its error ``type`` (pydantic's, with the service's words where it has its
#: own, ``service.problems``; the models' own types; a model's own check, ``value_error``, is one
#: of :data:`CHECKS`).
ERRORS: Final = (
    text("error=missing", "required field is missing"),
    text("error=extra_forbidden", "unknown field: it is not part of this request's schema"),
    text("error=model_type", "Input should be an object"),
    text("error=dict_type", "Input should be an object"),
    text("error=list_type", "Input should be a valid array"),
    # a model that validates its parts itself (``rules.dos.models.NamedCombatant``): Python's word
    text("error=list_type|python", "Input should be a valid list"),
    text("error=string_type", "Input should be a valid string"),
    text("error=int_type", "Input should be a valid integer"),
    text(
        "error=int_from_float",
        "Input should be a valid integer, got a number with a fractional part",
    ),
    text(
        "error=int_parsing", "Input should be a valid integer, unable to parse string as an integer"
    ),
    text("error=bool_type", "Input should be a valid boolean"),
    text("error=float_type", "Input should be a valid number"),
    text("error=literal_error", "Input should be {expected}"),
    text("error=greater_than_equal", "Input should be greater than or equal to {ge}"),
    text("error=less_than_equal", "Input should be less than or equal to {le}"),
    text("error=greater_than", "Input should be greater than {gt}"),
    text("error=less_than", "Input should be less than {lt}"),
    counted(
        "error=string_too_short",
        "String should have at least {min_length} character",
        "String should have at least {min_length} characters",
        "min_length",
    ),
    counted(
        "error=string_too_long",
        "String should have at most {max_length} character",
        "String should have at most {max_length} characters",
        "max_length",
    ),
    counted(
        "error=too_short",
        "List should have at least {min_length} item after validation, not {actual_length}",
        "List should have at least {min_length} items after validation, not {actual_length}",
        "min_length",
    ),
    counted(
        "error=too_long",
        "List should have at most {max_length} item after validation, not {actual_length}",
        "List should have at most {max_length} items after validation, not {actual_length}",
        "max_length",
    ),
    text("error=string_pattern_mismatch", "String should match pattern '{pattern}'"),
    text(
        "error=union_tag_invalid", "{discriminator} is '{tag}', which is not one of {expected_tags}"
    ),
    text(
        "error=union_tag_not_found",
        "the field {discriminator} is missing: it says which kind this is",
    ),
    text("error=json_invalid", "Invalid JSON: {reason}"),
    text("error=duplicate_key", "the key {key} appears twice in one object: send each key once"),
    text(
        "error=cpu_limit",
        "the request took more than {seconds} s of CPU time, the limit of one request "
        "(DRAGONROLL_JOB_CPU_SECONDS), and was stopped: ask for less (fewer dice, values, items or "
        "runs)",
    ),
    text(
        "error=seed_invalid",
        "a seed is 1-128 printable ASCII characters (space included) or an integer within "
        "+-9007199254740991; send a larger integer as a string",
    ),
    text("error=edge_invalid", "true, false, or a number of sources from 0 to 100"),
    text(
        "error=text_unshowable",
        "U+{code} at position {at}: free text takes no control characters and no bidi "
        "embeddings or overrides",
    ),
    text("error=foundry_none", "this system has no Foundry rolls: leave out `foundry`"),
    text(
        "error=odds_no_dice",
        "odds draw no dice: leave out `seed` and `dice` (send them to the resolving endpoint)",
    ),
    text(
        "error=odds_shape",
        "the body fits none of this endpoint's questions, or more than one: it takes {accepted}",
    ),
)
#: A prefix a model puts before a field's message ("combatant 'k1': ..."), told with it.
PREFIXES: Final = (text("prefix=combatant", "combatant '{id}': {msg}"),)
#: The JSON parser's reasons ("EOF while parsing a value at line 1 column 0"): the place, and what.
JSON: Final = (
    text("json", "{what} at line {line} column {column}"),
    text("json=eof_value", "EOF while parsing a value"),
    text("json=eof_object", "EOF while parsing an object"),
    text("json=eof_list", "EOF while parsing a list"),
    text("json=eof_string", "EOF while parsing a string"),
    text("json=expected_value", "expected value"),
    text("json=expected_ident", "expected ident"),
    text("json=expected_colon", "expected `:`"),
    text("json=expected_list_comma", "expected `,` or `]`"),
    text("json=expected_object_comma", "expected `,` or `}`"),
    text("json=key_string", "key must be a string"),
    text("json=trailing_comma", "trailing comma"),
    text("json=trailing_characters", "trailing characters"),
    text("json=invalid_escape", "invalid escape"),
    text("json=invalid_number", "invalid number"),
    text("json=number_range", "number out of range"),
    text("json=invalid_code_point", "invalid unicode code point"),
    text(
        "json=control_character", "control character (\\u0000-\\u001F) found while parsing a string"
    ),
    text("json=recursion", "recursion limit exceeded"),
    text("json=lone_surrogate", "lone leading surrogate in hex escape"),
    text("json=hex_escape_end", "unexpected end of hex escape"),
)

# ---------------------------------------------------------------- the engine's messages

# The messages ``rules/`` refuses a request with, as it writes them (``tests/service/
# engine_messages.py`` finds each in the source, and the tests check that each has its template
# here). A field named in :data:`FIELDS` is itself a text of another table (a notation's error
# inside "notation: {error}"), a list, or a value of a known shape; any other field is a value,
# shown as written.

#: The messages of the models' own checks (error type ``value_error``), by model.
CHECKS: Final = (
    text(
        "error=value_error|combat.difficulty",
        "give either `difficulty` or `modifier_percent`, not both",
    ),
    text(
        "error=value_error|combat.defense_difficulty",
        "give either `defense_difficulty` or `defense_modifier_percent`, not both",
    ),
    text(
        "error=value_error|combat.successes_needed",
        "successes_needed ({needed}) is more than attempts ({attempts}): the test could never "
        "succeed",
    ),
    text(
        "error=value_error|combat.unarmed",
        "an unarmed attack deals strength alone (DOS-26): damage must be 0, not {damage}; use "
        "kind `melee` for a weapon",
    ),
    text("error=value_error|hp", "hp ({hp}) is more than max_hp ({max_hp})"),
    text(
        "error=value_error|combat.damage",
        "give either `weapon` (rolled damage, DOS-26) or `amount` with `kind` (GM-set damage, "
        "DOS-29), not both and not neither",
    ),
    text(
        "error=value_error|combat.amount",
        "a GM-set `amount` needs its `kind` (light, serious or critical)",
    ),
    text(
        "error=value_error|combat.kind",
        "`kind` goes with a GM-set `amount`; for a weapon use weapon.damage_kind",
    ),
    text(
        "error=value_error|combat.blocks_used",
        "blocks_used ({used}) is more than block skill + 1 ({allowed})",
    ),
    text(
        "error=value_error|combat.dodges_used",
        "dodges_used ({used}) is more than the dodge skill ({allowed})",
    ),
    text("error=value_error|combat.running", "a defender cannot be both running and stopped"),
    text(
        "error=value_error|initiative.stealth",
        "give exactly one of `stealth_total` and `stealth_mod`",
    ),
    text("error=value_error|damage.formula", "at position {position}: {message}"),
    text(
        "error=value_error|battle.pool",
        "battle + features_used is {dice} dice: a pool holds at most {most}",
    ),
    text(
        "error=value_error|duel.extra_rolloff_dice",
        "extra_rolloff_dice only applies to pre items",
    ),
    text(
        "error=value_error|duel.damage_item",
        'a "damage" item must say what it does in `damage`',
    ),
    text(
        "error=value_error|duel.has_rider",
        "has_rider is false, but a rider is marked current",
    ),
    text(
        "error=value_error|duel.rolloff",
        "the roll-off would be {dice} d6 (2 + rage + pre items' extra dice): at most {most}",
    ),
)

#: The messages of the engine's errors (``rules.errors``: a field's message and the detail),
#: by system. A detail that joins its errors' messages is told from them.
ENGINE_TEXTS: Final = (
    # ``rules.budget``: a request over its budget (its field, what it counts, the budget)
    text("engine=budget|field", "{field}: {counted}; the budget is {budget} a request"),
    text("engine=budget|field-answer", "{field}: {counted}; the budget is {budget}"),
    text("engine=budget", "{counted}; the budget is {budget} a request"),
    text("engine=budget|answer", "{counted}; the budget is {budget}"),
    # ``rules.errors`` and ``rules.dice.source``: the scripted dice
    counted(
        "engine=dice.exhausted",
        "dice.{slot} ran out: it holds {given} value(s), and the resolution needed at least "
        "{needed} more d{sides} value for slot '{slot}'",
        "dice.{slot} ran out: it holds {given} value(s), and the resolution needed at least "
        "{needed} more d{sides} values for slot '{slot}'",
        "needed",
    ),
    text(
        "engine=dice.value",
        "dice.{slot}[{index}] is {value}, but slot '{slot}' draws a d{sides} there: values must "
        "be 1..{sides}",
    ),
    text(
        "engine=dice.slot",
        "this request draws no dice in slot '{slot}'; its slots are: {slots}",
    ),
    text("engine=dice.range", "slot '{slot}' draws d{sides}: {value} is not in 1..{sides}"),
    counted(
        "engine=more",
        "{first} (and {more} more)",
        "{first} (and {more} more)",
        "more",
    ),
    # Dragons of Shadows: its checks, its combat, its turn
    text("engine=combat.duplicate", "duplicate id '{id}': {where}[{index}] already has it"),
    text(
        "engine=combat.reference|combatant",
        "combatant '{id}': {role} '{ref}' is not a combatant",
    ),
    text("engine=combat.reference", "{role} '{ref}' is not a combatant"),
    text(
        "engine=combat.own|combatant",
        "combatant '{id}': a combatant cannot be its own {role}",
    ),
    text("engine=combat.own", "a combatant cannot be its own {role}"),
    text("engine=combat.twice|combatant", "combatant '{id}': {role} '{ref}' is listed twice"),
    text("engine=combat.twice", "{role} '{ref}' is listed twice"),
    text(
        "engine=combat.tie",
        "initiative: {ids} still tie after {rerolls} rerolls; check the scripted "
        "`initiative.<id>` dice",
    ),
    text("engine=combat.incapacitated", "an incapacitated defender cannot {verb} (DOS-28)"),
    text(
        "engine=combat.no_block",
        "the defender has no {defense} left this turn: {used} of {allowed} used (block skill + 1,"
        " DOS-18); choose another defense, `none` or `auto`",
    ),
    text(
        "engine=combat.no_dodge",
        "the defender has no {defense} left this turn: {used} of {allowed} used (dodge skill, "
        "DOS-18); choose another defense, `none` or `auto`",
    ),
    text(
        "engine=combat.ranged",
        "a {kind} attack is a ranged attack (DOS-21): give `ranged: {{dc}}`",
    ),
    text(
        "engine=combat.melee",
        "a {kind} attack is melee: `ranged` is only for thrown or shooting weapons",
    ),
    text(
        "engine=combat.odds_ranged",
        "a {kind} attack needs `ranged: {{dc}}` exactly when it is thrown or shooting (DOS-21)",
    ),
    text(
        "engine=combat.odds_pool",
        "odds are computed for pools of at most {most} dice; {asked} asked",
    ),
    text("engine=combat.odds_pool|field", "at most {most} dice for odds"),
    text("engine=combat.order", "order must list every combatant; missing: {missing}"),
    text("engine=combat.first", "give `first` only when initiative is rolled (no `order`)"),
    text("engine=combat.no_target", "{declaration} takes no `target`"),
    text("engine=combat.needs_target", "{declaration} needs a `target`"),
    text("engine=combat.unknown_target", "{declaration}: '{target}' is not a combatant"),
    text("engine=combat.self_target", "{declaration} cannot target itself"),
    text("engine=combat.count", "{declaration}: `count` is for attacks"),
    text("engine=combat.attack_field", "{declaration}: `{field}` is for attacks"),
    text(
        "engine=combat.at_range",
        "{declaration}: a {kind} weapon attacks at range: give `ranged: {{dc}}`",
    ),
    text(
        "engine=combat.not_at_range",
        "{declaration}: `ranged` needs a thrown or shooting weapon",
    ),
    text(
        "engine=combat.no_dodge_target",
        "{declaration}: '{target}' has dodge skill 0 and so no dodge (DOS-18)",
    ),
    text("engine=combat.alone", "{declaration}: {action} must be declared alone"),
    text("engine=combat.metres", "{declaration}: `metres` is for a step"),
    text("engine=combat.one_step", "{declaration}: one step per turn (DOS-23)"),
    text(
        "engine=combat.step_length",
        "{declaration}: at most floor(speed / 4) = {metres} metres (DOS-23)",
    ),
    text(
        "engine=combat.dodge_defense",
        "combatant '{id}': defense `dodge` with dodge skill 0 (DOS-18)",
    ),
    text(
        "engine=combat.actions",
        "combatant '{id}' declares {declared} actions but has {actions} this turn (speed {speed} "
        "against opponents' {opponents}, DOS-14)",
    ),
    text(
        "engine=combat.turn_limit",
        "the turn declares {declared} actions in all; at most {most} per request",
    ),
    text("engine=combat.turn_limit|field", "{declared} actions declared, limit {most}"),
    # the dragon battle: its entities, its rounds
    text("engine=battle.join_self", "{id} cannot join itself"),
    text("engine=battle.join_dragon", "{id} is a free (gm) entity: the dragon is not its ally"),
    text(
        "engine=battle.attack_dragon",
        "{id} is the player's (subjugated) entity: it cannot attack the dragon",
    ),
    text(
        "engine=battle.join_unknown",
        "{id} would join {ally}, which is not an entity of the request",
    ),
    text(
        "engine=battle.join_enemy",
        "{id} would join {ally}, which is not its ally (the other side)",
    ),
    text("engine=battle.join_aside", "{id} would join {ally}, which stands aside (DRG-4)"),
    text(
        "engine=battle.target_ally",
        "{id}: target {target} is its ally; a target is on the other side",
    ),
    text(
        "engine=battle.target_aside",
        "{id}: target {target} is not in the battle (it stands aside, DRG-4)",
    ),
    text(
        "engine=battle.target_unknown",
        "{id}: target {target} is not in the battle (no such entity)",
    ),
    text("engine=battle.target_self", "{id} cannot target itself"),
    text(
        "engine=battle.defeated",
        "the dragon has {wounds} wounds against battle {battle}: it is defeated and may not go "
        "on (DRG-15)",
    ),
    text(
        "engine=battle.defeated|field",
        "wounds >= battle: the dragon is defeated (DRG-15)",
    ),
    text("engine=battle.rounds", "round {round}: a battle lasts at most {most} rounds"),
    text("engine=battle.rounds|field", "a battle lasts at most {most} rounds"),
    text("engine=battle.dragon_id|rename", "the id `dragon` names the dragon; rename it"),
    text("engine=battle.dragon_id", "the id `dragon` names the dragon"),
    text(
        "engine=battle.twice",
        "entity {id} appears twice (entities[{earlier}] and entities[{index}])",
    ),
    text("engine=battle.own_parent", "{id} cannot be its own parent"),
    text(
        "engine=battle.individual",
        "{id} is an individual: it becomes the dragonslayer itself (DRG-14)",
    ),
    text("engine=battle.parent", "{id}: parent {parent} is not an entity of the request"),
    text(
        "engine=battle.minority",
        "{id}: the dragonslayer minority's prosperity is 0 .. the group's ({prosperity}), not "
        "{given} (DRG-14)",
    ),
    text(
        "engine=battle.dragon_target|unknown",
        "the dragon's target {target} is not an entity of the request: it must be a free (gm) "
        "entity taking part in the battle",
    ),
    text(
        "engine=battle.dragon_target|player",
        "the dragon's target {target} is the player's own (subjugated) entity: it must be a free "
        "(gm) entity taking part in the battle",
    ),
    text(
        "engine=battle.dragon_target|aside",
        "the dragon's target {target} stands aside (DRG-4): it must be a free (gm) entity taking "
        "part in the battle",
    ),
    text("engine=battle.cycle", "parents form a cycle: {cycle}"),
    text(
        "engine=battle.minority_limit",
        "{id} reveals a dragonslayer minority, but the battle already holds {most} entities",
    ),
    text("engine=battle.minority_limit|field", "at most {most} entities"),
    # Dragon Riders: its decisions
    counted(
        "engine=duel.over",
        "decision {index}: the combat is over after {index} decision(s); no further decision is "
        "expected",
        "decision {index}: the combat is over after {index} decision(s); no further decision is "
        "expected",
        "index",
    ),
    text(
        "engine=duel.item_id",
        "item id '{id}' is already used by {side}.items[{index}]: item ids must be unique across "
        "both sides (each rolls in slot item.<id>)",
    ),
    text(
        "engine=duel.illegal",
        "decision {index} ({phase}): {why}; expected from the {by}: {expected}",
    ),
    # the fifth edition: its initiative
    text(
        "engine=initiative.group",
        "group {group} rolls once for identical creatures (D5E-5): {field} differs from {id}'s",
    ),
    text("engine=initiative.dexterity", "tie_break dexterity needs it"),
    text("engine=initiative.twice", "{id} is listed twice"),
    text(
        "engine=initiative.unknown|group",
        "no combatant or group {id}; it acts with group {group}: name the group",
    ),
    text("engine=initiative.unknown", "no combatant or group {id}"),
    text(
        "engine=initiative.hidden",
        "every opponent hides: give its passive Perception (or `surprised`) (D5E-3)",
    ),
    text("engine=initiative.tie", "{ids} tie at {total}: tie_order must list {missing}"),
    text(
        "engine=initiative.tied",
        "{ids} still tied after {rounds} rounds of tie-break rolls",
    ),
    text("engine=initiative.tied|field", "the tie-break rolls never separate the tie"),
    text("engine=initiative.duplicate", "duplicate id {id} (also #{index})"),
    text(
        "engine=initiative.group_id",
        "group id {id} is also a combatant id; ids and groups share slot names",
    ),
    # dice notation (``rules.notation``)
    counted(
        "engine=notation|replaced,dialects",
        "notation: {error} (in {read}, its data references replaced) ({dialects} reads it: add "
        "{add})",
        "notation: {error} (in {read}, its data references replaced) ({dialects} read it: add "
        "{add})",
        "dialects",
    ),
    counted(
        "engine=notation|dialects",
        "notation: {error} ({dialects} reads it: add {add})",
        "notation: {error} ({dialects} read it: add {add})",
        "dialects",
    ),
    text("engine=notation|replaced", "notation: {error} (in {read}, its data references replaced)"),
    text("engine=notation", "notation: {error}"),
    text("engine=notation.odds", "notation: {odds}"),
    text(
        "engine=notation.draw",
        "draws[{index}].slot: '{slot}' appears twice (draws[{earlier}] draws it already): one draw "
        "per slot, asking for all its dice",
    ),
    text(
        "engine=notation.repeat",
        "repeat is {repeat}, but the notation's command repeats it {times} times: give one of them",
    ),
)

#: The notation's odds over their limits (``rules.notation.odds``): a field's message, and after
#: "notation: " the detail.
ODDS: Final = (
    text(
        "engine=notation.odds|fractions",
        "the exact fractions of this answer would be too long to send",
    ),
    text(
        "engine=notation.odds|steps",
        "computing these odds exactly takes about {steps} steps (each term's dice, explosions and "
        "values, each operator's pairs); at most {most}",
    ),
    text(
        "engine=notation.odds|divides",
        "{function}( at column {column} divides up to {left} x {right} values; at most {most}",
    ),
    text(
        "engine=notation.odds|combines-up-to",
        "'{op}' at column {column} combines up to {left} x {right} values; at most {most}",
    ),
    text(
        "engine=notation.odds|combines",
        "'{op}' at column {column} combines {left} x {right} values; at most {most}",
    ),
    text(
        "engine=notation.odds|pool",
        "the pool at column {column} keeps {kept} of {items} totals of up to {values} values: too "
        "many to compute exactly",
    ),
    text(
        "engine=notation.odds|keep",
        "{term} (column {column}): keep/drop over {dice} dice of {values} values is too large",
    ),
    text(
        "engine=notation.odds|keep-term",
        "{term}: keep/drop over {dice} dice of {values} values is too large",
    ),
    text(
        "engine=notation.odds|bits",
        "{term} (column {column}): its {totals} totals over denominators of {bits} bits are too "
        "large to compute exactly",
    ),
    text(
        "engine=notation.odds|matches",
        "{term} (column {column}): the matches of {dice} dice of {faces} faces take {steps} "
        "steps, too many to count exactly",
    ),
    text(
        "engine=notation.odds|explosions",
        "{term} (column {column}): keep/drop over {dice} dice and their explosions: {counts} "
        "counts of dice, too many to compute exactly",
    ),
    text(
        "engine=notation.odds|programme",
        "{term} (column {column}): keep/drop over {dice} dice and their explosions takes {steps} "
        "steps of its programme, too many",
    ),
    text(
        "engine=notation.odds|values",
        "the total takes {values} values; odds list at most {most}",
    ),
)

#: Where a notation's error is: "column 5: ..." (``rules.notation.parser.NotationError``).
COLUMN: Final = (text("notation=column", "column {column}: {message}"),)

#: A notation's errors (``rules.notation``: the parser, the pasted commands, the data
#: references), each after its column; the 5e damage formulas' too ("at position 3: ...").
NOTATION: Final = (
    text("notation=maiden", "{message}; {maiden}"),
    text("notation=length", "a notation has at most {most} characters"),
    text("notation=expected_number", "expected {thing} (a number), found {found}"),
    text("notation=range", "{thing} is {low} to {high}, not {digits}"),
    text("notation=start|plain", "expected a dice term (such as 2d6) or a number"),
    text("notation=start", "expected a dice term (such as 2d6), a number or '('"),
    text("notation=after|plain", "expected '+', '-' or the end, found {found}"),
    text("notation=after", "expected '+', '-', '*', '/' or the end, found {found}"),
    text(
        "notation=term|plain",
        "expected a dice term (such as 2d6) or a number, found {found}",
    ),
    text("notation=nesting", "parentheses and signs nest at most {most} deep"),
    text("notation=close", "expected '{close}' or an operator, found {found}"),
    text("notation=close|pool", "expected ',' or '{close}' or an operator, found {found}"),
    text("notation=pool_size", "a pool holds at most {most} expressions"),
    text(
        "notation=term",
        "expected a dice term (such as 2d6), a number, '(' or a shorthand, found {found}",
    ),
    text("notation=call", "expected ')' closing {function}(, found {found}"),
    text(
        "notation=shorthand",
        "{name} is no shorthand (they are: {known}); expected a dice term such as 2d6",
    ),
    text("notation=terms", "a notation has at most {most} dice terms"),
    text("notation=label", "expected ']' closing the label, found {found}"),
    text("notation=label_length", "a label has 1 to {most} characters"),
    text("notation=count", "a dice term rolls 1 to {most} dice, not {count}"),
    text("notation=avrae_d", "avrae reads a lower-case 'd' only (1d20, not 1D20)"),
    text("notation=sides|plain", "expected the number of sides after 'd', found {found}"),
    text("notation=avrae_fate", "avrae has no Fate dice (dF): read it as foundry or roll20"),
    text(
        "notation=sides",
        "expected the number of sides, '%' or 'F' after 'd', found {found}",
    ),
    text(
        "notation=nested",
        "nested dice roll 0 to {most} dice; this count ranges {low} to {high}",
    ),
    text(
        "notation=nested_modifiers",
        "modifiers on nested dice are not read here: roll (2d6)d6 plain, or give the count as a "
        "number",
    ),
    text(
        "notation=roll20_group",
        "Roll20 reads a group of one expression with a modifier die by die ({{4d6+3d8}}k4 keeps "
        "4 of its 7 dice, {{3d20+5}}>21 adds 5 to each die): not read here; give the group two or"
        " more expressions, or put the modifier on the dice term",
    ),
    text("notation=comparison", "expected a comparison"),
    text(
        "notation=pool_keep",
        "a pool keeps or drops: expected kh, kl, dh or dl, found {found}",
    ),
    text("notation=pool_holds", "{modifier}{count}: the pool holds only {size}"),
    text("notation=min_max", "min is above max"),
    text("notation=modifier", "unknown modifier at {found}: {dialect} reads {known_modifiers}"),
    text(
        "notation=matches",
        "Roll20's matches (m, mt) together with {changes} are not read here: roll the matches on "
        "plain dice (4d6m, 5d10mt, 4d6mt3>2)",
    ),
    text("notation=term_rolls", "{modifier}{count}: the term rolls only {dice} dice"),
    text(
        "notation=cs_after_cf",
        "Foundry's cs after cf counts the successes alone (it discards cf's count): write cs "
        "first, then df to deduct failures",
    ),
    text(
        "notation=cf_after_cs",
        "Foundry's cf counts the failures alone (it discards cs's count): write df to deduct "
        "failures from the successes",
    ),
    text(
        "notation=deducts|cs",
        "{modifier} deducts failures from the successes: write cs first",
    ),
    text(
        "notation=deducts",
        "{modifier} deducts failures from the successes: write a comparison (>7) first",
    ),
    text("notation=rerolled", "{modifier}{when}: every face of the die would be rerolled"),
    text("notation=explodes_once", "a dice term explodes once: one of !, !!, x, xo"),
    text("notation=explode", "{modifier}{when}: every face of the die would explode"),
    text("notation=once", "a dice term takes {thing} once"),
    text("notation=selector", "expected a selector after {thing} (3, <3 or >3), found {found}"),
    text(
        "notation=compare",
        "expected a comparison after {thing} (such as >=7), found {found}",
    ),
    text("notation=divisor", "the divisor after '/' can be 0 (it ranges {low} to {high})"),
    text(
        "notation=total",
        "the total can reach {total}, past +-(2^53 - 1) ({most}), the largest integer a JSON "
        "reader keeps exactly",
    ),
    # the commands pasted around a notation (``rules.notation.pasted``)
    text("notation=command", "{command} takes a formula after it"),
    text(
        "notation=inline",
        "one inline roll [[...]] a request: send each of the message's rolls alone",
    ),
    text(
        "notation=iterations_dice",
        "{command} takes dice after its iterations: {command} 6 4d6kh3",
    ),
    text(
        "notation=iterations_first",
        "{command} takes its iterations first, a number (found {word})",
    ),
    text("notation=iterations", "{command} rolls 1 to {most} iterations, not {count}"),
    text("notation=dc_first", "{command} takes dice, then a DC: {command} 1d20+5 15"),
    text("notation=quoted", "a quoted formula is not closed"),
    text("notation=dc", "{command}'s DC after the dice is a whole number, not {word}"),
    text(
        "notation=advantage|higher",
        "avrae's {word} keeps the higher of 2d20 before the term's rerolls and explosions (only "
        "on the die it keeps); here rerolls and explosions apply first, so this is not read: roll"
        " it without {word}, or write 2d20 with its keep",
    ),
    text(
        "notation=advantage|lower",
        "avrae's {word} keeps the lower of 2d20 before the term's rerolls and explosions (only "
        "on the die it keeps); here rerolls and explosions apply first, so this is not read: roll"
        " it without {word}, or write 2d20 with its keep",
    ),
    # another tool's text (``rules.notation.misread``)
    text(
        "notation=avrae_word",
        '{word} is avrae\'s (its leftmost 1d20 rolled twice): add "dialect": "avrae"',
    ),
    text(
        "notation=spaced_modifier",
        "{word} after a space is not read as a modifier (no dialect reads one there): write it "
        "against its dice term, as in 4d6{modifier}",
    ),
    text(
        "notation=dice_comment",
        "the text after the roll, {comment}, reads as dice: one roll a request (several: the "
        "repeat field, or send each alone)",
    ),
    # the data references (``rules.notation.data``)
    text("notation=references", "at most {most} references"),
    text(
        "notation=reference",
        "{reference} refers to data{path}, which the request's data does not hold",
    ),
    text("notation=reference_value", "{reference} is {value}: write a number or a formula"),
    text("notation=reference_whole", "{reference} is {value}: write a whole number"),
    text("notation=reference_deeper", "{reference}'s formula refers to more data"),
    # the fifth edition's damage formulas ("at position 3: ...")
    text("notation=formula_length", "a formula has at most {most} characters"),
    text("notation=formula_terms", "a formula has at most {most} terms"),
    text("notation=formula_dice", "the formula rolls {dice} dice; at most {most} in all"),
    text("notation=formula_modifier", "the flat modifiers add up beyond +-{most}"),
)

#: Dice Maiden's strings (``rules.notation.misread.dice_maiden``): what to write instead.
MAIDEN: Final = (
    text(
        "notation.maiden=sets",
        '{text} is Dice Maiden\'s ({meaning}): write {written} with "dialect": "foundry" and '
        '"repeat": {sets} (its {sets} sets)',
    ),
    text(
        "notation.maiden",
        '{text} is Dice Maiden\'s ({meaning}): write {written} with "dialect": "foundry"',
    ),
    text(
        "notation.maiden=plain,sets",
        '{text} is Dice Maiden\'s: write {written} with "dialect": "foundry" and "repeat": '
        "{sets} (its {sets} sets)",
    ),
    text(
        "notation.maiden=plain",
        '{text} is Dice Maiden\'s: write {written} with "dialect": "foundry"',
    ),
)
#: What each of Dice Maiden's modifiers means (``rules.notation.misread``'s table).
MAIDEN_MODIFIERS: Final = (
    text("notation.maiden.modifier=e", "{word}: explode once on {n}"),
    text("notation.maiden.modifier=ie", "{word}: explode again and again on {n}"),
    text("notation.maiden.modifier=k", "{word}: keep the {n} highest"),
    text("notation.maiden.modifier=kl", "{word}: keep the {n} lowest"),
    text("notation.maiden.modifier=d", "{word}: drop the {n} lowest"),
    text("notation.maiden.modifier=r", "{word}: reroll once the dice of {n} or less"),
    text("notation.maiden.modifier=ir", "{word}: reroll again and again the dice of {n} or less"),
    text("notation.maiden.modifier=t", "{word}: count the dice of {n} or more"),
    text("notation.maiden.modifier=f", "{word}: deduct the dice of {n} or less"),
)

#: What a number of the notation is ("expected {thing} (a number)"; a modifier's own name, such as
#: ``kh``, stays as written).
THINGS: Final = (
    text("notation.thing=number", "a number"),
    text("notation.thing=sides", "a die's sides"),
    text("notation.thing=dice_keep", "how many dice {modifier} takes"),
    text("notation.thing=pool_keep", "how many {modifier} takes"),
    text("notation.thing=match", "how many dice a match takes"),
    text("notation.thing=clamp", "the {modifier} of a die"),
    text("notation.thing=selects", "the value {modifier} selects"),
    text("notation.thing=compares", "the value {thing} compares with"),
    text("notation.thing=group_successes", "a group's successes"),
    text("notation.thing=success", "success"),
    text("notation.thing=successes", "a count of successes"),
    text("notation.thing=failures", "a count of failures"),
    text("notation.thing=reroll", "a reroll"),
    text("notation.thing=sort", "a sort"),
    text("notation.thing=matches", "matches"),
)
#: What the parser found instead: a character (as written), or this.
FOUND: Final = (text("notation.found=end", "the end"),)
#: The modifiers a dialect reads ("unknown modifier at 'q': foundry reads ..."), as the parser
#: lists them.
KNOWN_MODIFIERS: Final = (
    text(
        "notation.modifiers=foundry",
        "kh, kl, dh, dl, k, d, x, xo, r, rr, min, max, cs, cf, df (lower case)",
    ),
    text(
        "notation.modifiers=roll20",
        "kh, kl, dh, dl, k, d, !, !!, !p, r, ro, a comparison (>7), f, cs, cf, m, mt, s, sa, sd",
    ),
    text(
        "notation.modifiers=avrae",
        "k, p (with h, l, <, > or a value), rr, ro, e, mi, ma (lower case)",
    ),
)
#: The modifiers Roll20's matches are not read with.
CHANGES: Final = (
    text("notation.change=reroll", "reroll"),
    text("notation.change=explode", "explode"),
    text("notation.change=success", "success"),
    text("notation.change=failure", "failure"),
    text("notation.change=keep", "keep/drop"),
)
#: "none": no shorthand, no slot.
NONE: Final = (text("word=none", "none"),)
#: What joins a detail's errors ("first; second") and a Dice Maiden string's modifiers.
SEMICOLON: Final = text("word=semicolon", "; ")

#: A declaration of a Dragons of Shadows turn, as its checks name it.
DECLARATION: Final = (text("combat.declaration", "combatant '{id}': declare[{index}] ({action})"),)
#: What an id of a Dragons of Shadows request is, as its checks name it.
ROLES: Final = (
    text("combat.role=opponent", "opponent"),
    text("combat.role=order", "id in order"),
    text("combat.role=placed", "placed id"),
)
#: A defense, as a verb ("cannot block") and as what is used up ("no block left").
DEFENSE_VERBS: Final = (
    text("combat.defense.verb=block", "block"),
    text("combat.defense.verb=dodge", "dodge"),
)
DEFENSES: Final = (
    text("combat.defense=block", "block"),
    text("combat.defense=dodge", "dodge"),
)

#: Why a Dragon Riders decision is not legal.
RIDERS_WHY: Final = (
    text("duel.why=by", "it is the {by}'s decision, not the {given}'s"),
    text("duel.why=choice", "'{choice}' is not possible here"),
    text("duel.why=damage", "a damage kind only goes with choice 'damage'"),
    text("duel.why=direction", "a direction only goes with damage 'knockback'"),
    text("duel.why=item", "no item goes with '{choice}'"),
    text("duel.why=use_item", "use_item needs the `item` to play"),
    text("duel.why=counter", "item '{id}' is a {timing} item, not a counter item"),
    text("duel.why=used", "item '{id}' was already used (an item is used once)"),
    text("duel.why=side", "item '{id}' is not one of this side's items"),
    text("duel.why=damage_kind", "choice 'damage' needs a `damage` kind"),
    text("duel.why=no_damage", "item '{id}' deals no combat damage (no `damage`)"),
    text("duel.why=winner", "item '{id}' is not one of the winner's items"),
    text("duel.why=swap", "swap needs both sides' positions"),
    text("duel.why=no_item", "the winner has no unused damage item"),
    text("duel.why=knockback", "knockback needs the loser's position"),
    text("duel.why=direction_needed", "knockback needs a `direction`"),
    text("duel.why=bounds", "knockback {direction} leaves the board's bounds"),
    text("duel.why=damage_item", "damage 'item' needs the `item` to use"),
    text("duel.why=damage_with_item", "no item goes with damage '{damage}'"),
)

#: What a request over its budget counted (``rules.budget``), and the budget.
COUNTED: Final = (
    text("budget.counted", "{how} = {dice} {unit}"),
    text("budget.counted=answer", "{answer_how} = {size} bytes at most"),
    text("budget.counted=encoded", "the answer = {size} bytes"),
)
BUDGETS: Final = (
    text("budget.budget", "{limit} {unit}"),
    text("budget.budget=answer", "{limit} bytes an answer (4 MiB)"),
)
#: What counts, in each work function of ``rules/<system>/budget.py`` (a field's own name, such
#: as ``pool``, stays as written).
HOW: Final = (
    text("budget.how=none", "no dice"),
    text("budget.how=combat.initiative", "one d10 per combatant not placed first"),
    text("budget.how=combat.damage", "the damage die"),
    text(
        "budget.how=combat.attack",
        "attacker.skill + the defender's larger defense skill + 3",
    ),
    text("budget.how=combat.maneuver", "the two sides' largest skills"),
    text("budget.how=combat.complex", "attempts x skill = {attempts} x {skill}"),
    text("budget.how=combat.turn", "the declared attacks' and maneuvers' pools"),
    text(
        "budget.how=combat.simulate",
        "runs x (initiative + max_turns x a turn: its pools, {per_attack} an attack, "
        "{per_declaration} another declaration, {per_combatant} a combatant) = {runs} x "
        "({initiative} + {turns} x {turn})",
    ),
    text("budget.how=combat.odds_test", "each result of the pool"),
    text("budget.how=combat.odds_opposed", "each result of a's pool against b's flags"),
    text(
        "budget.how=combat.odds_attack",
        "each result of the attacker's pool against the defense's flags + the damage dice",
    ),
    text("budget.how=battle.battle", "the dragon's pool + the entities' prosperity dice"),
    text(
        "budget.how=battle.simulate",
        "runs x rounds x (a round's dice and {per_party} a party) = {runs} x {rounds} x "
        "{per_round}",
    ),
    text("budget.how=battle.odds", "the pairs' odds + the sweep's = {pairs} + {sweep}"),
    text("budget.how=duel.combat", "both roll-offs + the items' dice"),
    text(
        "budget.how=duel.simulate",
        "runs x (both roll-offs, the items' dice and {per_item} an item) = {runs} x {per_run}",
    ),
    text(
        "budget.how=duel.odds",
        "the polynomials' steps + the totals' pairs x their digits x (1 + counter items) = "
        "{polynomials} + {initiator} x {defender} x {weight} x {counters}",
    ),
    text("budget.how=d20.initiative", "the combatants' initiative and stealth d20s"),
    text("budget.how=d20.d20s", "the d20s"),
    text(
        "budget.how=d20.attack",
        "the attack d20s + the damage dice, doubled on a critical",
    ),
    text(
        "budget.how=d20.odds",
        "the damage dice x sides, once plain and twice for a critical",
    ),
    text(
        "budget.how=notation.odds",
        "the steps of the exact odds (each term's dice, explosions and values, each operator's "
        "pairs)",
    ),
    text(
        "budget.how=notation.roll",
        "the dice x (1 + rerolls + explosions) of each term, x the repeats",
    ),
    text("budget.how=notation.draw", "the start + count of each draw"),
    text("budget.how=answer", "the answer's size"),
    text(
        "budget.how=answer.complex",
        "the answer's size, counted from the attempts and their dice",
    ),
    text(
        "budget.how=answer.turn",
        "the answer's size, counted from the declared attacks and maneuvers",
    ),
    text(
        "budget.how=answer.combat_odds",
        "the answer's size: every value of its distributions with its exact fraction",
    ),
    text(
        "budget.how=answer.battle_odds",
        "the answer's size: every pair's successes and the sweep's sizes, exactly",
    ),
    text(
        "budget.how=answer.duel_odds",
        "the answer's size: both totals' values and every counter's chances",
    ),
    text(
        "budget.how=answer.roll",
        "the answer's size, counted from the dice the notation can draw",
    ),
    text("budget.how=answer.draw", "the answer's size, counted from the dice drawn"),
)
#: What a budget counts in (``rules.budget.Work.unit``).
UNITS: Final = (
    text("budget.unit=base", "base dice"),
    text("budget.unit=dice", "dice"),
    text("budget.unit=terms", "odds terms"),
    text("budget.unit=odds_steps", "odds steps"),
    text("budget.unit=steps", "steps"),
    text("budget.unit=sides", "dice x sides"),
)


# ---------------------------------------------------------------- the fields that are not values


@dataclass(frozen=True, slots=True)
class Field:
    """How a template's field is read back and told, where it is not a value shown as written:
    what its English matches (``pattern``); the table of texts its value is one of (``texts``,
    told in the language; with ``raw``, a value no text fits stays as written, as a modifier's
    own name does); a list (its items joined by ``split`` in the English, told and joined again
    by ``join``: ``"and"`` and ``"or"`` are the language's lists, ``";"`` its semicolon, anything
    else as written)."""

    pattern: str | None = None
    texts: str | None = None
    raw: bool = False
    split: str | None = None
    join: str = ", "


_DIALECT: Final = "(?:foundry|roll20|avrae)"
#: The engine's fields that are not values (every other field is shown as written), by name.
FIELDS: Final[dict[str, Field]] = {
    # where (a number, a field's path)
    "column": Field(r"\d+"),
    "position": Field(r"\d+"),
    "field": Field(r"[\w.\-]+"),
    "dice": Field(r"-?[\d,]+"),
    "size": Field(r"[\d,]+"),
    "modifier": Field(r"\S*?"),
    # the notation's texts
    "error": Field(texts="column"),
    "message": Field(texts="notation"),
    "odds": Field(texts="odds"),
    "maiden": Field(r"'.*?' is Dice Maiden's.*", texts="maiden"),
    "meaning": Field(texts="maiden-modifier", split="; ", join=";"),
    "thing": Field(texts="thing", raw=True),
    "found": Field(texts="found", raw=True),
    "known_modifiers": Field(texts="known-modifiers"),
    "changes": Field(texts="changes", split=", ", join="and"),
    "known": Field(texts="none", raw=True),
    "close": Field(r"[)}]", raw=True),
    "read": Field(r"'.*'|\".*\""),
    "dialects": Field(f"{_DIALECT}(?: and {_DIALECT})*", split=" and ", join="and"),
    "add": Field(
        f'"dialect": "{_DIALECT}"(?: or "dialect": "{_DIALECT}")*', split=" or ", join="or"
    ),
    # the scripted dice, the systems' own
    "slots": Field(texts="none", raw=True),
    "first": Field(texts="engine"),
    "declaration": Field(texts="declaration"),
    "role": Field(texts="role"),
    "verb": Field(texts="verb"),
    "defense": Field(texts="defense"),
    "why": Field(texts="why"),
    # a budget
    "counted": Field(texts="counted"),
    "budget": Field(texts="budget"),
    "how": Field(texts="how", raw=True),
    "answer_how": Field(texts="how"),
    "unit": Field(texts="unit"),
}

#: The engine's tables of texts by the name a :class:`Field` gives them.
TEXTS: Final[dict[str, tuple[Text, ...]]] = {
    "engine": (*ENGINE_TEXTS, *ODDS),
    "odds": ODDS,
    "column": COLUMN,
    "notation": (*NOTATION, *MAIDEN),
    "maiden": MAIDEN,
    "maiden-modifier": MAIDEN_MODIFIERS,
    "thing": THINGS,
    "found": FOUND,
    "known-modifiers": KNOWN_MODIFIERS,
    "changes": CHANGES,
    "none": NONE,
    "semicolon": (SEMICOLON,),
    "declaration": DECLARATION,
    "role": ROLES,
    "verb": DEFENSE_VERBS,
    "defense": DEFENSES,
    "why": RIDERS_WHY,
    "counted": COUNTED,
    "budget": BUDGETS,
    "how": HOW,
    "unit": UNITS,
}
#: Every text of the engine's tables, once (the catalog's; ``service.problem_catalog``).
ENGINE_PIECES: Final = tuple(
    dict.fromkeys(t for name, texts in TEXTS.items() if name != "odds" for t in texts)
)


# ---------------------------------------------------------------- reading an English text back

_FORMATTER: Final = string.Formatter()


def fields(english: str) -> list[str]:
    """The names of ``english``'s fields, in order (a name may come twice)."""
    return [name for _, name, _, _ in _FORMATTER.parse(english) if name is not None]


def field_pattern(name: str) -> str:
    """What the field ``name`` matches in an English text: its :data:`FIELDS` pattern; any of its
    table's texts where they hold no text of their own (a unit, a Dragons of Shadows declaration:
    "combatant 'k1': declare[0] (run)", which holds ": "); else any text, the shortest that fits
    (read in turn by its table)."""
    spec = FIELDS.get(name)
    if spec is None:
        return ".*?"
    if spec.pattern is not None:
        return spec.pattern
    texts = TEXTS[spec.texts] if spec.texts is not None else ()
    forms = {form for t in texts for form in (t.text, t.plural or t.text)}
    inner = {n for form in forms for n in fields(form) if n in FIELDS and FIELDS[n].texts}
    if not forms or inner or spec.raw or spec.split is not None:
        return ".*?"
    return "(?:" + "|".join(_shape(f) for f in sorted(forms, key=len, reverse=True)) + ")"


def _shape(english: str) -> str:
    """``english`` as a pattern without groups (a part of another's)."""
    parts: list[str] = []
    for literal, name, _, _ in _FORMATTER.parse(english):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(f"(?:{field_pattern(name)})")
    return "".join(parts)


def pattern(english: str) -> re.Pattern[str]:
    """The English template as a pattern that reads its values back: each ``{name}`` what
    :func:`field_pattern` says, the same text where the name comes again, the rest as written."""
    parts: list[str] = []
    seen: set[str] = set()
    for literal, name, _, _ in _FORMATTER.parse(english):
        parts.append(re.escape(literal))
        if name is None:
            continue
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>{field_pattern(name)})")
        seen.add(name)
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Known:
    """The texts of one table, each English form with the longest run of words it always holds
    and its pattern, in order."""

    texts: tuple[tuple[Text, str, re.Pattern[str]], ...]

    def matches(self, english: str) -> Iterator[tuple[Text, dict[str, str]]]:
        """Each text whose English fits, in order, with its values. A form is matched only where
        its words are in ``english`` (a notation's error is told in 21 us instead of 60: it is
        read by the 180 forms of the engine's and the notation's tables)."""
        for found, words, compiled in self.texts:
            if words in english:
                match = compiled.match(english)
                if match is not None:
                    yield found, match.groupdict()

    def read(self, english: str) -> tuple[Text, dict[str, str]] | None:
        """The first text whose English fits, and its values; ``None`` when none fits."""
        return next(self.matches(english), None)


def known(texts: Iterable[Text]) -> Known:
    return Known(
        tuple(
            (t, max((lit for lit, *_ in _FORMATTER.parse(form)), key=len), pattern(form))
            for t in texts
            for form in dict.fromkeys((t.text, t.plural or t.text))
        )
    )


def table(texts: tuple[Text, ...], prefix: str) -> dict[str, Known]:
    """``texts`` by the key after ``prefix`` (a kind, an error type), variants with their kind."""
    grouped: dict[str, list[Text]] = {}
    for t in texts:
        grouped.setdefault(t.context.removeprefix(prefix).split("|", 1)[0], []).append(t)
    return {key: known(found) for key, found in grouped.items()}


DETAIL: Final = table(DETAILS, "detail=")
ERROR: Final = table((*ERRORS, *CHECKS), "error=")
PREFIX: Final = known(PREFIXES)
#: The parser's reasons by their English, and the place around them.
REASONS: Final = {t.text: t for t in JSON if "=" in t.context}
PLACE: Final = known([t for t in JSON if "=" not in t.context])
#: The engine's tables, read (:data:`TEXTS`).
KNOWN: Final = {name: known(texts) for name, texts in TEXTS.items()}


# ---------------------------------------------------------------- one language's catalog

#: What a lookup gives for a text the language's catalog does not have (it stays English).
_MISSING: Final = "\x00missing"


class _Untranslated(gettext.NullTranslations):
    """The catalog's fallback: says that a text is missing rather than giving its English."""

    def pgettext(self, context: str, message: str) -> str:
        return _MISSING

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return _MISSING


def number(value: str) -> int:
    """A count as the English writes it ("1,234"); 2 (the "many" of English) for anything else."""
    digits = value.replace(",", "")
    return int(digits) if digits.isdigit() else 2


@dataclass(frozen=True, slots=True)
class Catalog:
    """One language's problem texts."""

    lang: str
    tr: gettext.NullTranslations

    def say(
        self, known: Text, values: Mapping[str, str], done: Mapping[str, str] | None = None
    ) -> str | None:
        """``known`` in this language with ``values`` (each told as its field says, :data:`FIELDS`)
        and ``done`` (values told already); ``None`` when the catalog lacks a text of it."""
        template = self.template(known, values)
        if template is None:
            return None
        out = dict(done or {})
        for name, value in values.items():
            if name not in out:
                told = self.value(name, value)
                if told is None:
                    return None
                out[name] = told
        return template.format(**out)

    def template(self, known: Text, values: Mapping[str, str]) -> str | None:
        if known.plural is None:
            found = self.tr.pgettext(known.context, known.text)
        else:
            count = known.count or ""
            spec = FIELDS.get(count)
            split = spec.split if spec is not None else None
            n = len(values[count].split(split)) if split else number(values[count])
            found = self.tr.npgettext(known.context, known.text, known.plural, n)
        return None if found is _MISSING else found

    def value(self, name: str, value: str) -> str | None:
        """A field's value told: as written (isolated in a right-to-left language), or as its
        :data:`FIELDS` entry says."""
        spec = FIELDS.get(name)
        if spec is None:
            return self.written(value)
        if spec.split is None:
            return self.item(spec, value)
        items = [self.item(spec, v) for v in value.split(spec.split)]
        if any(i is None for i in items):
            return None
        told = [i for i in items if i is not None]
        if spec.join == "and":
            return format_list(told, style="standard", locale=self.lang)
        if spec.join == "or":
            return format_list(told, style="or", locale=self.lang)
        return (self.semicolon() if spec.join == ";" else spec.join).join(told)

    def semicolon(self) -> str:
        return self.say(SEMICOLON, {}) or SEMICOLON.text

    def item(self, spec: Field, value: str) -> str | None:
        if spec.texts is not None:
            told = tell(KNOWN[spec.texts], value, self)
            if told is not None or not spec.raw:
                return told
        return self.written(value)

    def written(self, value: str) -> str:
        """A value as written: in isolates in a right-to-left language, as the events' texts
        show theirs (``rules.narration``)."""
        return f"{FSI}{value}{PDI}" if self.lang in RTL and value else value

    def term(self, context: str, english: str) -> str | None:
        found = self.tr.pgettext(context, english)
        return None if found is _MISSING else found


#: The longest text read back, the most a problem shows of a text (``service.problems.MAX_TEXT``:
#: a longer one is cut, and its cut stays English): a template's pattern may take a text's length
#: squared to fit or fail (a notation's error quoting a 60 KB text of data references took 250 ms
#: on the event loop; 0.4 ms at 1,000 characters).
LONGEST: Final = 1000


def tell(texts: Known, english: str, cat: Catalog) -> str | None:
    """``english`` in ``cat``'s language: the first text of ``texts`` that fits it and whose every
    part the catalog tells; ``None`` when none does, or when it is longer than :data:`LONGEST`."""
    if len(english) > LONGEST:
        return None
    for found, values in texts.matches(english):
        done = _values(values, cat)
        told = cat.say(found, values, done) if done is not None else None
        if told is not None:
            return told
    return None


@cache
def catalog(lang: str) -> Catalog | None:
    """``lang``'s compiled catalog (``service/locale/<lang>/LC_MESSAGES/problems.mo``), read once;
    ``None`` for English (the source) or a language without one."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if lang == DEFAULT or not path.exists():
        return None
    with open(path, "rb") as f:
        tr = gettext.GNUTranslations(f)
    tr.add_fallback(_Untranslated())
    return Catalog(lang, tr)


# ---------------------------------------------------------------- a problem, told again


def language(scope: Mapping[str, Any]) -> str:
    """The language a problem is told in: the request's ``lang`` when its body (noted under
    :data:`BODY_KEY`) is JSON with a known one, else what ``Accept-Language`` prefers."""
    raw = scope.get(BODY_KEY)
    if isinstance(raw, bytes) and raw:
        try:
            parsed = orjson.loads(raw)
        except orjson.JSONDecodeError:
            parsed = None
        lang = parsed.get("lang") if isinstance(parsed, dict) else None
        if isinstance(lang, str) and lang in LANGUAGES:
            return lang
    header = next((v for k, v in scope.get("headers", ()) if k == b"accept-language"), b"")
    return negotiate(header)


def headers(lang: str, given: Mapping[str, str] | None = None) -> dict[str, str]:
    """A problem's response headers: ``given``, its language, and that it depends on the header."""
    out = dict(given or {})
    vary = out.get("vary")
    out["vary"] = f"{vary}, Accept-Language" if vary else "Accept-Language"
    out["content-language"] = lang
    return out


def localized(body: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """``body`` (a problem, in English) told in ``lang``: its title, its detail and its errors'
    messages where the catalog has them, each marked with the language it is in."""
    out = dict(body)
    out["lang"] = lang
    cat = catalog(lang)
    errors = body.get("errors")
    told = [_error(e, cat) for e in errors] if isinstance(errors, list) else None
    if told is not None:
        out["errors"] = told
    out["detail_lang"] = DEFAULT
    if cat is None:
        return out
    kind = str(body.get("type", "")).rsplit("/", 1)[-1]
    title = cat.term(f"title={kind}", str(body.get("title", "")))
    if title is not None:
        out["title"] = title
    pairs = [
        (str(e.get("msg")), t.get("msg") if t.get("lang") == lang else None)
        for e, t in zip(errors or (), told or (), strict=False)
        if isinstance(e, dict) and isinstance(t, dict)
    ]
    detail = _detail(kind, str(body.get("detail", "")), pairs, cat)
    if detail is not None:
        out["detail"], out["detail_lang"] = detail, lang
    return out


def _error(error: Any, cat: Catalog | None) -> Any:
    if not isinstance(error, dict):
        return error
    told = _message(str(error.get("msg", "")), error.get("type"), cat) if cat else None
    if told is None or cat is None:
        return {**error, "lang": DEFAULT}
    return {**error, "msg": told, "lang": cat.lang}


def _message(msg: str, kind: Any, cat: Catalog) -> str | None:
    """A field's message of type ``kind`` in the catalog's language (``None``: it stays English);
    a model's prefix ("combatant 'k1': ") told with it; an engine's error (no type) by the
    engine's texts."""
    if kind is None:
        return tell(KNOWN["engine"], msg, cat)
    texts = ERROR.get(kind) if isinstance(kind, str) else None
    if texts is None:
        return None
    prefixed = PREFIX.read(msg)
    if prefixed is not None:
        inner = _message(prefixed[1]["msg"], kind, cat)
        return None if inner is None else cat.say(prefixed[0], prefixed[1], {"msg": inner})
    return tell(texts, msg, cat)


def _detail(
    kind: str, detail: str, errors: list[tuple[str, str | None]], cat: Catalog
) -> str | None:
    """The detail in the catalog's language: the service's by its kind; the engine's as its
    errors are told where it is one of them or joins them ("; "), else by the engine's texts."""
    texts = DETAIL.get(kind)
    if texts is None:
        return _engine_detail(detail, errors, cat)
    found = texts.read(detail)
    if found is None:
        return None
    done: dict[str, str] = {}
    if "msg" in found[1]:  # a field's message: as its error is told
        said = next((t for e, t in errors if e == found[1]["msg"] and t is not None), None)
        if said is None:
            return None
        done["msg"] = said
    more = _values(found[1], cat)
    return None if more is None else cat.say(found[0], found[1], {**more, **done})


def _engine_detail(detail: str, errors: list[tuple[str, str | None]], cat: Catalog) -> str | None:
    for k in range(1, min(len(errors), 5) + 1):
        if detail == SEMICOLON.text.join(e for e, _ in errors[:k]):
            said = [t for _, t in errors[:k]]
            return None if None in said else cat.semicolon().join(t for t in said if t)
    return tell(KNOWN["engine"], detail, cat)


def _values(values: Mapping[str, str], cat: Catalog) -> dict[str, str] | None:
    """The values read back that are service's texts themselves, told: the JSON parser's reason,
    a list of the values a field takes ("'a', 'b' or 'c'": the language's "or" list, each value
    in isolates in a right-to-left language); ``None`` when one is not told."""
    out: dict[str, str] = {}
    if "reason" in values:
        reason = _reason(values["reason"], cat)
        if reason is None:
            return None
        out["reason"] = reason
    if "expected" in values:
        items = re.findall(r"'[^']*'", values["expected"])
        if items:
            told = [cat.written(i) for i in items]
            out["expected"] = format_list(told, style="or", locale=cat.lang)
    return out


def _reason(reason: str, cat: Catalog) -> str | None:
    found = PLACE.read(reason)
    what = REASONS.get(found[1]["what"]) if found is not None else None
    if found is None or what is None:
        return None
    told = cat.term(what.context, what.text)
    return None if told is None else cat.say(found[0], found[1], {"what": told})
