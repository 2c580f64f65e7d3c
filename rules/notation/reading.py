"""A pasted text read whole (docs/notation.md, "Pasted"): its chat command taken off
(``rules.notation.pasted``), the notation parsed, avrae's ``adv``/``dis`` applied as d20 applies
them, and an error naming the dialect (or the tool) that would read the text when the request's
does not."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules.notation.misread import comment_misread, dice_maiden
from rules.notation.parser import (
    DIALECTS,
    Binary,
    Dialect,
    Dice,
    Group,
    Keep,
    Negate,
    Node,
    Notation,
    NotationError,
    Pool,
    SetOp,
    parse,
    pools_of,
)
from rules.notation.pasted import Pasted, PastedError, read


def read_notation(text: str, shorthands: Mapping[str, str], dialect: Dialect) -> Notation:
    """``text`` as ``dialect``'s tool reads it pasted; raises :class:`NotationError` with the
    column in ``text``."""
    try:
        pasted = read(text, dialect)
    except PastedError as exc:
        raise NotationError(exc.column, exc.message) from None
    try:
        parsed = parse(pasted.notation, shorthands, dialect)
    except NotationError as exc:
        maiden = dice_maiden(pasted.notation)
        message = exc.message if maiden is None else f"{exc.message}; {maiden}"
        raise NotationError(exc.column + pasted.start, message) from None
    if parsed.comment is not None and dialect != "foundry":
        _not_a_comment(parsed.comment, pasted, dialect)
    advantage = pasted.advantage
    if advantage is not None:
        applied = _advantaged(parsed, pasted)
        # d20 rolls the text as written when its leftmost node is not 1d20
        advantage = advantage if applied is not parsed else None
        parsed = applied
    comment = parsed.comment
    if comment is not None and pasted.advantage is not None:
        comment = " ".join(comment.split())  # the word was written over with spaces
    return replace(
        parsed,
        comment=comment or pasted.message,
        command=pasted.command,
        mode=pasted.mode,
        repeat=pasted.repeat,
        dc=pasted.dc,
        advantage=advantage,
    )


def _not_a_comment(comment: str, pasted: Pasted, dialect: Dialect) -> None:
    why = dice_maiden(pasted.notation) or comment_misread(comment, dialect)
    if why is not None:
        at = pasted.notation.rfind(comment.split(" ", 1)[0])
        raise NotationError(pasted.start + max(at, 0) + 1, why)


def _advantaged(parsed: Notation, pasted: Pasted) -> Notation:
    """avrae's ``adv``/``dis`` as d20's ``ast_adv_copy`` applies them: the leftmost node, if it is
    ``1d20``, becomes ``2d20`` keeping its highest (lowest) first, before its own operators;
    anything else is rolled as written."""
    node = parsed.tree
    while not isinstance(node, Dice):
        if isinstance(node, Binary):
            node = node.left
        elif isinstance(node, Group):
            node = node.inner
        elif isinstance(node, Negate):
            node = node.operand
        elif isinstance(node, Pool):
            node = node.items[0]
        else:
            return parsed
    if node.count != 1 or node.sides != 20 or node.kind != "plain":
        return parsed
    if node.reroll is not None or node.explode is not None:
        raise NotationError(
            node.column + pasted.start,
            f"avrae's {pasted.advantage} keeps the {'higher' if pasted.advantage == 'adv' else 'lower'}"
            " of 2d20 before the term's rerolls and explosions (only on the die it keeps); here "
            "rerolls and explosions apply first, so this is not read: roll it without "
            f"{pasted.advantage}, or write 2d20 with its keep",
        )
    pick = Keep("kh" if pasted.advantage == "adv" else "kl", 1)
    if node.sets:
        term = replace(node, count=2, sets=(SetOp(True, (pick,)), *node.sets))
    else:
        term = replace(node, count=2, keeps=(pick, *node.keeps))
    terms = tuple(term if t.index == term.index else t for t in parsed.terms)
    tree = _replaced(parsed.tree, term)
    dialect = parsed.dialect
    texts = tuple(t.text(dialect) for t in terms)
    formula = tree.text(dialect)
    return replace(
        parsed, tree=tree, terms=terms, formula=formula, texts=texts, pools=pools_of(tree)
    )


def _replaced(node: Node, term: Dice) -> Node:
    if isinstance(node, Dice):
        return term
    if isinstance(node, Binary):
        return replace(node, left=_replaced(node.left, term))
    if isinstance(node, Group):
        return replace(node, inner=_replaced(node.inner, term))
    if isinstance(node, Negate):
        return replace(node, operand=_replaced(node.operand, term))
    if isinstance(node, Pool):
        return replace(node, items=(_replaced(node.items[0], term), *node.items[1:]))
    return node


def others_reading(text: str, shorthands: Mapping[str, str], dialect: Dialect) -> list[Dialect]:
    out: list[Dialect] = []
    for other in DIALECTS:
        if other == dialect:
            continue
        try:
            read_notation(text, shorthands, other)
        except (NotationError, ValueError):
            continue
        out.append(other)
    return out
