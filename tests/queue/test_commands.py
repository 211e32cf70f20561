"""The queue's commands as an operator types them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg

from tests.support import Queue, flow


def flowyard(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", *args],
        env=dict(os.environ, DATABASE_URL=url),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_run_starts_a_run_and_refuses_bad_input_and_unknown_flows(queue: Queue) -> None:
    flow_id = queue.save(flow("start:trigger", wires=[]))
    started = flowyard(queue.url, "run", str(flow_id), "--input", '{"n": 1}')
    assert started.returncode == 0, started.stderr
    run_id = int(started.stdout.split()[-1])
    assert queue.one("SELECT input, status FROM runs WHERE id = %s", run_id) == ({"n": 1}, "waiting")

    bad = flowyard(queue.url, "run", str(flow_id), "--input", "{nope")
    assert bad.returncode == 2 and "--input is not JSON" in bad.stderr and "Traceback" not in bad.stderr
    missing = flowyard(queue.url, "run", "999999")
    assert missing.returncode == 1 and "flow_not_found" in missing.stderr
    assert queue.one("SELECT count(*) FROM runs WHERE flow_id = %s", flow_id) == (1,)


def test_run_and_walk_refuse_what_the_api_refuses_in_one_line_with_the_code(
    queue: Queue, tmp_path: Path
) -> None:
    """One strict reader: NaN, Infinity, a key twice, a number no float holds, a NUL character."""
    flow_id = queue.save(flow("start:trigger", wires=[]))
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(flow("start:trigger", wires=[])))
    texts = ['{"a": NaN}', '{"a": -Infinity}', '{"a": 1, "a": 2}', "[1e999]", '{"a": "x\\u0000y"}']
    for text in texts:
        for args in (["run", str(flow_id)], ["walk", str(path)]):
            refused = flowyard(queue.url, *args, "--input", text)
            assert refused.returncode == 2, (args, text, refused.stderr)
            assert refused.stderr.count("\n") == 1 and "--input is not JSON" in refused.stderr
            if args[0] == "run":  # `walk` says its sentence alone, as its tests have it
                assert refused.stderr.rstrip().endswith("(walk_input_invalid)")
    assert queue.one("SELECT count(*) FROM runs WHERE flow_id = %s", flow_id) == (0,)


def test_workers_lists_who_reported_and_when(queue: Queue) -> None:
    with_none = flowyard(queue.url, "workers")
    assert with_none.returncode == 0 and "no workers" in with_none.stdout
    with psycopg.connect(queue.url) as conn:
        conn.execute("INSERT INTO workers (name, concurrency) VALUES ('host/1/abc', 7)")
        conn.execute(
            "INSERT INTO workers (name, concurrency, heartbeat_at)"
            " VALUES ('host/2/def', 3, now() - interval '5 minutes')"
        )
    listed = flowyard(queue.url, "workers").stdout.splitlines()
    assert listed[0].startswith("host/1/abc") and listed[0].endswith("live")
    assert listed[1].startswith("host/2/def") and "; silent for 5 minutes" in listed[1]


def test_flow_save_makes_a_flow_then_a_new_version(queue: Queue, tmp_path: Path) -> None:
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(flow("start:trigger", wires=[], name="saved")))
    first = flowyard(queue.url, "flow", "save", str(path))
    assert first.returncode == 0, first.stderr
    flow_id = int(first.stdout.split()[2])
    second = flowyard(queue.url, "flow", "save", str(path), "--flow", str(flow_id))
    assert second.stdout.strip() == f"saved flow {flow_id} version 2"
    assert queue.one("SELECT latest_version, name FROM flows WHERE id = %s", flow_id) == (2, "saved")

    path.write_text(
        json.dumps(flow("start:trigger", {"id": "x", "type": "nope", "config": {}}, wires=[], name="bad"))
    )
    refused = flowyard(queue.url, "flow", "save", str(path), "--flow", str(flow_id))
    assert refused.returncode == 1 and "node_type_unknown" in refused.stdout
    assert queue.one("SELECT latest_version FROM flows WHERE id = %s", flow_id) == (2,)


def test_run_as_a_user_names_them_as_the_starter_if_they_may_run_the_flow(queue: Queue) -> None:
    from tests.api.support import make_user

    flow_id = queue.save(flow("start:trigger", wires=[]))
    other_id = queue.save(flow("start:trigger", wires=[]))
    make_user(queue.url, "ann", f"run:{flow_id}")
    make_user(queue.url, "bob", "decide")

    started = flowyard(queue.url, "run", str(flow_id), "--as", "ann")
    assert started.returncode == 0, started.stderr
    run_id = int(started.stdout.split()[-1])
    assert queue.one("SELECT started_by FROM runs WHERE id = %s", run_id) == ("ann",)
    plain = flowyard(queue.url, "run", str(flow_id))
    assert queue.one("SELECT started_by FROM runs WHERE id = %s", int(plain.stdout.split()[-1])) == ("cli",)

    for args, code, name in (
        ([str(other_id), "--as", "ann"], "run_right_missing", "ann"),  # her right is on the other flow
        ([str(flow_id), "--as", "bob"], "run_right_missing", "bob"),
        ([str(flow_id), "--as", "nobody"], "user_unknown", "nobody"),
    ):
        refused = flowyard(queue.url, "run", *args)
        assert refused.returncode == 1, refused.stderr
        assert refused.stderr.rstrip().endswith(f"({code})") and name in refused.stderr
        assert "Traceback" not in refused.stderr
    assert queue.one("SELECT count(*) FROM runs WHERE flow_id = ANY(%s)", [flow_id, other_id]) == (2,)
