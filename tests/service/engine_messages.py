"""The engine's messages as its source writes them: every text a refusal of ``rules/`` can carry,
found by reading the source (``ast``), each as a *format*: its literal words, and ``{}`` where a
value goes (``"combatant '{}': hp ({}) is more than max_hp ({})"``).

A message is found where it is given to what refuses a request (a *sink*: an engine error, a
``FieldError``, a model's ``ValueError``, the parser's ``fail``, a pydantic custom error ...). Its
expression is read as the source builds it: a name assigned in the same function and a function of
the same module that returns text are read in place (each branch of an ``if`` a format of its own);
a parameter, an attribute or a call to another module is a value (``{}``). A parameter that a sink
shows (``what`` in ``f"{what} needs a `target`"``) makes each argument its callers give it a
*piece* (``"combatant '{}': declare[{}] ({})"``), and so does a call to another module's function
that returns text (``dice_maiden``): pieces are found formats too. ``tests/service/
test_problem_texts.py`` checks that each is a template of ``service.problem_texts``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"

#: A call that refuses a request, by the name it is called by, and the position of its message.
SINKS: dict[str, int] = {
    "RulesError": 0,
    "InvalidRequest": 0,
    "LimitExceeded": 0,
    "IllegalDecision": 0,
    "DiceScriptError": 0,
    "at": 1,  # InvalidRequest.at(loc, msg)
    "FieldError": 1,
    "ValueError": 0,
    "NotationError": 1,
    "PastedError": 1,
    "DataError": 1,
    "FormulaError": 1,
    "fail": 0,  # the notation parser's self.fail(msg, at)
    "illegal": 1,  # the riders' illegal(part, msg)
    "_too_large": 0,  # the notation odds' refusal
    "PydanticCustomError": 1,
    "one_error": 1,
}
#: The sinks whose message is pydantic's template: its ``{name}`` is a value.
PYDANTIC = frozenset({"PydanticCustomError", "one_error"})

#: Raise sites that refuse no request, by ``(file, function, the start of the message)`` (an
#: empty function or start: any), each with why.
INTERNAL: dict[tuple[str, str, str], str] = {
    ("rules/narration.py", "", ""): "the narration's catalogs, read when the service starts",
    ("rules/registry.py", "", ""): "the registry, checked when the service starts",
    ("rules/system.py", "", ""): "a system's descriptor, checked when the service starts",
    ("rules/notation/parser.py", "check_shorthands", ""): (
        "DRAGONROLL_DICE_SHORTHANDS, checked when the service starts"
    ),
    ("rules/notation/parser.py", "shorthand", "shorthand "): (
        "a shorthand's notation, checked with its table ('# pragma: no cover')"
    ),
    ("rules/notation/roll.py", "value_of", ""): (
        "a division by 0: the parser refuses a divisor that can be 0 ('# pragma: no cover')"
    ),
    ("rules/dice/stream.py", "", ""): "a die's sides come from the engine, never a request",
    ("rules/riders/models.py", "parse_dice", ""): (
        "an item's dice: the schema's pattern is what parse_dice reads, and refuses first"
    ),
}


#: ``rules.budget.Work``'s texts, a refusal's pieces: what counts (``how``), in what (``unit``),
#: and how the answer's size is counted (``answer_how``), by position and by name.
PIECES: dict[int | str, str] = {2: "how", "how": "how", "unit": "unit", "answer_how": "answer_how"}


@dataclass
class Found:
    """The formats found: ``sinks`` (each a message as a refusal gives it) and ``pieces`` (a part
    of a message a sink shows), each with where it was found."""

    sinks: dict[str, str] = field(default_factory=dict)
    pieces: dict[str, str] = field(default_factory=dict)


def escaped(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


class _Module:
    """One module: its functions by name, read once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = str(path.relative_to(ROOT))
        self.tree = ast.parse(path.read_text())
        self.functions: dict[str, ast.FunctionDef] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.FunctionDef):
                self.functions.setdefault(node.name, node)
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node

    def function_of(self, node: ast.AST) -> ast.FunctionDef | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.FunctionDef):
                return node
        return None


