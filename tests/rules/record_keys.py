"""Walk a result along its declared types, checking every record the engine built as a dict.

Typed-dict records and request-shaped states copied as plain dicts are written by orjson in insertion
order: each must hold exactly its type's keys (a typed dict's, a model's fields) in declaration order,
or the response's bytes change. Each system's ``test_record_keys.py`` walks many results with this.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from typing_extensions import is_typeddict

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
#: Each request is walked as it is and with 12 more seeds.
SEEDS = [None, *(f"keys-{i}" for i in range(12))]

#: Which of the engine's constructions of a record type built this one: (type name, record, where).
Site = Callable[[str, dict[str, Any], str], str]


class KeyWalk:
    """``check`` walks a value; ``seen`` maps each record type met to the sites it was built at
    (``"dict"`` for a state copied as a dict, ``"model"`` for a model left a model)."""

    def __init__(self, site: Site, *, models: bool = False) -> None:
        self.site = site
        self.models = models  # whether a state may also be the model itself (/dos/damage's target)
        self.seen: dict[str, set[str]] = {}

    def check(self, value: Any, tp: Any, where: str) -> None:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            inner = typing.get_args(tp)[0]
            key = _discriminator(tp)
            if key is None:
                self.check(value, inner, where)
                return
            [arm] = [
                a
                for a in typing.get_args(inner)
                if typing.get_type_hints(a)[key] == typing.Literal[value[key]]
            ]
            self.check(value, arm, where)
        elif origin is typing.NotRequired:
            self.check(value, typing.get_args(tp)[0], where)
        elif origin in (typing.Union, types.UnionType):
            arms = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(arms) == 1:
                if value is not None:
                    self.check(value, arms[0], where)
            else:  # `str | int` and the like: nothing to walk
                assert not any(is_typeddict(a) or typing.get_origin(a) for a in arms), tp
        elif origin is list:
            [item] = typing.get_args(tp)
            for i, v in enumerate(value):
                self.check(v, item, f"{where}[{i}]")
        elif origin is dict:
            _, item = typing.get_args(tp)
            for k, v in value.items():
                self.check(v, item, f"{where}[{k!r}]")
        elif is_typeddict(tp):
            assert type(value) is dict, f"{where}: {type(value).__name__}, not a dict"
            hints = typing.get_type_hints(tp, include_extras=True)
            # A key the type does not require (the envelope's ``foundry``) may be left out.
            keys = [
                k
                for k in hints
                if k in value or typing.get_origin(hints[k]) is not typing.NotRequired
            ]
            assert list(value) == keys, (
                f"{where}: keys {list(value)} are not {tp.__name__}'s {keys}"
            )
            self.seen.setdefault(tp.__name__, set()).add(self.site(tp.__name__, value, where))
            for key, v in value.items():
                self.check(v, hints[key], f"{where}.{key}")
        elif dataclasses.is_dataclass(tp):  # the records that stay dataclasses hold typed dicts
            assert type(value) is tp, f"{where}: {type(value).__name__}, not {tp.__name__}"
            hints = typing.get_type_hints(tp, include_extras=True)
            for field in dataclasses.fields(tp):
                self.check(getattr(value, field.name), hints[field.name], f"{where}.{field.name}")
        elif isinstance(tp, type) and issubclass(tp, BaseModel):  # a state
            if self.models and isinstance(value, tp):  # written by its own serialiser
                self.seen.setdefault(tp.__name__, set()).add("model")
                return
            assert type(value) is dict, f"{where}: {type(value).__name__}, not a dict"
            assert list(value) == list(tp.model_fields), (
                f"{where}: keys {list(value)} are not {tp.__name__}'s fields {list(tp.model_fields)}"
            )
            # The values are the model's: it validates them (strictly) and dumps them back unchanged.
            assert tp.model_validate(value).model_dump() == value, where
            self.seen.setdefault(tp.__name__, set()).add("dict")
            for key, v in value.items():
                self.check(v, tp.model_fields[key].annotation, f"{where}.{key}")


def _discriminator(tp: Any) -> str | None:
    """The discriminator of ``Annotated[A | B, Field(discriminator=...)]``, else None."""
    for meta in typing.get_args(tp)[1:]:
        if isinstance(meta, FieldInfo) and isinstance(meta.discriminator, str):
            return meta.discriminator
    return None


def golden_requests(system: str) -> list[tuple[str, dict[str, Any]]]:
    """(path, body) of every golden request of ``system``, in file order."""
    folder = GOLDEN / system
    specs = [
        json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.request.json"))
    ]
    assert specs, f"no golden requests in {folder}"
    # odds and simulations are not resolvers: their answers are checked in tests/odds
    return [
        (spec["path"], spec["body"])
        for spec in specs
        if "/odds" not in spec["path"] and not spec["path"].endswith("/simulate")
    ]


def seeded(body: dict[str, Any]) -> list[dict[str, Any]]:
    """``body`` as it is, then with each of the other ``SEEDS``."""
    return [body if seed is None else {**body, "seed": seed} for seed in SEEDS]


def typed_dicts(module: types.ModuleType) -> list[Any]:
    """The typed dicts ``module`` itself defines (its records)."""
    return [
        obj
        for obj in vars(module).values()
        if is_typeddict(obj) and obj.__module__ == module.__name__
    ]
