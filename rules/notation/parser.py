"""The dice notation's grammar, parsed by hand: a recursive descent over the text in a
:data:`Dialect` into one model (:class:`Dice` and the tree's nodes), written back in the same
dialect (``Node.text``), every error a :class:`NotationError` naming its column; ``parse(text,
plain=True)`` reads the plain subset (a 5e damage formula). The grammar: docs/notation.md, "The
grammar" and "The plain subset".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

from rules.notation.pasted import Advantage, Mode

MAX_LENGTH = 500
MAX_DICE_TERMS = 20
MAX_COUNT = 100
MIN_SIDES = 2
MAX_SIDES = 1000
MAX_NUMBER = 1_000_000
MAX_LABEL = 32
#: Parentheses and signs nest at most this deep (the parser and every walk of the tree recurse).
MAX_NESTING = 50
#: The largest magnitude any total (and any part of one) may reach: 2^53 - 1, the largest integer
#: a JSON reader that holds numbers as doubles (a browser's ``JSON.parse``) keeps exactly.
MAX_TOTAL = 2**53 - 1
#: Explosions per die at most: a die's chain of explosions stops after this many (docs/notation.md,
#: "Chains"). A chain of rerolls (``r``, ``rr``) takes this many at most too, its last die drawn from
#: the faces that stand, so "reroll until" is exact.
DEPTH = 10
_DIGITS = "0123456789"
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LABEL_CHARS = frozenset(_LETTERS + _DIGITS + " _-")

Op = Literal[">", ">=", "<", "<=", "="]
#: How a notation is read and written (docs/notation.md, "Dialects"): as Foundry VTT, Roll20 or
#: avrae/d20 read it.
Dialect = Literal["foundry", "roll20", "avrae"]
DIALECTS: tuple[Dialect, ...] = ("foundry", "roll20", "avrae")


class NotationError(ValueError):
    """A notation that does not follow the grammar or breaks a cap; ``column`` is 1-based."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(f"column {column}: {message}")
        self.column = column
        self.message = message


@dataclass(frozen=True, slots=True)
class Compare:
    op: Op
    target: int

    def __call__(self, value: int) -> bool:
        op, t = self.op, self.target
        if op == "=":
            return value == t
        if op == ">":
            return value > t
        if op == ">=":
            return value >= t
        if op == "<":
            return value < t
        return value <= t

    def __str__(self) -> str:
        return f"{self.op}{self.target}"

    def written(self, dialect: Dialect) -> str:
        """The comparison in ``dialect``: Foundry's as it is (``>`` strict); Roll20's ``>`` and
        ``<`` hold the target (``>=7`` is ``>7``, ``>7`` is ``>8``); avrae's selectors are a
        literal, ``<`` or ``>`` (strict)."""
        op, t = self.op, self.target
        if dialect == "roll20":
            if op == ">=":
                return f">{t}"
            if op == "<=":
                return f"<{t}"
            if op == ">":
                return f">{t + 1}"
            if op == "<":
                return f"<{t - 1}"
            return f"={t}"
        if dialect == "avrae":
            if op == ">=":
                return f">{t - 1}"
            if op == "<=":
                return f"<{t + 1}"
            return str(t) if op == "=" else f"{op}{t}"
        return str(self)


@dataclass(frozen=True, slots=True)
class SetOp:
    """avrae/d20's set operator, ``k`` (keep) or ``p`` (drop) with its selectors: it picks, of the
    dice still kept, the highest ``n`` (``kh``: a :class:`Keep` of ``kh``), the lowest ``n``
    (``kl``) and those whose value matches (a :class:`Compare`: ``k3``, ``p<3``), and keeps what
    it picks or drops it. Consecutive selectors of one operator are one operator, as d20 reads
    them: ``4d6kh1kl1`` keeps the highest and the lowest (the term's other modifiers, which apply
    first here, do not part them)."""

    keep: bool
    picks: tuple[Keep | Compare, ...]

    @property
    def ranked(self) -> bool:
        return any(isinstance(p, Keep) for p in self.picks)

    def matches(self, value: int) -> bool:
        return any(p(value) for p in self.picks if isinstance(p, Compare))

    def ranks(self, which: Literal["h", "l"]) -> int:
        return max(
            (p.n for p in self.picks if isinstance(p, Keep) and p.how[1] == which), default=0
        )

    def written(self, dialect: Dialect) -> str:
        letter = "k" if self.keep else "p"
        return "".join(
            letter + (p.how[1] + str(p.n) if isinstance(p, Keep) else p.written("avrae"))
            for p in self.picks
        )


@dataclass(frozen=True, slots=True)
class Keep:
    """``kh``/``kl`` keep the ``n`` highest/lowest of the dice still kept; ``dh``/``dl`` drop them."""

    how: Literal["kh", "kl", "dh", "dl"]
    n: int

    def __str__(self) -> str:
        return f"{self.how}{self.n}"

    def written(self, dialect: Dialect) -> str:
        """``kh3``; avrae drops with ``p``: ``ph1``, ``pl1``."""
        if dialect == "avrae" and self.how in ("dh", "dl"):
            return f"p{self.how[1]}{self.n}"
        return str(self)


