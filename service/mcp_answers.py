"""What a tool call answers by default: the HTTP answer told small (its small values, its dice by slot,
its events' sentences; odds as their probabilities, each in percent with what it means, and each
distribution's summary), what it leaves out named and one argument away, ``full: true`` (docs/mcp.md,
"Answers, small by default").
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import accumulate, pairwise
from typing import Any

from pydantic import TypeAdapter

from service.encoding import encode

#: The largest value (in bytes of JSON) a summary keeps whole beside the small top-level ones.
SMALL = 120
#: A distribution's cut tail below this mass is left out of its summary (it is in the full answer).
NEGLIGIBLE = 1e-9
#: The most bars a distribution is drawn with, and the most values a list of them keeps.
BARS = 12
VALUES = 24
#: The most bytes an odds summary takes: past it, its lists are cut shorter and its bars fewer.
ODDS_BYTES = 8 * 1024
#: The (list items, bars) an odds summary is tried with, in order, until it fits.
STEPS = ((VALUES, BARS), (8, 8), (3, 6), (1, 4))
#: The most sentences a summary lists (the text has them all).
EVENTS = 40
#: What a summary never repeats (its own shape says it: ``dice``, ``events``).
TOLD = frozenset({"rolls", "events", "rng", "unused_dice"})


def is_prob(node: Any) -> bool:
    return isinstance(node, dict) and node.keys() == {"p", "exact"}


def is_distribution(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("result"), list) and "mean" in node


def _size(value: Any) -> int:
    return len(encode(value))


def resolution(answer: dict[str, Any], lang: str | None, odds: str = "") -> dict[str, Any]:
    """The summary of a resolving endpoint's answer: its small values, its dice, its events'
    sentences, the language they are in, and the odds endpoint of the same request."""
    out: dict[str, Any] = {}
    left_out: list[str] = []
    for key, value in answer.items():
        if key in TOLD or value is None or value in ([], {}):
            continue  # told below, or nothing to tell (the full answer has it as it is)
        if _size(value) <= SMALL or not isinstance(value, dict | list):
            out[key] = value
        else:
            left_out.append(key)
    out["dice"] = dice(answer.get("rolls", []))
    if answer.get("unused_dice"):
        out["unused_dice"] = answer["unused_dice"]
    texts = [e["text"] for e in answer.get("events", ()) if isinstance(e, dict) and e.get("text")]
    out["events"] = texts[:EVENTS] + ([f"... {len(texts) - EVENTS} more"] if texts[EVENTS:] else [])
    out["lang"] = lang
    if odds:
        out["odds_endpoint"] = odds
    if left_out:
        out["left_out"] = left_out
    return out


def dice(rolls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rolls by slot: each run of one slot's dice of one size (and source) as one entry."""
    out: list[dict[str, Any]] = []
    for roll in rolls:
        last = out[-1] if out else None
        key = (roll.get("slot"), roll.get("sides"), roll.get("source"))
        if last is not None and (last["slot"], last["sides"], last.get("source", "seed")) == key:
            last["values"].append(roll.get("value"))
            continue
        entry: dict[str, Any] = {"slot": key[0], "sides": key[1], "values": [roll.get("value")]}
        if key[2] == "dice":
            entry["source"] = "dice"
        out.append(entry)
    return out


def odds(answer: Any) -> Any:
    """An odds or simulation answer made small (:func:`shrunk`), with its lists cut shorter and
    its bars fewer until it fits in :data:`ODDS_BYTES`."""
    for items, count in STEPS:
        small = shrunk(answer, items, count)
        if _size(small) <= ODDS_BYTES:
            break
    return small


def shrunk(answer: Any, items: int = VALUES, count: int = BARS) -> Any:
    """Probabilities and small values kept, each distribution as its mean, percentiles and
    ``count`` bars, each list of ``{value, p}`` as at most ``items`` values, other lists cut to
    ``items`` items."""
    if is_prob(answer):
        return answer
    if is_distribution(answer):
        tail = answer.get("tail")
        kept = {k: v for k, v in answer.items() if k not in ("result", "tail")}
        if is_prob(tail) and tail["p"] >= NEGLIGIBLE:
            kept["tail"] = tail
        return {**kept, "bars": bars(answer["result"], count)}
    if isinstance(answer, dict):
        return {key: shrunk(value, items, count) for key, value in answer.items()}
    if isinstance(answer, list):
        if answer and all(
            isinstance(x, dict) and "value" in x and is_prob(x.get("p")) for x in answer
        ):
            return sampled(answer, items)
        if len(answer) > items:
            cut = [shrunk(x, items, count) for x in answer[:items]]
            return [*cut, f"... {len(answer) - items} more (`full: true`)"]
        return [shrunk(x, items, count) for x in answer]
    return answer


