"""``make soak``: mixed valid and invalid traffic against a real uvicorn, then four verdicts.

Loopback only, bounded in time (``--duration``, default 120 s, plus a warm-up), stops by itself:

1. starts the service (one uvicorn worker; its memory is its own and its heavy-lane workers');
2. probes the endpoints of ``bench.bench.ENDPOINTS`` (a 404 is skipped with a message);
3. records the bytes of a few seeded requests per endpoint;
4. warms up, reads the worker's resident memory, then runs two wrk processes at once for
   ``--duration`` seconds, 128 connections in all: 96 cycling through valid requests (fresh seeds,
   some without a seed) and 32 cycling through invalid ones (malformed JSON, wrong types, unknown
   fields, bounds, wrong content type, bad scripted dice, wrong method, unknown path, a 70 KB body);
5. checks: zero non-2xx among the valid requests (a 503 of the heavy lane's full queue apart,
   counted as ``shed``: the design's answer to more heavy work than the workers take), zero 5xx
   among the invalid ones, resident memory at the end within 10% of after warm-up, the seeded
   requests answered with the same bytes.

Exit status 0 when all four hold. Usage: ``python -m bench.soak [--duration 120] [--warmup 15]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench import ENDPOINTS, ROOT, SERVICE, body_text, ensure_wrk, post, serve, url_path

LUA = ROOT / "bench" / "mixed.lua"
VALID_CONNECTIONS = 96
INVALID_CONNECTIONS = 32
SEEDS = ("soak-a", "soak-b", 7)


def invalid_requests(paths: list[str]) -> list[tuple[str, str, str, str]]:
    """(method, path, content type, body) of requests that must get a 4xx, never a 5xx."""
    out: list[tuple[str, str, str, str]] = []
    for path in paths:
        out += [
            ("POST", path, "application/json", "{"),
            ("POST", path, "application/json", ""),
            ("POST", path, "application/json", "[1,2,3]"),
            ("POST", path, "application/json", "null"),
            ("POST", path, "application/json", '{"seed": 1, "unknown_field": true}'),
            ("POST", path, "application/json", '{"seed": "", "dice": {"no such slot": [1]}}'),
            ("POST", path, "application/json", '{"seed": 1, "dice": {"x": [0, -1, 99999999999]}}'),
            ("POST", path, "application/json", '{"stat": "many", "skill": 1e400}'),
            ("POST", path, "application/json", '{"pool": 101, "skill": 101, "stat": 1000001}'),
            ("POST", path, "text/plain", '{"pool": 1}'),
            ("POST", path, "application/xml", "<pool>1</pool>"),
            ("GET", path, "", ""),
            ("POST", path, "application/json", '{"seed": "' + "x" * 70_000 + '"}'),
        ]
    out.append(("POST", "/no/such/endpoint", "application/json", "{}"))
    return out


def write_lines(path: Path, rows: list[tuple[str, str, str, str]]) -> None:
    with path.open("w") as f:
        for row in rows:
            assert all("\t" not in c and "\n" not in c for c in row), row
            f.write("\t".join(row) + "\n")


def rss_kib(pid: int) -> int:
    """The memory of the server and its heavy-lane workers (forked children sharing its pages):
    their proportional set sizes summed, what the pod's memory counts once."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    total = 0
    for proc in [pid, *map(int, children)]:
        try:
            text = Path(f"/proc/{proc}/smaps_rollup").read_text()
        except OSError:  # a worker replaced meanwhile
            continue
        m = re.search(r"^Pss:\s+(\d+) kB", text, re.M)
        assert m, text
        total += int(m.group(1))
    return total


def wrk_mixed(url: str, rows_file: Path, seconds: int, connections: int) -> subprocess.Popen[str]:
    cmd = [
        "wrk",
        "-t2",
        f"-c{connections}",
        f"-d{seconds}s",
        "--timeout",
        "10s",
        "-s",
        str(LUA),
        url,
    ]
    env = {**os.environ, "SOAK_FILE": str(rows_file)}
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def counts(proc: subprocess.Popen[str], seconds: int) -> dict[str, Any]:
    out, err = proc.communicate(timeout=seconds + 60)
    m = re.search(r"^SOAK (\{.*\})$", out, re.M)
    if proc.returncode != 0 or not m:
        raise RuntimeError(f"wrk failed ({proc.returncode}): {out}\n{err}")
    return dict(json.loads(m.group(1)))