class _Reader:
    """Reads a message's expression into its formats, within one function of one module."""

    def __init__(self, module: _Module, found: Found, texts: dict[str, set[str]]) -> None:
        self.module = module
        self.found = found
        #: text-returning functions of every module, by name (another module's: a piece)
        self.texts = texts

    def formats(self, node: ast.AST, scope: ast.FunctionDef | None, depth: int = 0) -> set[str]:
        if depth > 12:
            return {"{}"}
        if isinstance(node, ast.Constant):
            return {escaped(node.value)} if isinstance(node.value, str) else {"{}"}
        if isinstance(node, ast.JoinedStr):
            out = {""}
            for part in node.values:
                if isinstance(part, ast.Constant):
                    parts = {escaped(str(part.value))}
                else:
                    assert isinstance(part, ast.FormattedValue)
                    parts = (
                        {"{}"}
                        if part.format_spec is not None or part.conversion not in (-1, 115)
                        else self.formats(part.value, scope, depth + 1)
                    )
                out = {a + b for a in out for b in parts}
            return out
        if isinstance(node, ast.IfExp):
            return self.formats(node.body, scope, depth + 1) | self.formats(
                node.orelse, scope, depth + 1
            )
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            return set().union(*(self.formats(v, scope, depth + 1) for v in node.values))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and _textual(node):
            left = self.formats(node.left, scope, depth + 1)
            right = self.formats(node.right, scope, depth + 1)
            return {a + b for a in left for b in right}
        if isinstance(node, ast.Name) and scope is not None:
            return self.name(node.id, scope, depth)
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        return {"{}"}

    def name(self, name: str, scope: ast.FunctionDef, depth: int) -> set[str]:
        values = [
            n.value
            for n in ast.walk(scope)
            if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)
        ]
        if not values or not all(_textual(v) for v in values):
            return {"{}"}
        return set().union(*(self.formats(v, scope, depth + 1) for v in values))

    def call(self, node: ast.Call, depth: int) -> set[str]:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "get"
            and isinstance(func.value, ast.Dict)
        ):
            # {"knockback": "...", ...}.get(kind, f"'{kind}' is not possible here")
            options = [*func.value.values, *node.args[1:]]
            return set().union(
                *(self.formats(v, None, depth + 1) for v in options if v is not None)
            )
        callee = func.id if isinstance(func, ast.Name) else None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            callee = func.attr if func.value.id == "self" else None  # a method: read in place
        if callee in self.module.functions and callee not in SINKS:
            function = self.module.functions[callee]
            returns = [
                r.value
                for r in ast.walk(function)
                if isinstance(r, ast.Return) and r.value is not None
            ]
            if returns and all(_textual(r) for r in returns):
                return set().union(
                    *(self.formats(r, function, depth + 1) for r in returns if not _none(r))
                )
        elif callee is not None and callee in self.texts:
            for piece in self.texts[callee]:
                self.found.pieces.setdefault(piece, f"{self.module.name}: {callee}()")
        return {"{}"}


def _none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _textual(node: ast.AST) -> bool:
    """Whether ``node`` builds text (a literal, an f-string, a choice or a sum of them)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) or node.value is None
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.IfExp):
        return _textual(node.body) and _textual(node.orelse)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _textual(node.left) or _textual(node.right)
    if isinstance(node, ast.BoolOp):
        return all(_textual(v) or isinstance(v, ast.Call) for v in node.values)
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name | ast.Attribute)
    return False


def _sink_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _message_arg(node: ast.Call, position: int) -> ast.AST | None:
    for keyword in node.keywords:
        if keyword.arg in ("msg", "message", "detail"):
            return keyword.value
    return node.args[position] if len(node.args) > position else None


def modules() -> list[_Module]:
    return [_Module(p) for p in sorted(RULES.rglob("*.py"))]


def _text_functions(mods: list[_Module]) -> dict[str, set[str]]:
    """The public text-returning functions of modules (``dice_maiden``): their formats, each
    read in its own module."""
    out: dict[str, set[str]] = {}
    for module in mods:
        reader = _Reader(module, Found(), {})
        for name, function in module.functions.items():
            returns = [r.value for r in ast.walk(function) if isinstance(r, ast.Return)]
            values = [r for r in returns if r is not None and not _none(r)]
            if not values or not all(isinstance(v, ast.JoinedStr | ast.Constant) for v in values):
                continue
            if not any(isinstance(v, ast.JoinedStr) for v in values):
                continue
            out[name] = set().union(*(reader.formats(v, function) for v in values))
    return out


def _internal(module: _Module, scope: ast.FunctionDef | None, formats: set[str]) -> bool:
    return any(
        file == module.name
        and function in ("", scope.name if scope is not None else "")
        and all(f.startswith(start) for f in formats)
        for file, function, start in INTERNAL
    )


def _params(function: ast.FunctionDef) -> list[str]:
    return [a.arg for a in function.args.args if a.arg != "self"]


def _shown(
    node: ast.AST, scope: ast.FunctionDef | None, seen: frozenset[str] = frozenset()
) -> set[str]:
    """The names a message's expression shows, through the local names it is built from."""
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id not in seen:
            out.add(sub.id)
            if scope is not None:
                for n in ast.walk(scope):
                    if isinstance(n, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == sub.id for t in n.targets
                    ):
                        out |= _shown(n.value, scope, seen | {sub.id})
    return out