@dataclass(frozen=True, slots=True)
class Dice:
    """One dice term: ``count`` dice of ``sides`` faces (Fate dice: -1, 0, +1) and its modifiers,
    applied in this order whatever order they are written in: rerolls, explosions, min/max, keep
    and drop (in their written order), success counting."""

    index: int
    column: int
    count: int
    sides: int
    kind: Literal["plain", "percent", "fate", "tens"] = "plain"
    reroll: Compare | None = None
    reroll_once: bool = False
    explode: Compare | None = None
    explode_once: bool = False
    minimum: int | None = None
    maximum: int | None = None
    keeps: tuple[Keep, ...] = ()
    success: Compare | None = None
    failure: Compare | None = None
    label: str | None = None
    #: Roll20's ``!!``: a die's chain of explosions is one die, its value their sum
    compound: bool = False
    #: Roll20's ``!p``: each die an explosion adds shows its face less 1 (it explodes on its face)
    penetrate: bool = False
    #: Roll20's ``sa``/``sd`` (``s``: ascending): the answer's dice of the term in that order of
    #: value (the total unchanged)
    sort: Literal["a", "d"] | None = None
    #: Foundry's ``cf`` alone: the term counts its failures (each 1)
    failures_only: bool = False
    #: avrae's set operators in their written order, when one picks by value or two selectors
    #: merge (``10d6k1ph1``, ``4d6kh1kl1``); else they are ``keeps`` (``4d6kh3pl1``)
    sets: tuple[SetOp, ...] = ()
    #: Roll20's ``cs``/``cf``: the faces marked critical success / failure (the total unchanged)
    critical: Compare | None = None
    fumble: Compare | None = None
    #: Roll20's matches (``m``, ``mt``): the values at least ``matching`` dice show (and that
    #: meet ``match_target``, if given) match; ``mt`` totals how many values matched
    matching: int | None = None
    match_target: Compare | None = None
    match_count: bool = False
    #: nested dice (Foundry's ``(2d6)d6``, Roll20's computed dice): the expression whose total is
    #: how many dice the term rolls (then ``count`` is the most it can be)
    count_from: Node | None = None

    @property
    def slot(self) -> str:
        return f"term.{self.index}"

    @property
    def faces(self) -> tuple[int, ...]:
        """The values a die shows: 1..sides; -1, 0, 1 for a Fate die; 0, 10 ... 90 for avrae's
        ``d%`` (a percentile tens die)."""
        if self.kind == "fate":
            return (-1, 0, 1)
        if self.kind == "tens":
            return tuple(range(0, 100, 10))
        return tuple(range(1, self.sides + 1))

    def face(self, drawn: int) -> int:
        if self.kind == "tens":
            return 10 * (drawn - 1)
        return drawn - 2 if self.kind == "fate" else drawn

    @property
    def rerolls(self) -> int:
        return 0 if self.reroll is None else 1 if self.reroll_once else DEPTH

    @property
    def explosions(self) -> int:
        return 0 if self.explode is None else 1 if self.explode_once else DEPTH

    @property
    def draws(self) -> int:
        return self.count * (1 + self.rerolls + self.explosions)

    @property
    def standing(self) -> tuple[int, ...]:
        """The faces a reroll leaves standing (the last die of a chain of rerolls is one)."""
        when = self.reroll
        return self.faces if when is None else tuple(v for v in self.faces if not when(v))

    @property
    def showing(self) -> tuple[int, ...]:
        """The faces a die of the term can show (rerolled again and again, without explosions:
        those that stand)."""
        again = self.reroll is not None and not self.reroll_once
        return self.standing if again and self.explode is None else self.faces

    def clamp(self, value: int) -> int:
        if self.minimum is not None and value < self.minimum:
            value = self.minimum
        if self.maximum is not None and value > self.maximum:
            value = self.maximum
        return value

    def worth(self, value: int) -> int:
        """What a die of ``value`` adds, ranked keeps aside: clamped, 0 if a set operator picking
        by value drops it, else scored."""
        value = self.clamp(value)
        for op in self.sets:
            if op.matches(value) != op.keep:
                return 0
        return self.score(value)

    def score(self, value: int) -> int:
        """What a kept die of (clamped) ``value`` adds: itself, or +1/-1/0 when counting."""
        if self.success is None:
            if self.failures_only and self.failure is not None:
                return 1 if self.failure(value) else 0
            return value
        if self.success(value):
            return 1
        return -1 if self.failure is not None and self.failure(value) else 0

    def base(self, dialect: Dialect = "foundry") -> str:
        count = str(self.count) if self.count_from is None else f"({self.count_from.text(dialect)})"
        if self.kind == "fate":
            return f"{count}dF"
        percent = self.kind == "tens" or (self.kind == "percent" and dialect == "avrae")
        return f"{count}d{'%' if percent else self.sides}"

    def modifiers(self, dialect: Dialect = "foundry", *, explicit: bool = False) -> list[str]:
        """The modifiers in the order they apply, as ``dialect`` writes them (docs/notation.md's
        table): Foundry's ``r`` is once and ``rr`` again and again, Roll20's and avrae's ``ro``
        once and ``r``/``rr`` again and again; Foundry deducts failures with ``df``, Roll20 counts
        successes with a bare comparison and failures with ``f``."""
        out: list[str] = []
        low, high = self.faces[0], self.faces[-1]
        plain = dialect == "foundry" or (dialect == "roll20" and self.success is None)
        if self.reroll is not None:
            if dialect == "foundry":
                word = "r" if self.reroll_once else "rr"
            elif dialect == "roll20":
                word = "ro" if self.reroll_once else "r"
            else:
                word = "ro" if self.reroll_once else "rr"
            # the default (the lowest face) is written bare where the dialect has one
            # (not in Roll20 before its bare comparison of successes: it would take it)
            # (``explicit``: the Foundry roll's modifiers write a reroll's comparison always)
            bare = self.reroll == Compare("=", low) and plain and not explicit
            out.append(word + ("" if bare else self.reroll.written(dialect)))
        if self.explode is not None:
            bare = self.explode == Compare("=", high) and plain
            when = "" if bare else self.explode.written(dialect)
            if dialect == "avrae":
                out.append("e" + when)
            elif dialect == "roll20":
                out.append(("!!" if self.compound else "!p" if self.penetrate else "!") + when)
            else:
                out.append(("xo" if self.explode_once else "x") + when)
        if self.minimum is not None:
            out.append(f"{'mi' if dialect == 'avrae' else 'min'}{self.minimum}")
        if self.maximum is not None:
            out.append(f"{'ma' if dialect == 'avrae' else 'max'}{self.maximum}")
        out += [k.written(dialect) for k in self.keeps]
        if dialect == "avrae":  # Foundry and Roll20 have no value selectors: left out there
            out += [k.written(dialect) for k in self.sets]
        if dialect == "roll20":
            if self.success is not None:
                out.append(self.success.written("roll20"))
            if self.failure is not None:
                out.append("f" + self.failure.written("roll20").removeprefix("="))
            if self.critical is not None:
                out.append("cs" + self.critical.written("roll20"))
            if self.fumble is not None:
                out.append("cf" + self.fumble.written("roll20"))
            if self.matching is not None:
                least = "" if self.matching == 2 else str(self.matching)
                target = "" if self.match_target is None else self.match_target.written("roll20")
                out.append(("mt" if self.match_count else "m") + least + target)
            if self.sort is not None:
                out.append("s" + self.sort)
            return out
        if self.success is not None:
            out.append(f"cs{self.success}")
        if self.failure is not None:
            out.append(f"{'cf' if self.failures_only else 'df'}{self.failure}")
        return out

    def text(self, dialect: Dialect = "foundry") -> str:
        return self.base(dialect) + "".join(self.modifiers(dialect)) + _label(self.label)


def _label(label: str | None) -> str:
    return f"[{label}]" if label else ""


@dataclass(frozen=True, slots=True)
class Number:
    value: int
    label: str | None = None

    def text(self, dialect: Dialect = "foundry") -> str:
        return str(self.value) + _label(self.label)


@dataclass(frozen=True, slots=True)
class Group:
    """A parenthesised expression (kept as written, so the formula reads back the same)."""

    inner: Node
    label: str | None = None

    def text(self, dialect: Dialect = "foundry") -> str:
        return f"({self.inner.text(dialect)})" + _label(self.label)


