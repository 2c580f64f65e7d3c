"""The base of every result type: a plain dataclass, not a pydantic model.

Results are built by the engine from values it has already checked, thousands of times a second, and
only ever serialised: validating them again would cost more than the rules. So a result type is a
``@dataclass(kw_only=True)`` subclass of :class:`Record` (about a third of the cost of a pydantic
model to build), serialised by ``service.encoding`` (orjson: dataclass fields in declaration order, the
same bytes pydantic writes). Not slotted on purpose: orjson reads a dataclass's ``__dict__`` directly
and is about seven times slower on slotted ones. Pydantic still reads the classes for the OpenAPI document
(field descriptions as ``Annotated[T, Field(description=...)]``, unknown fields refused in the schema),
and the tests validate responses against it.

The records a result holds many of (a die, an event, a battle's pools and pairs ...) are ``TypedDict``s
instead: the compiled engine builds each as a dict literal, one C-level step where a dataclass runs
its Python ``__init__``. Pydantic writes the same schema for them and orjson the same bytes, as long as
every key is given in declaration order (tests walk many results to check it).

Requests stay pydantic models (frozen, strict): they are untrusted input.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pydantic_core
from pydantic import BaseModel, ConfigDict


class Record:
    """Base of result dataclasses: ``additionalProperties: false`` in the schema."""

    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")


def shallow(record: Record) -> dict[str, Any]:
    """A record's fields as keyword arguments (values as they are, nested records not copied)."""
    return {name: getattr(record, name) for name in record.__dataclass_fields__}  # type: ignore[attr-defined]


def dump(value: Any, *, exclude_none: bool = False, exclude: set[str] | None = None) -> Any:
    """A record (or a list of them) as plain Python values, field order kept, like ``model_dump``.

    ``exclude_none`` leaves out fields that are ``None`` (at every level); ``exclude`` names top-level
    fields to leave out.
    """

    def plain(v: Any) -> Any:
        if isinstance(v, Record):
            return {
                name: plain(item)
                for name in v.__dataclass_fields__  # type: ignore[attr-defined]
                if not ((item := getattr(v, name)) is None and exclude_none)
            }
        if isinstance(v, BaseModel):
            return v.model_dump(exclude_none=exclude_none)
        if isinstance(v, list | tuple):
            return [plain(item) for item in v]
        if isinstance(v, dict):
            return {key: plain(item) for key, item in v.items()}
        return v

    out = plain(value)
    if exclude and isinstance(out, dict):
        out = {key: item for key, item in out.items() if key not in exclude}
    return out


def to_json(record: Any) -> bytes:
    """A record as compact JSON bytes (the service's own encoder gives the same bytes, faster)."""
    return pydantic_core.to_json(record)