def _sinks(module: _Module) -> Iterator[tuple[ast.Call, ast.AST, ast.FunctionDef | None]]:
    """Each sink of ``module``: the call, its message's expression, and the function around it."""
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Call) and _sink_name(node) in SINKS:
            arg = _message_arg(node, SINKS[_sink_name(node) or ""])
            if arg is not None:
                yield node, arg, module.function_of(node)


def _message_params(module: _Module) -> dict[str, dict[int | str, str]]:
    """The functions of ``module`` whose parameters a sink shows (``what``), each such parameter
    by its position (``self`` not counted) and by its name; ``Work``'s texts (``rules.budget``)."""
    out: dict[str, dict[int | str, str]] = {}
    for _, arg, scope in _sinks(module):
        if scope is None:
            continue
        shown = _shown(arg, scope)
        for i, param in enumerate(_params(scope)):
            if param in shown:
                out.setdefault(scope.name, {}).update({i: param, param: param})
    return out


def _calls(
    module: _Module, params: dict[str, dict[int | str, str]]
) -> Iterator[tuple[ast.Call, ast.AST]]:
    """Each call of ``module`` to a function whose parameter a sink shows, with each argument
    given for such a parameter."""
    for node in ast.walk(module.tree):
        name = _sink_name(node) if isinstance(node, ast.Call) else None
        if name is None or name in SINKS or name not in params:
            continue
        assert isinstance(node, ast.Call)
        for i, arg in enumerate(node.args):
            if i in params[name]:
                yield node, arg
        for keyword in node.keywords:
            if keyword.arg in params[name]:
                yield node, keyword.value


def _passed_on(mods: list[_Module], params: dict[str, dict[int | str, str]]) -> bool:
    """Add the parameters a function passes on to another's shown parameter (``_odds_work``'s
    ``how``, given to ``Work``); whether any was added."""
    added = False
    for module in mods:
        for node, arg in list(_calls(module, params)):
            scope = module.function_of(node)
            if scope is None or not isinstance(arg, ast.Name) or arg.id not in _params(scope):
                continue
            i = _params(scope).index(arg.id)
            shown = params.setdefault(scope.name, {})
            if i not in shown:
                shown.update({i: arg.id, arg.id: arg.id})
                added = True
    return added


def find() -> Found:
    """Every format a refusal of ``rules/`` can give (the module docstring)."""
    whole = {file for file, function, start in INTERNAL if not function and not start}
    mods = [m for m in modules() if m.name not in whole]
    found = Found()
    texts = _text_functions(mods)
    works: dict[str, dict[int | str, str]] = {"Work": dict(PIECES)}
    while _passed_on(mods, works):  # _odds_work(terms, loc, how, answer) gives Work its how
        pass
    params = dict(works)
    for module in mods:
        for name, shown in _message_params(module).items():
            params.setdefault(name, {}).update(shown)
    for module in mods:
        reader = _Reader(
            module, found, {k: v for k, v in texts.items() if k not in module.functions}
        )
        for node, arg, scope in _sinks(module):
            formats = reader.formats(arg, scope)
            if _sink_name(node) in PYDANTIC:  # "U+{code} at position {at}: ..."
                formats = {re.sub(r"\{\{\w+\}\}", "{}", f) for f in formats}
            if _internal(module, scope, formats):
                continue
            for f in formats - {"{}"}:
                found.sinks.setdefault(f, f"{module.name}:{node.lineno}")
        for node, arg in _calls(module, params):
            for f in reader.formats(arg, module.function_of(node)) - {"{}", ""}:
                found.pieces.setdefault(f, f"{module.name}:{node.lineno}")
    return found


def main() -> Iterator[str]:
    found = find()
    for f, where in sorted(found.sinks.items(), key=lambda x: x[1]):
        yield f"S {where:32} {f}"
    for f, where in sorted(found.pieces.items(), key=lambda x: x[1]):
        yield f"P {where:32} {f}"


if __name__ == "__main__":
    for line in main():
        print(line)
