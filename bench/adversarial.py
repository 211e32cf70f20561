"""Flow documents an attacker would send to the validator: each one large in the way that hurts a rule.

Every shape fits the API's body limit (5,000,000 bytes); the wire-heavy ones have as many wires as a flow
may have (10,000) and `too_many_wires` as many as the body holds. Most are invalid on purpose, with as many
findings as their size allows. `bench/validate.py` times them and
`tests/graph/test_adversarial.py` holds their finding counts and output sizes to their bounds.

Run as a script, it sends the attacks of the security rounds to a real `flowyard serve` on loopback and
prints, for each, what came back, the server's peak memory and `/healthz` latencies while it lasted
(issue 32's targets: under 300 MB, p99 under 200 ms):

    .venv/bin/python bench/adversarial.py [--at-once 4]

- `walk_amplifier`: a 1 MB document that logs its megabyte at each of 100 passes of a loop, sent to the
  walk preview (`POST /api/flows/walk`) by an editor, `--at-once` requests together; before issue 32 each
  answered 180 MB. And the same by a token with no right.
- `login_burst`: `--logins` wrong passwords for one name from one address sent together, and the right
  one among them; before issue 32 every wrong one was hashed and answered `login_failed` (no 429) and a
  real login waited behind the burst. Printed: how many got each answer (status and reason code).

It makes its own database (`flowyard_bench_adversarial_<pid>`, dropped after). Nothing is asserted.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import asyncio
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from functools import partial
from itertools import pairwise
from typing import Any

import psycopg

from backend.graph.outline import MAX_WIRES
from backend.people.accounts import Grant, add_user, create_token
from bench.common import drop_database, fresh_database, served

Document = dict[str, Any]

_CONFIGS: dict[str, dict[str, Any]] = {
    "trigger": {"kind": "manual"},
    "foreach": {"items": "{{trigger.items}}", "as": "item"},
    "log": {"message": "x"},
    "end": {"status": "succeeded"},
}


def _document(nodes: list[tuple[str, str]], wires: list[tuple[str, str, str]]) -> Document:
    return {
        "format": "flowyard.flow/1",
        "name": "adversarial",
        "nodes": [{"id": node_id, "type": kind, "config": dict(_CONFIGS[kind])} for node_id, kind in nodes],
        "wires": [{"from": source, "port": port, "to": target} for source, port, target in wires],
    }


def shared_body(size: int = 1000) -> Document:
    """Issue 12's shape: loops one after the other whose bodies all lead to one shared node."""
    loops = [f"l{i}" for i in range(size - 2)]
    nodes = [("t", "trigger"), ("shared", "log"), *((loop, "foreach") for loop in loops)]
    wires = [("t", "out", loops[0])]
    wires += [(loop, "body", "shared") for loop in loops]
    wires += [(a, "done", b) for a, b in pairwise(loops)]
    return _document(nodes, wires)


def fan_in(size: int = 1000) -> Document:
    """Every node wired to one: loops straight from the trigger, bodies and `done`s into one node."""
    loops = [f"l{i}" for i in range(size - 2)]
    nodes = [("t", "trigger"), ("sink", "log"), *((loop, "foreach") for loop in loops)]
    wires = [("t", "out", loop) for loop in loops]
    wires += [(loop, port, "sink") for loop in loops for port in ("body", "done")]
    return _document(nodes, wires)


def fan_out(size: int = 1000) -> Document:
    """One loop whose body fans out to every other node, each of them also wired from the trigger."""
    others = [f"n{i}" for i in range(size - 2)]
    nodes = [("t", "trigger"), ("each", "foreach"), *((node, "end") for node in others)]
    wires = [("t", "out", "each")]
    wires += [("each", "body", node) for node in others]
    wires += [("t", "out", node) for node in others]
    return _document(nodes, wires)