@dataclass(frozen=True, slots=True)
class Negate:
    operand: Node

    def text(self, dialect: Dialect = "foundry") -> str:
        return f"-{self.operand.text(dialect)}"


@dataclass(frozen=True, slots=True)
class Binary:
    op: Literal["+", "-", "*", "/"]
    left: Node
    right: Node
    column: int

    def text(self, dialect: Dialect = "foundry") -> str:
        return f"{self.left.text(dialect)} {self.op} {self.right.text(dialect)}"


#: Expressions a pool may hold.
MAX_POOL = 20


@dataclass(frozen=True, slots=True)
class Pool:
    """``{1d20, 1d20}kh`` (avrae: ``(1d20, 1d20)kh1``): each expression's total, then the pool's
    keep or drop on them (ties: the earlier ranks higher); the total is the kept totals' sum."""

    items: tuple[Node, ...]
    keep: Keep | None
    column: int
    label: str | None = None
    #: Roll20's grouped successes (``{3d6, 2d8}>10f<3``): each expression's total counts +1 when
    #: it reaches ``success``, else -1 when ``failure`` holds (its Dice Reference, "Grouped Rolls")
    success: Compare | None = None
    failure: Compare | None = None

    def text(self, dialect: Dialect = "foundry") -> str:
        inner = ", ".join(item.text(dialect) for item in self.items)
        keep = "" if self.keep is None else self.keep.written(dialect)
        if self.success is not None:
            keep = self.success.written("roll20")
            if self.failure is not None:
                keep += "f" + self.failure.written("roll20").removeprefix("=")
        if dialect == "avrae":
            return f"({inner}{',' if len(self.items) == 1 else ''}){keep}" + _label(self.label)
        return f"{{{inner}}}{keep}" + _label(self.label)

    def score(self, total: int | Fraction) -> int:
        assert self.success is not None
        if self.success(total):  # type: ignore[arg-type]
            return 1
        return -1 if self.failure is not None and self.failure(total) else 0  # type: ignore[arg-type]

    def kept(self, totals: Sequence[int | Fraction]) -> list[bool]:
        ranked = sorted(range(len(totals)), key=lambda i: (-totals[i], i))
        first, last = ranks(len(totals), () if self.keep is None else (self.keep,))
        keep = set(ranked[first:last])
        return [i in keep for i in range(len(totals))]


def ranks(count: int, keeps: tuple[Keep, ...]) -> tuple[int, int]:
    """The ranks kept of ``count``, counted from the highest (0) down: [first, last)."""
    first, last = 0, count
    for k in keeps:
        n = min(k.n, last - first)
        if k.how == "kh":
            last = first + n
        elif k.how == "kl":
            first = last - n
        elif k.how == "dh":
            first += n
        else:
            last -= n
    return first, last


#: The functions a notation may call (Foundry's and Roll20's; avrae has none).
FUNCTIONS = ("floor", "ceil", "round", "abs")