def snapshot(base: str, live: list[tuple[str, dict[str, Any]]]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for path, body in live:
        for seed in SEEDS:
            text = body_text({**body, "seed": seed})
            status, content = post(base + path, text)
            out[f"{path} seed={seed}"] = bytes([status % 256]) + content
    return out


def run_mix(
    base: str, valid: Path, invalid: Path, seconds: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    procs = (
        wrk_mixed(base + "/", valid, seconds, VALID_CONNECTIONS),
        wrk_mixed(base + "/", invalid, seconds, INVALID_CONNECTIONS),
    )
    return counts(procs[0], seconds), counts(procs[1], seconds)


def soak_endpoints() -> list[tuple[str, dict[str, Any]]]:
    """The benchmark's table, then one golden request (tests/golden) for every other endpoint,
    its scripted dice dropped and its seed fresh per request, so the soak covers every endpoint."""
    rows = list(ENDPOINTS)
    seen = {path for path, _ in rows}
    for file in sorted((ROOT / "tests" / "golden").glob("*/*.request.json")):
        spec = json.loads(file.read_text(encoding="utf-8"))
        if spec["path"] in seen or spec.get("status", 200) != 200:
            continue
        body = {k: v for k, v in spec["body"].items() if k != "dice"}
        rows.append((spec["path"], {**body, "seed": "@SEED@"}))
        seen.add(spec["path"])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=120, help="seconds of mixed traffic")
    parser.add_argument("--warmup", type=int, default=15, help="seconds of warm-up traffic")
    args = parser.parse_args(argv)
    seconds = max(5, min(args.duration, 3600))
    warmup = max(3, min(args.warmup, 600))
    ensure_wrk()
    failures: list[str] = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        serve("dragonroll", SERVICE) as svc,
    ):
        live: list[tuple[str, dict[str, Any]]] = []
        for path, body in soak_endpoints():
            status, _ = post(svc.base + path, body_text(body, "probe"))
            if status == 404:
                print(f"  {path}: 404 on this app (its system is not merged here): skipped")
            elif status != 200:
                print(f"  {path}: {status} for the table's body (update bench.ENDPOINTS): skipped")
            else:
                live.append((path, body))
        if not live:
            print("no endpoint to soak")
            return 1
        valid_rows: list[tuple[str, str, str, str]] = []
        for path, body in live:
            # h11 keeps a target's "#..." in the path (httptools dropped it): the row's URL path
            path = url_path(path)  # noqa: PLW2901
            valid_rows.append(("POST", path, "application/json", body_text(body)))
            unseeded = {k: v for k, v in body.items() if k != "seed"}
            valid_rows.append(
                ("POST", path, "application/json; charset=utf-8", body_text(unseeded))
            )
        valid_file, invalid_file = Path(tmp, "valid.tsv"), Path(tmp, "invalid.tsv")
        write_lines(valid_file, valid_rows)
        write_lines(invalid_file, invalid_requests(sorted({url_path(p) for p, _ in live})))

        pid = svc.proc.pid
        before = snapshot(svc.base, live)
        print(f"soak {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {len(live)} endpoints,")
        print(f"  {VALID_CONNECTIONS} + {INVALID_CONNECTIONS} connections, {warmup} s warm-up")
        run_mix(svc.base, valid_file, invalid_file, warmup)
        rss_warm = rss_kib(pid)
        print(
            f"  RSS after warm-up: {rss_warm / 1024:.1f} MiB; soaking {seconds} s ...", flush=True
        )
        procs = (
            wrk_mixed(svc.base + "/", valid_file, seconds, VALID_CONNECTIONS),
            wrk_mixed(svc.base + "/", invalid_file, seconds, INVALID_CONNECTIONS),
        )
        samples: list[int] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and len(samples) < 10_000:
            time.sleep(min(10.0, max(0.1, deadline - time.monotonic())))
            samples.append(rss_kib(pid))
        valid, invalid = counts(procs[0], seconds), counts(procs[1], seconds)
        time.sleep(1)
        rss_end = rss_kib(pid)
        after = snapshot(svc.base, live)

    print(f"  valid:   {json.dumps(valid)}")
    print(f"  invalid: {json.dumps(invalid)}")
    growth = (rss_end - rss_warm) / rss_warm
    print(
        f"  RSS: {rss_warm / 1024:.1f} MiB after warm-up, peak {max(samples) / 1024:.1f} MiB, "
        f"{rss_end / 1024:.1f} MiB at the end ({growth:+.1%})"
    )
    bad_valid = valid["3xx"] + valid["4xx"] + valid["5xx"] + valid["other"]
    if bad_valid or valid["socket_errors"] or not valid["2xx"]:
        failures.append(f"valid requests: {bad_valid} non-2xx, {valid['socket_errors']} errors")
    if invalid["5xx"] or not invalid["4xx"]:
        failures.append(f"invalid requests: {invalid['5xx']} 5xx")
    if growth > 0.10:
        failures.append(f"resident memory grew {growth:.1%} (> 10%)")
    changed = [k for k in before if before[k] != after.get(k)]
    if changed:
        failures.append(f"seeded responses changed: {changed}")
    print(f"  seeded responses identical before and after: {not changed} ({len(before)} requests)")
    print("soak:", "passed" if not failures else "FAILED: " + "; ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
