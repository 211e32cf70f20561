"""`flowyard serve --workers N`: N API processes on one port whose counters add up in one scrape, and
SIGTERM drains `serve` like it drains a worker: the walk in hand is finished before the process exits."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.actions.servers import recording_server
from tests.observability.live import scrape, started, value
from tests.support import Queue, flow


def test_two_api_processes_count_as_one(database_url: str, tmp_path: Path) -> None:
    command = ["serve", "--port", "0", "--workers", "2", "--no-worker"]
    with started(command, database_url, tmp_path / "serve.log") as api:
        # The children start after the parent's banner, each at its own pace on a loaded machine: both must
        # be up before the requests, or one process may serve them all and the sum proves nothing.
        pids = api.wait_for_events("Started server", 2)
        assert len(set(pids)) == 2, api.log.read_text()
        assert len(api.wait_for_events("Application startup complete", 2)) == 2, api.log.read_text()
        with httpx.Client(base_url=api.base, timeout=120) as client:
            assert client.get("/readyz").status_code == 200
            for _ in range(30):  # a new connection each: the kernel hands them to either process
                assert client.get("/livez", headers={"Connection": "close"}).status_code == 200
        samples = scrape(api.base)
        assert value(samples, "flowyard_http_request_seconds_count", route="/livez", status="200") == 30
        api.process.send_signal(signal.SIGTERM)
        assert api.process.wait(timeout=60) == 0


def test_sigterm_lets_serve_finish_the_walk_in_hand(queue: Queue, tmp_path: Path) -> None:
    with recording_server() as receiver:
        receiver.routes["/slow"] = receiver.hold()
        document = flow(
            "start:trigger",
            {
                "id": "call",
                "type": "http",
                "config": {"method": "POST", "url": f"http://127.0.0.1:{receiver.port}/slow"},
            },
            {"id": "note", "type": "log", "config": {"message": "answered {{call.status}}"}},
            wires=[{"from": "start", "to": "call"}, {"from": "call", "to": "note"}],
        )
        run_id = queue.start(queue.save(document))
        with started(["serve", "--port", "0"], queue.url, tmp_path / "serve.log") as api:
            receiver.wait_for(1)  # the in-process worker holds the walk, waiting for the slow server
            api.process.send_signal(signal.SIGTERM)
            with pytest.raises(subprocess.TimeoutExpired):
                api.process.wait(timeout=1)  # it does not drop the walk in hand to exit
            receiver.release.set()
            # uvicorn re-raises the SIGTERM it caught once it has shut down: the exit says "stopped as
            # asked", and systemd reads it so.
            assert api.process.wait(timeout=60) == -signal.SIGTERM
    assert queue.status(run_id) == ("succeeded", None)
    assert queue.one("SELECT count(*) FROM waits") == (0,)
    assert len(receiver.received) == 1
