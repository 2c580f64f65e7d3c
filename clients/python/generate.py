"""Write ``src/dragonroll_client/_generated.py`` from ``openapi/openapi.json``.

One ``TypedDict`` per schema in the document and one method per operation on ``Client`` and
``AsyncClient``. Run ``make clients`` (or ``python clients/python/generate.py``) after the document
changes; ``tests/clients/test_python_client.py`` fails while the committed file is stale.
"""

from __future__ import annotations

import json
import keyword
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DOCUMENT = HERE.parents[1] / "openapi" / "openapi.json"
TARGET = HERE / "src" / "dragonroll_client" / "_generated.py"
SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}
HEADER = '''"""Generated from openapi/openapi.json by clients/python/generate.py: do not edit by hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

from dragonroll_client._transport import AsyncTransport, SyncTransport

'''


def class_name(schema_name: str) -> str:
    """A schema's class: its component name, already unique and readable (``DosAttackRequest``,
    ``RidersSideInput``: service/openapi.py names them)."""
    return schema_name.replace("-", "")


def type_of(schema: dict[str, Any]) -> str:
    """The Python type of one JSON schema, as source text."""
    if "$ref" in schema:
        return class_name(schema["$ref"].rsplit("/", 1)[1])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " | ".join(dict.fromkeys(type_of(s) for s in schema[key]))
    if "const" in schema:
        return f"Literal[{json.dumps(schema['const'])}]"
    if "enum" in schema:
        return f"Literal[{', '.join(json.dumps(v) for v in schema['enum'])}]"
    kind = schema.get("type")
    if kind == "array":
        return f"list[{type_of(schema.get('items', {}))}]"
    if kind == "object":
        values = schema.get("additionalProperties")
        if values is None and schema.get("patternProperties"):
            values = next(iter(schema["patternProperties"].values()))
        return f"dict[str, {type_of(values) if isinstance(values, dict) else 'Any'}]"
    return SCALARS.get(str(kind), "Any")


def typed_dict(schema_name: str, schema: dict[str, Any]) -> str:
    required = set(schema.get("required", []))
    fields = [
        (field, kind if field in required else f"NotRequired[{kind}]")
        for field, field_schema in schema.get("properties", {}).items()
        for kind in [type_of(field_schema)]
    ]
    name = class_name(schema_name)
    if any(keyword.iskeyword(field) or not field.isidentifier() for field, _ in fields):
        # A key that is not a Python name (Foundry's "class") needs the functional syntax.
        body = "".join(f"        {json.dumps(field)}: {kind},\n" for field, kind in fields)
        return f"{name} = TypedDict(\n    {json.dumps(name)},\n    {{\n{body}    }},\n)"
    lines = [f"class {name}(TypedDict):"]
    doc = schema.get("description") or schema.get("title") or schema_name
    lines.append(f"    {json.dumps(doc.splitlines()[0])}")
    lines += [f"    {field}: {kind}" for field, kind in fields]
    return "\n".join(lines)


def operations(document: dict[str, Any]) -> list[tuple[str, str, str, str, str | None, str]]:
    """(operation id, method, path, summary, request type or None for a GET, response type) for
    every operation, in document order."""
    found = []
    for path, item in document["paths"].items():
        for method, op in item.items():
            request = None
            if method == "post":
                body = op["requestBody"]["content"]["application/json"]["schema"]
                request = type_of(body)
            response = op["responses"]["200"]["content"]["application/json"]["schema"]
            found.append(
                (op["operationId"], method, path, op["summary"], request, type_of(response))
            )
    return found


def methods(document: dict[str, Any], asynchronous: bool) -> str:
    base, prefix, wait = (
        ("AsyncTransport", "async ", "await ") if asynchronous else ("SyncTransport", "", "")
    )
    name = "AsyncClient" if asynchronous else "Client"
    lines = [
        f"class {name}({base}):",
        f'    """dragonroll over httpx, {"async" if asynchronous else "sync"}: one method per endpoint."""',
    ]
    for op_id, method, path, summary, request, response in operations(document):
        doc = json.dumps(f"{summary} ({method.upper()} {path}).")
        if request is None:
            lines += [
                "",
                f"    {prefix}def {op_id}(self, *, headers: Mapping[str, str] | None = None) -> {response}:",
                f"        {doc}",
                f"        return cast({response}, {wait}self._get({json.dumps(path)}, headers))",
            ]
            continue
        lines += [
            "",
            f"    {prefix}def {op_id}(self, body: {request}, *, headers: Mapping[str, str] | None = None) -> {response}:",
            f"        {doc}",
            f"        return cast({response}, {wait}self._post({json.dumps(path)}, body, headers))",
        ]
    return "\n".join(lines)


def render(document: dict[str, Any]) -> str:
    """The module's source, formatted by ruff (so the project's lint accepts it as it is)."""
    schemas = document["components"]["schemas"]
    table = "".join(
        f"    {json.dumps(op_id)}: {json.dumps(path)},\n"
        for op_id, _, path, *_ in operations(document)
    )
    parts = ["OPERATIONS: dict[str, str] = {\n" + table + "}"]
    parts += [typed_dict(name, schema) for name, schema in schemas.items()]
    parts += [methods(document, asynchronous=False), methods(document, asynchronous=True)]
    source = HEADER + "\n\n\n".join(parts) + "\n"
    ruff = [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(TARGET), "-"]
    return subprocess.run(ruff, input=source, capture_output=True, text=True, check=True).stdout


def main() -> None:
    TARGET.write_text(render(json.loads(DOCUMENT.read_text(encoding="utf-8"))), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(HERE.parents[1])}")


if __name__ == "__main__":
    main()