def bars(result: list[dict[str, Any]], count: int = BARS) -> list[list[Any]]:
    """A distribution as at most ``count`` bars, ``[from, to, p]``, for a chart: the values
    between its 0.5th and 99.5th percentiles in bars of equal width, each tail added to the bar
    at its end (the exact values: ``full: true``)."""
    if not result:
        return []
    masses = [float(x["p"]["p"]) for x in result]
    cumulative = list(accumulate(masses))
    low = next(i for i, c in enumerate(cumulative) if c >= 0.005)
    high = next((i for i, c in enumerate(cumulative) if c >= 0.995), len(result) - 1)
    per = -(-(high - low + 1) // count)
    edges = [*range(low, high + 1, per), high + 1]
    edges[0], edges[-1] = 0, len(result)
    return [
        [result[a]["value"], result[b - 1]["value"], round(sum(masses[a:b]), 6)]
        for a, b in pairwise(edges)
    ]


def sampled(values: list[dict[str, Any]], items: int = VALUES) -> dict[str, float]:
    """A list of ``{value, p}`` as ``{value: p}``, at most ``items`` of them evenly taken (and
    the last)."""
    step = -(-len(values) // items)
    picked = values[::step]
    if picked[-1] is not values[-1]:
        picked.append(values[-1])
    return {str(x["value"]): round(float(x["p"]["p"]), 6) for x in picked}


# ---------------------------------------------------------------------------- the text beside it


def percent(p: float) -> str:
    return f"{p * 100:.4g} %"


def odds_lines(answer: Any, model: Any) -> list[str]:
    """Each probability near the top of an odds answer in percent, and each distribution's mean
    and percentiles, with what the result model says each field is: the answer's own
    probabilities first (the question asked), then those inside its parts."""
    schema, defs = _schema(model), _defs(model)
    first = {k: v for k, v in answer.items() if is_prob(v)} if isinstance(answer, dict) else {}
    rest = {k: v for k, v in answer.items() if k not in first} if isinstance(answer, dict) else {}
    return [
        *_lines(first, schema, defs, at="", depth=0),
        *_lines(rest, schema, defs, at="", depth=0),
    ]


def _lines(
    node: Any, schema: dict[str, Any], defs: dict[str, Any], *, at: str, depth: int, about: str = ""
) -> Iterator[str]:
    """The lines of ``node`` at ``at`` (``schema``: its type's schema; ``about``: what its own
    property's description says)."""
    if is_prob(node):
        if node["p"] >= NEGLIGIBLE or depth == 1:
            yield f"{at}: {percent(node['p'])} ({node['exact']}){about}"
    elif is_distribution(node):
        tiles = node.get("percentiles", {})
        spread = ", ".join(f"{k} {v}" for k, v in tiles.items())
        yield f"{at}: mean {node['mean']:.4g}{', ' + spread if spread else ''}{about}"
    elif isinstance(node, dict) and depth < 3:
        if at and about:
            yield f"{at}{about}"
        for key, value in node.items():
            prop = _property(schema, key, node)
            child = _resolve(prop, defs)
            where = f"{at}.{key}" if at else key
            yield from _lines(value, child, defs, at=where, depth=depth + 1, about=_about(prop))


def _about(schema: dict[str, Any]) -> str:
    text = " ".join(str(schema.get("description", "")).split())
    return f": {text}" if text else ""


def _property(schema: dict[str, Any], key: str, node: dict[str, Any]) -> dict[str, Any]:
    for option in (schema, *schema.get("anyOf", ()), *schema.get("oneOf", ())):
        props = option.get("properties", {})
        if key in props and set(node) <= set(props):
            found: dict[str, Any] = props[key]
            return found
    return {}


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The schema of what a property holds: its ``$ref`` (or its one non-null option's) followed."""
    options = [o for o in schema.get("anyOf", [schema]) if o.get("type") != "null"]
    target = options[0] if len(options) == 1 else schema
    ref = target.get("$ref", "")
    if ref:
        found: dict[str, Any] = defs.get(ref.rsplit("/", 1)[-1], {})
        return found
    return target


@cache
def _full_schema(model: Any) -> dict[str, Any]:
    try:
        schema: dict[str, Any] = TypeAdapter(model).json_schema()
    except Exception:  # a model pydantic cannot describe tells no descriptions
        return {}
    return schema


def _schema(model: Any) -> dict[str, Any]:
    return _resolve(_full_schema(model), _defs(model)) if model is not None else {}


def _defs(model: Any) -> dict[str, Any]:
    defs: dict[str, Any] = _full_schema(model).get("$defs", {}) if model is not None else {}
    return defs
