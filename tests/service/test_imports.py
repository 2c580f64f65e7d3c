"""service/ imports without a cycle: no module imports one that imports it back, so each has one
job and can be read from the bottom up (the endpoints, then the pipeline that answers them, then
the HTTP routes and the other surfaces that call it). Read from the source
(``tests/import_graph.py``): a function's own import and an import for the type checker count.
"""

from __future__ import annotations

from pathlib import Path

from tests.import_graph import cycles, graph

SERVICE = Path(__file__).resolve().parents[2] / "service"


def test_service_has_no_import_cycle() -> None:
    found = cycles(graph(SERVICE))
    assert found == [], "import cycles in service/: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_request_path_reads_from_the_bottom_up() -> None:
    edges = graph(SERVICE)
    assert "service.endpoints" in edges["service.pipeline"]
    assert "service.pipeline" in edges["service.routing"]
    assert {"service.pipeline", "service.routing"}.isdisjoint(edges["service.endpoints"])
    assert "service.routing" not in edges["service.pipeline"]