@dataclass(frozen=True, slots=True)
class Call:
    """``floor(x)``, ``ceil(x)``, ``round(x)``, ``abs(x)``. A division directly inside (``ceil(1d6/2)``)
    is rounded by the function from its exact quotient (``round``: halves up, as JavaScript's
    ``Math.round``); anywhere else ``/`` floors."""

    name: Literal["floor", "ceil", "round", "abs"]
    arg: Node
    column: int
    label: str | None = None

    def text(self, dialect: Dialect = "foundry") -> str:
        return f"{self.name}({self.arg.text(dialect)})" + _label(self.label)

    def apply(self, value: int, divisor: int = 1) -> int:
        if self.name == "abs":
            return abs(value // divisor)
        if self.name == "floor":
            return value // divisor
        if self.name == "ceil":
            return -(-value // divisor)
        return (2 * value + divisor) // (2 * divisor)

    @property
    def quotient(self) -> Binary | None:
        """The division the function rounds exactly, if its argument is one."""
        inner = self.arg
        while isinstance(inner, Group) and inner.label is None:
            inner = inner.inner
        if isinstance(inner, Binary) and inner.op == "/" and self.name != "abs":
            return inner
        return None


Node = Dice | Number | Group | Negate | Binary | Call | Pool


def _label_of(node: Node) -> str | None:
    return getattr(node, "label", None)


def _relabelled(node: Node, label: str | None) -> Node:
    if isinstance(node, Dice | Number):
        return _labelled(node, label)
    if isinstance(node, Group):
        return Group(node.inner, label)
    if isinstance(node, Call):
        return Call(node.name, node.arg, node.column, label)
    if isinstance(node, Pool):
        return replace(node, label=label)
    return Group(node, label)


@dataclass(frozen=True, slots=True)
class Notation:
    """A parsed notation: its tree, its dice terms left to right, its normalised text."""

    tree: Node
    terms: tuple[Dice, ...]
    formula: str = field(default="")
    dialect: Dialect = "foundry"
    #: what follows the notation: avrae's comment (``1d20+5 to hit``), Foundry's ``# flavor``
    comment: str | None = None
    #: what was pasted around it (rules/notation/pasted.py): the chat command as written, the
    #: roll mode it asks, avrae's repeats and DC (``!rr 6``, ``!rrr 10 ... 15``), its adv/dis word
    command: str | None = None
    mode: Mode | None = None
    repeat: int | None = None
    dc: int | None = None
    advantage: Advantage | None = None

    #: each dice term written in the dialect, and the tree's pools (pools_of), made once
    texts: tuple[str, ...] = ()
    pools: tuple[Pool, ...] = ()

    @property
    def draws(self) -> int:
        return sum(t.draws for t in self.terms)


#: The shorthands every deployment knows (docs/notation.md); ``DRAGONROLL_DICE_SHORTHANDS`` adds more.
SHORTHANDS: Mapping[str, str] = {
    "adv": "2d20kh1",
    "dis": "2d20kl1",
    "stat": "4d6dl1",
    "fate": "4dF",
    "pct": "1d100",
}


def parse(
    text: str,
    shorthands: Mapping[str, str] = SHORTHANDS,
    dialect: Dialect = "foundry",
    *,
    plain: bool = False,
) -> Notation:
    """Parse ``text`` as ``dialect`` reads it (a shorthand's notation is read as Foundry reads
    it); raises :class:`NotationError` (a ``ValueError``) naming the column. ``plain`` reads the
    plain subset only (docs/notation.md): no shorthand, modifier, product, group, pool,
    call, label or comment, and one sign at most, before the first term."""
    if len(text) > MAX_LENGTH:
        raise NotationError(MAX_LENGTH + 1, f"a notation has at most {MAX_LENGTH} characters")
    parser = _Parser(text, {} if plain else shorthands, dialect=dialect, plain=plain)
    tree = parser.expression()
    terms = tuple(parser.terms)
    _check_ranges(tree)
    texts = tuple(t.text(dialect) for t in terms)
    return Notation(
        tree, terms, tree.text(dialect), dialect, parser.comment, texts=texts, pools=pools_of(tree)
    )


def check_shorthands(table: Mapping[str, str]) -> None:
    for name, notation in table.items():
        if not _is_name(name) or _opens_dice(name, 0):
            raise ValueError(
                f"shorthand {name!r}: a name is a letter, then letters, digits or '_', and does "
                "not read as dice (d6, d%, dF)"
            )
        try:
            parse(notation, {})
        except NotationError as exc:
            raise ValueError(f"shorthand {name!r} = {notation!r}: {exc}") from None


def _is_name(name: str) -> bool:
    return (
        0 < len(name) <= 16
        and name[0] in _LETTERS
        and all(c in _LETTERS or c in _DIGITS or c == "_" for c in name)
    )


def _opens_dice(text: str, i: int) -> bool:
    """Whether a dice term starts at ``text[i]`` (``d`` then a number, ``%`` or ``F``)."""
    return (
        text[i : i + 1] in ("d", "D")
        and i + 1 < len(text)
        and (text[i + 1] in _DIGITS or text[i + 1] in "%Ff")
        and not (text[i + 1] in "Ff" and i + 2 < len(text) and text[i + 2] in _LETTERS)
    )


class _Parser:
    def __init__(
        self,
        text: str,
        shorthands: Mapping[str, str],
        first: int = 0,
        dialect: Dialect = "foundry",
        plain: bool = False,
    ) -> None:
        self.text = text
        self.dialect = dialect
        self.plain = plain
        self.comment: str | None = None
        self.i = 0
        self.shorthands = shorthands
        self.terms: list[Dice] = []
        self.first = first  # the index of this text's first dice term (a shorthand's: later)
        self.depth = 0  # parentheses and signs open around the parser's position

    # ------------------------------------------------------------ helpers

    def fail(self, message: str, at: int | None = None) -> NotationError:
        return NotationError((self.i if at is None else at) + 1, message)

    def found(self) -> str:
        return repr(self.text[self.i]) if self.i < len(self.text) else "the end"

    def spaces(self) -> None:
        while self.i < len(self.text) and self.text[self.i] == " ":
            self.i += 1

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def number(self, what: str, low: int = 0, high: int = MAX_NUMBER) -> int:
        start = self.i
        while self.i < len(self.text) and self.text[self.i] in _DIGITS:
            self.i += 1
        digits = self.text[start : self.i]
        if not digits:
            raise self.fail(f"expected {what} (a number), found {self.found()}")
        if len(digits.lstrip("0")) > 7 or not low <= int(digits) <= high:
            raise self.fail(f"{what} is {low} to {high:,}, not {digits[:12]}", start)
        return int(digits)

    # ------------------------------------------------------------ arithmetic

    def expression(self) -> Node:
        self.spaces()
        if not self.peek():
            what = " or a number" if self.plain else ", a number or '('"
            raise self.fail(f"expected a dice term (such as 2d6){what}")
        node = self.sum()
        if self.i < len(self.text):
            rest = self.text[self.i :]
            if self.plain:
                raise self.fail(f"expected '+', '-' or the end, found {self.found()}")
            if self.dialect != "foundry" and self.text[self.i - 1] == " ":
                # d20's comment: what cannot be read, after a space; Roll20's text after a roll
                # (its Dice Reference: "/roll 1d20+5 Roll for Initiative")
                self.comment = rest.strip()
                self.i = len(self.text)
            elif self.dialect == "foundry" and rest.startswith("#"):
                self.comment = rest[1:].strip() or None  # the chat's "# flavor"
                self.i = len(self.text)
            else:
                raise self.fail(f"expected '+', '-', '*', '/' or the end, found {self.found()}")
        return node

    def sum(self) -> Node:
        node = self.product()
        while self.peek() in ("+", "-") and self.peek():
            at = self.i
            op = self.text[at]
            self.i += 1
            self.spaces()
            right = self.plain_term() if self.plain else self.product()
            node = Binary("+" if op == "+" else "-", node, right, at + 1)
        return node

    def plain_term(self) -> Node:
        ch = self.peek()
        if not ((ch in _DIGITS and ch) or _opens_dice(self.text, self.i)):
            if ch in ("d", "D") and ch:  # "d" then no number of sides: the dice term's error
                return self.dice(self.i, 1)
            raise self.fail(f"expected a dice term (such as 2d6) or a number, found {self.found()}")
        node = self.atom()
        self.spaces()
        return node

    def product(self) -> Node:
        node = self.unary()
        if self.plain:
            return node
        while self.peek() in ("*", "/") and self.peek():
            at = self.i
            op = self.text[at]
            self.i += 1
            self.spaces()
            node = Binary("*" if op == "*" else "/", node, self.unary(), at + 1)
        return node

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.fail(f"parentheses and signs nest at most {MAX_NESTING} deep")

    def unary(self) -> Node:
        if self.peek() in ("-", "+") and self.peek():
            negate = self.peek() == "-"
            self.nest()
            self.i += 1
            self.spaces()
            node = self.plain_term() if self.plain else self.unary()
            self.depth -= 1
            return Negate(node) if negate else node
        if self.plain:
            return self.plain_term()
        node = self.atom()
        self.spaces()
        if self.peek() == "[" and _label_of(node) is None:  # "1d20+5 [attack]"
            node = _relabelled(node, self.label())
            self.spaces()
        return node

    def atom(self) -> Node:
        ch = self.peek()
        if ch == "(" or (ch == "{" and self.dialect != "avrae"):
            start = self.i
            close = ")" if ch == "(" else "}"
            self.nest()
            self.i += 1
            self.spaces()
            items = [self.sum()]
            pooled = ch == "{"
            while self.peek() == "," and (pooled or self.dialect == "avrae"):
                pooled = True  # avrae's set: (1d20, 1d20)
                self.i += 1
                self.spaces()
                if self.peek() == close:  # d20's trailing comma: (1d20,)
                    break
                items.append(self.sum())
            if self.peek() != close:
                what = "',' or " if pooled else ""
                raise self.fail(f"expected {what}'{close}' or an operator, found {self.found()}")
            self.i += 1
            self.depth -= 1
            if not pooled and self.dialect != "avrae" and _opens_dice(self.text, self.i):
                return self.nested(items[0], start)
            if not pooled:
                return Group(items[0], self.label())
            if len(items) > MAX_POOL:
                raise self.fail(f"a pool holds at most {MAX_POOL} expressions", start)
            return self.pool(tuple(items), start)
        if ch in _DIGITS and ch:
            start = self.i
            n = self.number("a number")
            if self.peek() in ("d", "D") and self.peek():
                return self.dice(start, n)
            return Number(n, self.label())
        if _opens_dice(self.text, self.i) or self.fate_without_count():
            return self.dice(self.i, 1)
        if ch in _LETTERS and ch:
            return self.shorthand()
        raise self.fail(
            f"expected a dice term (such as 2d6), a number, '(' or a shorthand, found {self.found()}"
        )

    def fate_without_count(self) -> bool:
        """``dF`` then a modifier (``dFcs>0``, ``dFr``): a Fate die, unless the name there is a
        shorthand of the table (a name may start with ``dF``: ``dFlag``)."""
        if self.text[self.i : self.i + 2].lower() != "df":
            return False
        end = self.i
        while end < len(self.text) and (
            self.text[end] in _LETTERS or self.text[end] in _DIGITS or self.text[end] == "_"
        ):
            end += 1
        return self.text[self.i : end] not in self.shorthands

    def shorthand(self) -> Node:
        start = self.i
        while self.peek() and (
            self.peek() in _LETTERS or self.peek() in _DIGITS or self.peek() == "_"
        ):
            self.i += 1
        name = self.text[start : self.i]
        if name in FUNCTIONS and self.peek() == "(" and self.dialect != "avrae":
            self.nest()
            self.i += 1
            self.spaces()
            inner = self.sum()
            if self.peek() != ")":
                raise self.fail(f"expected ')' closing {name}(, found {self.found()}")
            self.i += 1
            self.depth -= 1
            return Call(name, inner, start + 1, self.label())  # type: ignore[arg-type]
        expansion = self.shorthands.get(name)
        if expansion is None:
            known = ", ".join(sorted(self.shorthands)) or "none"
            raise self.fail(
                f"{name!r} is no shorthand (they are: {known}); expected a dice term such as 2d6",
                start,
            )
        sub = _Parser(expansion, {}, self.first + len(self.terms))  # read as Foundry reads it
        try:
            tree = sub.expression()
        except NotationError as exc:  # pragma: no cover - tables are checked when loaded
            raise self.fail(f"shorthand {name!r} = {expansion!r}: {exc}", start) from None
        shifted = [_at(t, start + 1) for t in sub.terms]
        self.add_terms(shifted, start)
        tree = _replace_terms(tree, {t.index: s for t, s in zip(sub.terms, shifted, strict=True)})
        label = self.label()
        if isinstance(tree, Dice | Number) and tree.label is None:
            return _labelled(tree, label)
        return Group(tree, label)

    def add_terms(self, terms: list[Dice], at: int) -> None:
        if len(self.terms) + len(terms) + self.first > MAX_DICE_TERMS:
            raise self.fail(f"a notation has at most {MAX_DICE_TERMS} dice terms", at)
        self.terms += terms

    def label(self) -> str | None:
        if self.peek() != "[" or self.plain:
            return None
        start = self.i
        self.i += 1
        while self.peek() and self.peek() not in "[]":
            self.i += 1
        text = self.text[start + 1 : self.i].strip()
        if self.peek() != "]":
            raise self.fail(f"expected ']' closing the label, found {self.found()}")
        if not text or len(text) > MAX_LABEL:
            raise self.fail(f"a label has 1 to {MAX_LABEL} characters", start)
        self.i += 1
        return text

    # ------------------------------------------------------------ a dice term

    def dice(self, start: int, count: int) -> Dice:
        if not 1 <= count <= MAX_COUNT:
            raise self.fail(f"a dice term rolls 1 to {MAX_COUNT} dice, not {count}", start)
        if self.dialect == "avrae" and self.peek() == "D":
            raise self.fail("avrae reads a lower-case 'd' only (1d20, not 1D20)")
        self.i += 1  # the "d"
        kind: Literal["plain", "percent", "fate", "tens"] = "plain"
        if self.plain and not (self.peek() in _DIGITS and self.peek()):
            raise self.fail(f"expected the number of sides after 'd', found {self.found()}")
        if self.peek() == "%" and self.dialect == "avrae":
            self.i += 1
            sides, kind = 10, "tens"  # d20's d%: 0, 10 ... 90
        elif self.peek() == "%":
            self.i += 1
            sides, kind = 100, "percent"
        elif self.peek() in ("F", "f") and self.peek():
            if self.dialect == "avrae":
                raise self.fail("avrae has no Fate dice (dF): read it as foundry or roll20")
            self.i += 1
            sides, kind = 3, "fate"
        else:
            if not (self.peek() in _DIGITS and self.peek()):
                raise self.fail(
                    f"expected the number of sides, '%' or 'F' after 'd', found {self.found()}"
                )
            sides = self.number("a die's sides", MIN_SIDES, MAX_SIDES)
        index = self.first + len(self.terms)
        term = Dice(index, start + 1, count, sides, kind)
        self.add_terms([term], start)
        if self.plain:
            return term
        term = self.modifiers(term)
        self.terms[-1] = term
        return term

    def nested(self, count: Node, start: int) -> Dice:
        """Nested dice, ``(2d6)d6``: the parenthesised expression's total is how many dice the
        term rolls (Foundry VTT's "Dice" article; Roll20's computed dice), 0 to
        :data:`MAX_COUNT`; plain dice (their modifiers are not read here)."""
        lo, hi = _check_ranges(count)
        if lo < 0 or hi > MAX_COUNT:
            raise self.fail(
                f"nested dice roll 0 to {MAX_COUNT} dice; this count ranges {lo} to {hi}", start
            )
        at = self.i
        term = self.dice(start, max(hi, 1))
        if term.modifiers(self.dialect):
            raise self.fail(
                "modifiers on nested dice are not read here: roll (2d6)d6 plain, or give the "
                "count as a number",
                at,
            )
        nested = replace(term, count_from=count)
        self.terms[-1] = nested
        return nested

    def pool(self, items: tuple[Node, ...], start: int) -> Pool:
        """A pool's modifiers after its closing brace: a keep or drop; in Roll20, a count of
        successes (``>10``, then ``f<3``) instead. Roll20 reads a group of one expression with a
        modifier die by die (``{4d6+3d8}k4`` keeps 4 of its 7 dice): not read here."""
        at = self.i
        if (
            self.dialect == "roll20"
            and len(items) == 1
            and self.peek()
            and self.peek() in "<>=kKdD"
        ):
            raise self.fail(
                "Roll20 reads a group of one expression with a modifier die by die ({4d6+3d8}k4 "
                "keeps 4 of its 7 dice, {3d20+5}>21 adds 5 to each die): not read here; give the "
                "group two or more expressions, or put the modifier on the dice term"
            )
        keep = self.pool_keep(len(items))
        success = failure = None
        if keep is None and self.dialect == "roll20" and self.peek() in ("<", ">", "="):
            if not self.peek():  # pragma: no cover - peek is "" only at the end
                raise self.fail("expected a comparison")
            success = self.compare((0,), "a group's successes", at, most=MAX_TOTAL)
            if self.word(("f",)) is not None:
                self.i += 1
                failure = self.compare((0,), "f", at, most=MAX_TOTAL)
        pool = Pool(items, keep, start + 1, None, success, failure)
        return replace(pool, label=self.label())

    def pool_keep(self, size: int) -> Keep | None:
        """A pool's keep or drop (one): ``kh``, ``kl``, ``dh``, ``dl``, ``k``, ``d`` (avrae:
        ``kh``, ``kl``, ``ph``, ``pl``), the count 1 by default."""
        at = self.i
        w = self.word(
            ("kh", "kl", "dh", "dl", "k", "d")
            if self.dialect != "avrae"
            else ("kh", "kl", "ph", "pl")
        )
        if w is None:
            if self.peek() and self.peek() in _LETTERS:
                raise self.fail(
                    f"a pool keeps or drops: expected kh, kl, dh or dl, found {self.found()}"
                )
            return None
        self.i += len(w)
        n = self.number(f"how many {w} takes", 1, MAX_POOL) if self.digit() else 1
        if n > size:
            raise self.fail(f"{w}{n}: the pool holds only {size}", at)
        how = {"k": "kh", "d": "dl", "ph": "dh", "pl": "dl"}.get(w, w)
        return Keep(how, n)  # type: ignore[arg-type]

    def word(self, words: tuple[str, ...]) -> str | None:
        """The first of ``words`` (longest first) at the position, as the dialect reads case:
        Roll20 any case, Foundry and avrae lower case only."""
        rest = self.text[self.i : self.i + 3]
        if self.dialect == "roll20":
            rest = rest.lower()
        for w in words:
            if rest.startswith(w):
                return w
        return None

    def modifiers(self, term: Dice) -> Dice:
        changes: dict[str, object] = {}
        keeps: list[Keep] = []
        sets: list[SetOp] = []
        dialect = self.dialect
        words = _WORDS[dialect]
        while True:
            at = self.i
            w = self.word(words)
            if w is None:
                if dialect == "roll20" and self.peek() in ("<", ">", "=") and self.peek():
                    w = "success"  # Roll20's bare comparison: count successes
                else:
                    break
            else:
                self.i += len(w)
            self.modifier(w, at, term, changes=changes, keeps=keeps, sets=sets)
        low, high = changes.get("minimum"), changes.get("maximum")
        if isinstance(low, int) and isinstance(high, int) and low > high:
            raise self.fail("min is above max")
        if self.peek() and self.peek() in _LETTERS:
            raise self.fail(
                f"unknown modifier at {self.found()}: {dialect} reads {_KNOWN[dialect]}"
            )
        if changes.get("matching") is not None:
            others = [k for k in ("reroll", "explode", "success", "failure") if k in changes]
            if others or keeps:
                what = ", ".join([*others, *(["keep/drop"] if keeps else [])])
                raise self.fail(
                    f"Roll20's matches (m, mt) together with {what} are not read here: roll "
                    "the matches on plain dice (4d6m, 5d10mt, 4d6mt3>2)"
                )
        label = self.label()
        if all(len(op.picks) == 1 and isinstance(op.picks[0], Keep) for op in sets):
            # each a ranked keep or drop alone (kh3, pl1): the keeps every dialect has
            keeps += [_as_keep(op) for op in sets]
            sets = []
        fields = {**_fields(term), **changes, "keeps": tuple(keeps), "sets": tuple(sets)}
        return Dice(**{**fields, "label": label})  # type: ignore[arg-type]

    def modifier(
        self,
        w: str,
        at: int,
        term: Dice,
        *,
        changes: dict[str, object],
        keeps: list[Keep],
        sets: list[SetOp],
    ) -> None:
        """One modifier ``w`` (read at ``at``) of ``term``: a clamp, a selector or a keep/drop
        here; a count (:meth:`counter`) or a reroll or explosion (:meth:`chain`) there."""
        faces = term.faces
        dialect = self.dialect
        if w in ("min", "max", "mi", "ma"):
            key = "minimum" if w.startswith("mi") else "maximum"
            self.once(changes, key, at, w)
            # avrae's mi/ma take any value (10d6mi10 is 100); Foundry's min/max a face
            least, most = (0, MAX_SIDES) if dialect == "avrae" else (faces[0], faces[-1])
            changes[key] = self.number(f"the {w} of a die", least, most)
        elif dialect == "avrae" and w in ("k", "p", "kh", "kl", "ph", "pl"):
            pick: Keep | Compare
            if w in ("k", "p"):  # a value selector: k3, p<3
                pick = self.selector(faces, w)
            else:
                n = self.number(f"how many dice {w} takes", 1, MAX_COUNT) if self.digit() else 1
                if n > term.count:
                    raise self.fail(f"{w}{n}: the term rolls only {term.count} dice", at)
                pick = Keep("kh" if w[1] == "h" else "kl", n)
            keep = w[0] == "k"
            if sets and sets[-1].keep == keep:
                # d20's one operator (the other modifiers between apply first here)
                sets[-1] = SetOp(keep, (*sets[-1].picks, pick))
            else:
                sets.append(SetOp(keep, (pick,)))
        elif w in ("kh", "kl", "dh", "dl", "k", "d", "ph", "pl"):
            how = {"k": "kh", "d": "dl", "ph": "dh", "pl": "dl"}.get(w, w)
            n = self.number(f"how many dice {w} takes", 1, MAX_COUNT) if self.digit() else 1
            if n > term.count:
                raise self.fail(f"{w}{n}: the term rolls only {term.count} dice", at)
            keeps.append(Keep(how, n))  # type: ignore[arg-type]
        elif w in ("cs", "cf", "df", "f", "success"):
            self.counter(w, at, faces, changes)
        elif w in ("s", "sa", "sd"):  # Roll20's sort
            self.once(changes, "sort", at, "a sort")
            changes["sort"] = "d" if w == "sd" else "a"
        elif w in ("m", "mt"):  # Roll20's matches
            self.once(changes, "matching", at, "matches")
            least = self.number("how many dice a match takes", 2, MAX_COUNT) if self.digit() else 2
            changes["matching"], changes["match_count"] = least, w == "mt"
            if self.peek() in ("<", ">", "=") and self.peek():
                changes["match_target"] = self.compare(faces, w, at)
        else:
            self.chain(w, at, faces, changes)

    def counter(self, w: str, at: int, faces: tuple[int, ...], changes: dict[str, object]) -> None:
        """A count of successes or failures (Foundry's, Roll20's critical marks, a bare comparison)."""
        dialect = self.dialect
        if w == "cs" and dialect == "roll20":
            self.once(changes, "critical", at, "cs")
            changes["critical"] = self.compare(faces, "cs", at, Compare("=", faces[-1]))
        elif w == "cf" and dialect == "roll20":
            self.once(changes, "fumble", at, "cf")
            changes["fumble"] = self.compare(faces, "cf", at, Compare("=", faces[0]))
        elif w in ("cs", "success"):
            if changes.get("failures_only"):
                raise self.fail(
                    "Foundry's cs after cf counts the successes alone (it discards cf's "
                    "count): write cs first, then df to deduct failures",
                    at,
                )
            self.once(changes, "success", at, "a count of successes")
            default = Compare("=", faces[-1]) if w == "cs" else None
            changes["success"] = self.compare(faces, w, at, default)
        elif w in ("cf", "df", "f"):
            if w == "cf" and "success" in changes:
                raise self.fail(
                    "Foundry's cf counts the failures alone (it discards cs's count): write df "
                    "to deduct failures from the successes",
                    at,
                )
            if w in ("df", "f") and "success" not in changes:
                what = "cs" if w == "df" else "a comparison (>7)"
                raise self.fail(f"{w} deducts failures from the successes: write {what} first", at)
            self.once(changes, "failure", at, "a count of failures")
            changes["failure"] = self.compare(faces, w, at)
            changes["failures_only"] = w == "cf"

    def chain(self, w: str, at: int, faces: tuple[int, ...], changes: dict[str, object]) -> None:
        """A reroll (once, or until the face stands) or an explosion (added, compounding)."""
        dialect = self.dialect
        if w in ("r", "rr", "ro"):
            self.once(changes, "reroll", at, "a reroll")
            once = w == "ro" or (w == "r" and dialect == "foundry")
            if dialect == "avrae":
                when = self.selector(faces, w)
            else:
                when = self.compare(faces, w, at, default=Compare("=", faces[0]))
            if all(when(v) for v in faces):
                raise self.fail(f"{w}{when}: every face of the die would be rerolled", at)
            changes["reroll"], changes["reroll_once"] = when, once
        elif w in ("!", "x", "xo", "!o", "!!", "!p", "e"):
            if "explode" in changes:
                raise self.fail("a dice term explodes once: one of !, !!, x, xo", at)
            if w == "e":
                when = self.selector(faces, w)
            else:
                when = self.compare(faces, w, at, default=Compare("=", faces[-1]))
            if all(when(v) for v in faces):
                raise self.fail(f"{w}{when}: every face of the die would explode", at)
            changes["explode"], changes["explode_once"] = when, w in ("xo", "!o")
            changes["compound"] = w == "!!"
            changes["penetrate"] = w == "!p"

    def digit(self) -> bool:
        return bool(self.peek()) and self.peek() in _DIGITS

    def once(self, changes: dict[str, object], key: str, at: int, what: str) -> None:
        if key in changes:
            raise self.fail(f"a dice term takes {what} once", at)

    def selector(self, faces: tuple[int, ...], what: str) -> Compare:
        """avrae's selector: a literal (``3``), ``<3`` or ``>3`` (strict)."""
        op = ""
        if self.peek() in ("<", ">") and self.peek():
            op = self.peek()
            self.i += 1
        if not self.digit():
            raise self.fail(f"expected a selector after {what} (3, <3 or >3), found {self.found()}")
        target = self.number(f"the value {what} selects", 0, MAX_SIDES)
        return Compare(op or "=", target)  # type: ignore[arg-type]

    def compare(
        self,
        faces: tuple[int, ...],
        what: str,
        at: int,
        default: Compare | None = None,
        most: int = MAX_SIDES,
    ) -> Compare:
        """A comparison: Foundry's (``>`` strict, ``=`` or none: equal); Roll20's ``>`` and ``<``
        hold their target (``>7`` is at least 7), as do its ``>=`` and ``<=``."""
        op = ""
        for candidate in (">=", "<=", ">", "<", "="):
            if self.text.startswith(candidate, self.i):
                op = candidate
                self.i += len(candidate)
                break
        negative = (  # a Fate die's -1, after an operator only ("4dFr-1" is 4dFr less 1)
            bool(op)
            and faces[0] < 0
            and self.text[self.i : self.i + 1] == "-"
            and self.text[self.i + 1 : self.i + 2] in tuple(_DIGITS)
        )
        if negative:
            self.i += 1
        if not op and not self.digit():
            if default is not None:
                return default
            raise self.fail(
                f"expected a comparison after {what} (such as >=7), found {self.found()}"
            )
        target = self.number(f"the value {what} compares with", 0, min(most, MAX_NUMBER))
        target = -target if negative else target
        if self.dialect == "roll20":
            op = {">": ">=", "<": "<="}.get(op, op)
        return Compare(op or "=", target)  # type: ignore[arg-type]


#: Each dialect's modifiers, longest first (docs/notation.md, "Dialects"). avrae's ``k`` and ``p``
#: without ``h`` or ``l`` take a value selector (``k3`` keeps the 3s).
_WORDS: dict[Dialect, tuple[str, ...]] = {
    "foundry": (
        "min",
        "max",
        "kh",
        "kl",
        "dh",
        "dl",
        "cs",
        "cf",
        "df",
        "rr",
        "ro",
        "xo",
        "!o",
        "k",
        "d",
        "r",
        "x",
        "!",
    ),
    "roll20": (
        "kh",
        "kl",
        "dh",
        "dl",
        "cs",
        "cf",
        "ro",
        "rr",
        "!!",
        "!p",
        "sa",
        "sd",
        "mt",
        "k",
        "d",
        "r",
        "!",
        "f",
        "s",
        "m",
    ),
    "avrae": ("kh", "kl", "ph", "pl", "rr", "ro", "mi", "ma", "k", "p", "e"),
}
_KNOWN: dict[Dialect, str] = {
    "foundry": "kh, kl, dh, dl, k, d, x, xo, r, rr, min, max, cs, cf, df (lower case)",
    "roll20": "kh, kl, dh, dl, k, d, !, !!, !p, r, ro, a comparison (>7), f, cs, cf, m, mt, s, sa, sd",
    "avrae": "k, p (with h, l, <, > or a value), rr, ro, e, mi, ma (lower case)",
}


def _as_keep(op: SetOp) -> Keep:
    """avrae's operator of one ranked selector as the keep every dialect has."""
    pick = op.picks[0]
    assert isinstance(pick, Keep)
    if op.keep:
        return pick
    return Keep("dh" if pick.how == "kh" else "dl", pick.n)


def _fields(term: Dice) -> dict[str, object]:
    return {name: getattr(term, name) for name in Dice.__dataclass_fields__}


def _at(term: Dice, column: int) -> Dice:
    return Dice(**{**_fields(term), "column": column})  # type: ignore[arg-type]


def _labelled(node: Dice | Number, label: str | None) -> Node:
    if isinstance(node, Number):
        return Number(node.value, label)
    return Dice(**{**_fields(node), "label": label})  # type: ignore[arg-type]


def _replace_terms(node: Node, terms: Mapping[int, Dice]) -> Node:
    if isinstance(node, Dice):
        return terms[node.index]
    if isinstance(node, Group):
        return Group(_replace_terms(node.inner, terms), node.label)
    if isinstance(node, Negate):
        return Negate(_replace_terms(node.operand, terms))
    if isinstance(node, Binary):
        return Binary(
            node.op,
            _replace_terms(node.left, terms),
            _replace_terms(node.right, terms),
            node.column,
        )
    if isinstance(node, Call):
        return Call(node.name, _replace_terms(node.arg, terms), node.column, node.label)
    if isinstance(node, Pool):
        return replace(node, items=tuple(_replace_terms(item, terms) for item in node.items))
    return node


def pools_of(node: Node) -> tuple[Pool, ...]:
    """The pools of a tree, left to right (outer before inner)."""
    if isinstance(node, Pool):
        return (node, *(p for item in node.items for p in pools_of(item)))
    if isinstance(node, Group):
        return pools_of(node.inner)
    if isinstance(node, Negate):
        return pools_of(node.operand)
    if isinstance(node, Call):
        return pools_of(node.arg)
    if isinstance(node, Binary):
        return pools_of(node.left) + pools_of(node.right)
    return ()


# ---------------------------------------------------------------- ranges (a divisor never 0)


def term_range(term: Dice) -> tuple[int, int]:
    """The least and the most a dice term can total (a bound, not always reached)."""
    if term.matching is not None and term.match_count:  # Roll20's mt: a count of values
        return 0, min(len(term.faces), term.count // term.matching)
    if term.count_from is not None:  # nested dice: from its least count of dice to its most
        least, _ = node_range(term.count_from)
        per = [term.score(v) for v in term.faces]
        corners = [c * v for c in (least, term.count) for v in (min(per), max(per))]
        return min(corners), max(corners)
    values = [term.score(term.clamp(v)) for v in term.showing]
    if term.penetrate:  # an explosion's die shows its face less 1
        values += [term.score(term.clamp(v - 1)) for v in term.faces]
    if term.sets:  # a die avrae's operators drop adds 0
        values.append(0)
    lo, hi = min(values), max(values)
    counted = _kept(term.count, term.keeps)
    most = _kept(term.count * (1 + term.explosions), term.keeps) if term.explosions else counted
    corners = [counted * lo, counted * hi, most * lo, most * hi]
    return min(corners), max(corners)


def _kept(n: int, keeps: tuple[Keep, ...]) -> int:
    for k in keeps:
        n = min(n, k.n) if k.how in ("kh", "kl") else max(0, n - k.n)
    return n


def node_range(node: Node) -> tuple[int, int]:
    if isinstance(node, Dice):
        return term_range(node)
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, Group):
        return node_range(node.inner)
    if isinstance(node, Negate):
        lo, hi = node_range(node.operand)
        return -hi, -lo
    if isinstance(node, Call):
        return _call_range(node, node_range)
    if isinstance(node, Pool):
        return _pool_range(node, [node_range(item) for item in node.items])
    (a, b), (c, d) = node_range(node.left), node_range(node.right)
    if node.op == "+":
        return a + c, b + d
    if node.op == "-":
        return a - d, b - c
    f: Callable[[int, int], int] = int.__mul__ if node.op == "*" else int.__floordiv__
    corners = [f(a, c), f(a, d), f(b, c), f(b, d)]
    return min(corners), max(corners)


def _check_ranges(node: Node) -> tuple[int, int]:
    """The range of ``node``, every part of it checked: a divisor whose range holds 0 and a total
    (or any part of one) that can pass :data:`MAX_TOTAL` either way are refused here, at parse
    time, before anything is rolled or computed."""
    if isinstance(node, Dice):
        lo, hi = term_range(node)
        column = node.column
    elif isinstance(node, Number):
        return node.value, node.value
    elif isinstance(node, Group):
        return _check_ranges(node.inner)
    elif isinstance(node, Negate):
        lo, hi = _check_ranges(node.operand)
        return -hi, -lo
    elif isinstance(node, Call):
        _check_ranges(node.arg)
        lo, hi = _call_range(node, node_range)
        column = node.column
    elif isinstance(node, Pool):
        lo, hi = _pool_range(node, [_check_ranges(item) for item in node.items])
        column = node.column
    else:
        (a, b), (c, d) = _check_ranges(node.left), _check_ranges(node.right)
        column = node.column
        if node.op == "+":
            lo, hi = a + c, b + d
        elif node.op == "-":
            lo, hi = a - d, b - c
        else:
            if node.op == "/" and c <= 0 <= d:
                raise NotationError(
                    column, f"the divisor after '/' can be 0 (it ranges {c} to {d})"
                )
            f: Callable[[int, int], int] = int.__mul__ if node.op == "*" else int.__floordiv__
            corners = [f(a, c), f(a, d), f(b, c), f(b, d)]
            lo, hi = min(corners), max(corners)
    if max(-lo, hi) > MAX_TOTAL:
        raise NotationError(
            column,
            f"the total can reach {lo if -lo > hi else hi:,}, past +-(2^53 - 1) "
            f"({MAX_TOTAL:,}), the largest integer a JSON reader keeps exactly",
        )
    return lo, hi


def _call_range(node: Call, of: Callable[[Node], tuple[int, int]]) -> tuple[int, int]:
    """A function's range: of its exact quotient's corners (the functions are monotone), or of
    its argument's."""
    division = node.quotient
    if division is not None:
        (a, b), (c, d) = of(division.left), of(division.right)
        corners = [node.apply(x, y) for x in (a, b) for y in (c, d)]
        return min(corners), max(corners)
    lo, hi = of(node.arg)
    if node.name == "abs":
        return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
    return lo, hi


def _pool_range(node: Pool, items: list[tuple[int, int]]) -> tuple[int, int]:
    """A bound of a pool's total: the kept count of the lowest lows, of the highest highs (a
    count of successes: each expression -1, 0 or +1)."""
    if node.success is not None:
        return (-len(items) if node.failure is not None else 0), len(items)
    first, last = ranks(len(items), () if node.keep is None else (node.keep,))
    n = last - first
    lows = sorted(lo for lo, _ in items)
    highs = sorted((hi for _, hi in items), reverse=True)
    return (sum(lows[:n]), sum(highs[:n])) if n else (0, 0)