def deep_nesting(size: int = 1000) -> Document:
    """Loops nested inside each other as deep as the node limit allows, an `end` at the bottom."""
    loops = [f"l{i}" for i in range(size - 2)]
    nodes = [("t", "trigger"), *((loop, "foreach") for loop in loops), ("stop", "end")]
    wires = [("t", "out", loops[0])]
    wires += [(a, "body", b) for a, b in zip(loops, [*loops[1:], "stop"], strict=True)]
    return _document(nodes, wires)


def long_cycle(size: int = 1000) -> Document:
    """One chain closed into a cycle through every node: the longest path a `cycle` finding can name."""
    chain = [f"node-with-a-long-name-{i:05}-{'x' * 30}" for i in range(size - 1)]
    nodes = [("t", "trigger"), *((node, "log") for node in chain)]
    wires = [("t", "out", chain[0])]
    wires += [(a, "out", b) for a, b in zip(chain, [*chain[1:], chain[0]], strict=True)]
    return _document(nodes, wires)


def many_cycles(size: int = 1000) -> Document:
    """Pairs of nodes wired in a ring each, back through a port logs lack: a cycle and a port finding each."""
    pairs = [(f"a{i}", f"b{i}") for i in range((size - 1) // 2)]
    nodes = [("t", "trigger"), *((node, "log") for pair in pairs for node in pair)]
    wires = [("t", "out", a) for a, _ in pairs]
    wires += [edge for a, b in pairs for edge in ((a, "out", b), (b, "sideways", a))]
    return _document(nodes, wires)


def breaks_outside(size: int = 1000) -> Document:
    """Every node a `break` outside any loop, straight from the trigger."""
    document = _document([("t", "trigger")], [(("t", "out", f"b{i}")) for i in range(size - 1)])
    document["nodes"] += [{"id": f"b{i}", "type": "break", "config": {}} for i in range(size - 1)]
    return document


def dense(size: int = 1000, wires: int = MAX_WIRES) -> Document:
    """As many wires as a flow may have, between the nodes of a cycle-free graph, half of them loops.

    The loops' bodies and `done`s lead to later nodes, so that most wires enter some loop's body from
    outside it: a finding per wire.
    """
    names = [f"n{i:x}" for i in range(size - 1)]
    nodes: list[tuple[str, str]] = [("t", "trigger")]
    nodes += [(name, "foreach" if i % 2 == 0 else "log") for i, name in enumerate(names)]
    edges: list[tuple[str, str, str]] = [("t", "out", name) for name in names]
    step = max(1, size * size // (2 * wires))
    for i, source in enumerate(names):
        port = "body" if i % 2 == 0 else "out"
        edges += [(source, port, target) for target in names[i + 1 :: step]]
    return _document(nodes, edges[:wires])


def triggers_with_inputs(size: int = 1000, wires: int = MAX_WIRES) -> Document:
    """Half the nodes triggers, the other half wired into them: a finding per wire and per trigger."""
    half = size // 2
    triggers = [f"t{i}" for i in range(half)]
    others = [f"n{i}" for i in range(size - half)]
    nodes = [*((node, "trigger") for node in triggers), *((node, "log") for node in others)]
    edges = [(source, "out", target) for target in triggers for source in others]
    return _document(nodes, edges[:wires])


def unknown_ends(size: int = 1000, wires: int = MAX_WIRES) -> Document:
    """Wires from unknown nodes through unknown ports to unknown nodes: three findings a wire."""
    nodes = [("t", "trigger"), *((f"n{i}", "log") for i in range(size - 1))]
    return _document(nodes, [(f"a{i}", "p", f"b{i}") for i in range(wires)])


def too_many_wires(size: int = 1000, limit: int = 4_900_000) -> Document:
    """As many wires as the body limit holds (about 100,000): past the wire limit, one finding."""
    document = unknown_ends(size, wires=0)
    document["wires"] = [{"from": "t", "to": f"n{i % (size - 1)}"} for i in range(limit // 30)]
    return document


def bad_configs(size: int = 1000, limit: int = 4_900_000) -> Document:
    """Every node a `set` whose values are all numbers (templates must be text): a finding per value."""
    per_node = max(1, (limit // size - 100) // 13)
    document = _document([("t", "trigger")], [])
    for i in range(size - 1):
        values = {f"v{j}": j for j in range(per_node)}
        document["nodes"].append({"id": f"s{i}", "type": "set", "config": {"values": values}})
        document["wires"].append({"from": "t", "to": f"s{i}"})
    return document


def huge_config(limit: int = 4_900_000) -> Document:
    """One `approval` whose approvers list holds as many principals as the body allows, one of them bad."""
    approvers = ["user:a"] * (limit // 10)
    approvers[-1] = "nobody"
    config = {"title": "Go?", "approvers": approvers}
    document = _document([("t", "trigger")], [("t", "out", "ask")])
    document["nodes"].append({"id": "ask", "type": "approval", "config": config})
    return document


def long_id(length: int = 1_000_000) -> Document:
    """One node whose id is a megabyte, and whose config has a fault for every finding there is room for:
    each finding names the node."""
    document = _document([("t", "trigger")], [])
    node_id = "a" * length
    values = {f"k{i}": i for i in range(300)}
    document["nodes"].append({"id": node_id, "type": "set", "config": {"values": values}})
    document["wires"].append({"from": "t", "to": node_id})
    return document


def duplicate_ids(size: int = 1000) -> Document:
    """Every node with the same id, of a type that does not exist."""
    document = _document([("t", "trigger")], [])
    document["nodes"] += [{"id": "t", "type": "nope", "config": {}} for _ in range(size - 1)]
    return document


def walk_amplifier(message_bytes: int = 900_000, passes: int = 100) -> tuple[Document, list[int]]:
    """Issue 32's amplifier for the walk preview: a document of about 1 MB whose walk logs its one large
    text at every pass of a loop, and the sample input that makes the passes."""
    document = _document([("t", "trigger"), ("each", "foreach"), ("say", "log")], [])
    document["nodes"][1]["config"] = {"items": "{{trigger}}", "as": "item"}
    document["nodes"][2]["config"] = {"message": "x" * message_bytes}
    document["wires"] = [{"from": "t", "to": "each"}, {"from": "each", "port": "body", "to": "say"}]
    return document, list(range(passes))


SHAPES: dict[str, Callable[[], Document]] = {
    "shared_body": shared_body,
    "fan_in": fan_in,
    "fan_out": fan_out,
    "deep_nesting": deep_nesting,
    "long_cycle": long_cycle,
    "many_cycles": many_cycles,
    "breaks_outside": breaks_outside,
    "dense": dense,
    "triggers_with_inputs": triggers_with_inputs,
    "unknown_ends": unknown_ends,
    "too_many_wires": too_many_wires,
    "bad_configs": bad_configs,
    "huge_config": huge_config,
    "long_id": long_id,
    "duplicate_ids": duplicate_ids,
}


def _rss_kib(pid: int, field: str) -> int:
    """A memory figure of a process from /proc (`VmRSS`, `VmHWM`), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def _reset_peak(pid: int) -> bool:
    """Start the process's peak (VmHWM) again from its present size; False where Linux does not allow it."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


# What one request of an attack came to: its status (and reason code, where one is read), its answer's
# size in bytes, and its seconds.
Answer = tuple[str, int, float]


async def _post(port: int, path: str, body: bytes, token: str | None, *, code: bool = False) -> Answer:
    """One POST on a connection of its own (read to its end); `code` reads the answer's reason code."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    bearer = f"Authorization: Bearer {token}\r\n" if token else ""
    writer.write(
        f"POST {path} HTTP/1.1\r\nHost: bench\r\n{bearer}"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    await writer.drain()
    status = (await reader.readline()).split()[1].decode()
    chunks = []
    while chunk := await reader.read(1 << 20):
        chunks.append(chunk)
    writer.close()
    answer = b"".join(chunks)
    if code and b'"code"' in answer:
        status += " " + json.loads(answer.partition(b"\r\n\r\n")[2])["error"]["code"]
    return status, len(answer), time.perf_counter() - started


async def _attack(
    port: int, pid: int, name: str, sends: Sequence[Callable[[], Coroutine[Any, Any, Answer]]]
) -> None:
    """Run the sends together; meanwhile ask /healthz one request at a time, and sample the server's size."""
    before = _rss_kib(pid, "VmRSS")
    exact = _reset_peak(pid)
    sampled = before
    tasks = [asyncio.create_task(send()) for send in sends]
    latencies: list[float] = []
    while not all(task.done() for task in tasks) or len(latencies) < 50:
        started = time.perf_counter()
        status, _size, _took = await _post_get_health(port)
        latencies.append((time.perf_counter() - started) * 1000)
        assert status == 200, status
        sampled = max(sampled, _rss_kib(pid, "VmRSS"))
    results = [task.result() for task in tasks]
    peak = _rss_kib(pid, "VmHWM") if exact else sampled
    latencies.sort()
    p = {q: latencies[max(0, int(len(latencies) * q / 100) - 1)] for q in (50, 99)}
    statuses = dict(sorted(Counter(status for status, _size, _took in results).items()))
    largest = max(size for _status, size, _took in results)
    slowest = max(took for _status, _size, took in results)
    print(
        f"{name:<34} statuses {statuses}  largest answer {largest / 1e6:7.2f} MB  slowest {slowest:5.1f} s  "
        f"server {before / 1024:5.0f} -> peak {peak / 1024:5.0f} MB  /healthz p50 {p[50]:5.1f} ms  "
        f"p99 {p[99]:6.1f} ms  max {latencies[-1]:6.1f} ms ({len(latencies)} asked)"
    )


async def _post_get_health(port: int) -> tuple[int, int, float]:
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    await reader.read()
    writer.close()
    return status, 0, time.perf_counter() - started


LOGIN_PASSWORD = "the right bench passphrase"


async def _users(url: str) -> tuple[str, str]:
    """An editor's token and the token of a user with no right; and bench_login, who logs in."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        await add_user(conn, "bench_login", grants=[], groups=[], password=LOGIN_PASSWORD)
        await add_user(conn, "bench_editor", grants=[Grant.parse("edit")], groups=[], password=None)
        await add_user(conn, "bench_nobody", grants=[], groups=[], password=None)
        tokens = (await create_token(conn, "bench_editor"), await create_token(conn, "bench_nobody"))
        await conn.commit()
    return tokens


def main() -> None:
    parser = argparse.ArgumentParser(description="the security rounds' attacks against a real server")
    parser.add_argument("--at-once", type=int, default=4, help="requests of each attack sent together")
    parser.add_argument("--logins", type=int, default=60, help="wrong passwords of the login burst")
    args = parser.parse_args()
    database = f"flowyard_bench_adversarial_{os.getpid()}"
    url = fresh_database(database)
    try:
        editor, nobody = asyncio.run(_users(url))
        document, items = walk_amplifier()
        body = json.dumps({"document": document, "input": items}).encode()
        print(f"walk amplifier: a {len(body) / 1e6:.2f} MB body, {args.at_once} at once")
        with served(url) as (port, pid):
            for name, token in (("walk_amplifier (edit)", editor), ("walk_amplifier (no right)", nobody)):
                sends = [partial(_post, port, "/api/flows/walk", body, token) for _ in range(args.at_once)]
                asyncio.run(_attack(port, pid, name, sends))
            wrong = json.dumps({"name": "bench_login", "password": "not the password"}).encode()
            right = json.dumps({"name": "bench_login", "password": LOGIN_PASSWORD}).encode()
            logins = [partial(_post, port, "/api/session", wrong, None, code=True)] * args.logins
            logins.insert(len(logins) // 2, partial(_post, port, "/api/session", right, None, code=True))
            asyncio.run(_attack(port, pid, f"login_burst ({args.logins} wrong, 1 right)", logins))
    finally:
        drop_database(database)


if __name__ == "__main__":
    main()
