"""The product's main stories, told to a real `flowyard serve` (its worker inside) over HTTP and through the
command line, as people and senders tell them: what tests/store/test_every_statement_named.py captures.

Each story waits for what the product shows (a run's status, an open approval, a request the receiver
got), re-read until it holds and bounded in time. The stories arrange nothing behind the program's back
but one thing: a stopped run (every claim of its wait died without a word), written on a quiet connection
(tests/store/statement_log.py) as tests/browser/test_stopped.py does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from tests.actions.servers import Mailbox, RecordingServer
from tests.commands import run_commands
from tests.observability.live import HTTP_TIMEOUT_S, METRICS_TOKEN, wait_for
from tests.server_logs import known_secret

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PASSWORD = known_secret("story-password-5e1f7a")


@dataclass
class Stage:
    """The running server, its database (quietly, for waiting), and the real servers the flows talk to."""

    base: str
    database_url: str  # the program's URL: what it runs there is logged
    quiet_url: str  # the test's own: nothing it runs is logged
    receiver: RecordingServer
    mailbox: Mailbox

    def cli(self, *commands: list[str]) -> list[str]:
        """What each command printed, all run by one `flowyard` process (tests/commands.py)."""
        env = {"DATABASE_URL": self.database_url, "STORY_PASSWORD": PASSWORD}
        said = run_commands(list(commands), env, timeout_s=120)
        for args, one in zip(commands, said, strict=True):
            assert one.code in (0, None), (args, one.out, one.err)
        return [one.out for one in said]

    def users(self, *people: list[str]) -> list[str]:
        """Users made as an admin makes them (each a `user add` of `person`, then a token); their tokens."""
        made: list[list[str]] = []
        for added in people:
            _, _, name, *_ = added
            made += [added, ["token", "create", name]]
        return [known_secret(out.strip().splitlines()[0]) for out in self.cli(*made)[1::2]]

    def api(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.base, headers=headers, timeout=HTTP_TIMEOUT_S)

    def until(self, query: str, *params: Any) -> tuple[Any, ...]:
        return wait_for(self.quiet_url, query, *params, timeout_s=120)

    def ended(self, run_id: int, status: str) -> None:
        self.until("SELECT 1 FROM runs WHERE id = %s AND status = %s", run_id, status)


def person(name: str, *grants: str, groups: tuple[str, ...] = (), email: str | None = None) -> list[str]:
    """The `user add` of a user with a password, their grants, groups and address."""
    args = ["user", "add", name, "--password-env", "STORY_PASSWORD"]
    args += [f"--grant={grant}" for grant in grants] + [f"--group={group}" for group in groups]
    return args + ([f"--email={email}"] if email else [])


def example(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return document


def ok(answer: httpx.Response, *statuses: int) -> Any:
    assert answer.status_code in (statuses or (200,)), (answer.request.url, answer.status_code, answer.text)
    return answer.json() if answer.content and "json" in answer.headers.get("content-type", "") else None


def login_and_out(stage: Stage) -> None:
    """A person logs in with a password (a wrong one first), reads who they are, and logs out."""
    with stage.api() as browser:
        ok(browser.post("/api/session", json={"name": "boss", "password": "wrong-password"}), 401)
        session = ok(browser.post("/api/session", json={"name": "boss", "password": PASSWORD}), 201)
        assert ok(browser.get("/api/me"))["name"] == "boss"
        ok(browser.delete("/api/session", headers={"X-CSRF-Token": session["csrf_token"]}), 204)


def parallel_approvals_and_payment(stage: Stage, boss: str, legal: str, finance: str) -> int:
    """Seed 004 with two approvers side by side: both decide through the API, then the payment is sent to
    the real receiver, and the run succeeds."""
    with stage.api(boss) as api:
        flow_id = ok(api.post("/api/flows", json=example("parallel-approvals.json")), 201)["id"]
        given = {"contract": "C-1", "supplier": "Acme", "amount": 10, "currency": "EUR"}
        payload = {"input": {**given, "payment_url": f"{stage.receiver.url}/pay"}}
        run_id = int(ok(api.post(f"/api/flows/{flow_id}/runs", json=payload), 201)["run"])
    stage.until("SELECT 1 FROM approvals WHERE run_id = %s HAVING count(*) = 2", run_id)
    assert "fin@example.test" in str(stage.mailbox.wait_for_mail_to("fin@example.test")["To"])
    for token in (legal, finance):
        with stage.api(token) as api:
            inbox = ok(api.get("/api/approvals"))["approvals"]
            assert [a["run_id"] for a in inbox] == [run_id]
            ok(api.get(f"/api/approvals/{inbox[0]['id']}"))
            decided = api.post(f"/api/approvals/{inbox[0]['id']}/decision", json={"outcome": "approve"})
            ok(decided)
    stage.ended(run_id, "succeeded")
    assert stage.receiver.wait_for(1)[0].path == "/pay"
    return int(flow_id)


def event_answers_a_wait(stage: Stage, boss: str) -> None:
    """A run waits for an event under its key; a sender's event answers it; another comes by the event
    name's secret and is kept for a run that is not waiting yet."""
    with stage.api(boss) as api:
        document = example("patterns-events/16-deferred-choice.json")
        flow_id = ok(api.post("/api/flows", json=document), 201)["id"]
        run_id = int(ok(api.post(f"/api/flows/{flow_id}/runs", json={"input": {"offer": "O-1"}}), 201)["run"])
        stage.until("SELECT 1 FROM event_waits WHERE run_id = %s", run_id)
        sent = api.post("/api/events/accepted", json={"key": "O-1", "payload": {"customer": "Cy"}})
        assert ok(sent, 202)["delivered"] is True
        stage.ended(run_id, "succeeded")
        hook = ok(api.post("/api/events/declined/secret"), 201)
    with stage.api() as sender:
        kept = sender.post(hook["path"], json={"key": "O-2"}, headers={"Idempotency-Key": "once"})
        assert ok(kept, 202)["delivered"] is False


def delay_and_webhook(stage: Stage, boss: str) -> None:
    """A run started by a webhook sends an http action to the receiver; another waits out a delay."""
    with stage.api(boss) as api:
        document = example("webhook-order.json")
        flow_id = ok(api.post("/api/flows", json=document), 201)["id"]
        hook = ok(api.post(f"/api/flows/{flow_id}/webhook"), 201)
        delayed = {
            "format": "flowyard.flow/1",
            "name": "A second's pause",
            "nodes": [
                {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
                {"id": "pause", "type": "delay", "config": {"duration": "PT1S"}},
                {"id": "done", "type": "log", "config": {"message": "waited"}},
            ],
            "wires": [{"from": "start", "to": "pause"}, {"from": "pause", "to": "done"}],
        }
        delay_flow = ok(api.post("/api/flows", json=delayed), 201)["id"]
        waited = int(ok(api.post(f"/api/flows/{delay_flow}/runs", json={"input": {}}), 201)["run"])
    with stage.api() as sender:
        body = {"order": "W-1", "customer": "Di", "confirm_url": f"{stage.receiver.url}/confirm"}
        started = ok(sender.post(hook["path"], json=body, headers={"Idempotency-Key": "W-1"}), 201, 202)
    stage.ended(int(started["run"]), "succeeded")
    stage.ended(waited, "succeeded")


def stop_resume_end_and_cancel(stage: Stage, boss: str) -> None:
    """A run stops (every claim of its wait died), is resumed through the API, stops again and is ended;
    another is cancelled while it waits."""
    document = example("invoice-approval.json")
    with stage.api(boss) as api:
        flow_id = ok(api.post("/api/flows", json=document), 201)["id"]
        runs = [
            int(ok(api.post(f"/api/flows/{flow_id}/runs", json={"input": given}), 201)["run"])
            for given in ({"invoice": "S-1", "amount": 5000}, {"invoice": "S-2", "amount": 5000})
        ]
        stopped, cancelled = runs
        for attempt in ("resume", "end"):
            # Only a wait no worker holds: the resumed wait is an approval wait while it is walked again,
            # and attempts written under that claim made its park miss, the run stopping only once the
            # claim's lease (30 s) had run out. Tried again at each change of a run until one is written.
            stage.until(
                "UPDATE waits SET attempts = 5, wake_at = now()"
                " WHERE run_id = %s AND kind = 'approval' AND status = 'waiting' RETURNING 1",
                stopped,
            )
            stage.ended(stopped, "stopped")
            ok(api.get(f"/api/runs/{stopped}"))
            ok(
                api.post(f"/api/runs/{stopped}/resume", json={})
                if attempt == "resume"
                else api.post(f"/api/runs/{stopped}/end")
            )
        stage.ended(stopped, "failed")
        stage.until("SELECT 1 FROM waits WHERE run_id = %s AND kind = 'approval'", cancelled)
        ok(api.post(f"/api/runs/{cancelled}/cancel"), 200, 202)
        stage.ended(cancelled, "cancelled")


def reading_everything(stage: Stage, boss: str, flow_id: int) -> None:
    """What people read: the lists, a run's page, the audit trail and its export, the chain's verification,
    the people pages, the metrics."""
    with stage.api(boss) as api:
        run_id = ok(api.get("/api/runs"))["runs"][0]["id"]
        for path in (
            "/api/flows",
            f"/api/flows/{flow_id}",
            f"/api/flows/{flow_id}/versions",
            f"/api/flows/{flow_id}/versions/1",
            f"/api/runs/{run_id}",
            "/api/runs?status=succeeded",
            "/api/audit",
            f"/api/audit?flow={flow_id}",
            "/api/audit/export",
            "/api/audit/runs",
            "/api/audit/chain",
            "/api/audit/verify",
            "/api/users",
            "/api/people",
            "/api/tokens",
            "/api/rights-trail",
            "/api/policies",
            "/api/me",
            "/api/me/delegations",
        ):
            ok(api.get(path))
        # The run stream answers `ready` once the API's LISTEN is in place.
        with api.stream("GET", "/api/runs/stream") as events:
            assert "event: ready" in next(line for line in events.iter_lines() if line.startswith("event:"))
    metrics = httpx.get(
        f"{stage.base}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=HTTP_TIMEOUT_S
    )
    assert metrics.status_code == 200, metrics.text


def people_and_settings(stage: Stage, boss: str, flow_id: int) -> None:
    """An admin's day: settings of their own, a delegation given and ended, the self-approval policy set
    and set back, a user added, granted, revoked, given a token that is revoked, and removed; a flow's new
    version that runs on a schedule."""
    in_a_day = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    with stage.api(boss) as api:
        ok(api.put("/api/me", json={"locale": "de", "time_zone": "Europe/Berlin"}))
        ok(api.put("/api/me/email", json={"email": "boss@example.test"}))
        delegation = ok(api.post("/api/me/delegations", json={"to": "fin", "ends_at": in_a_day}), 201)
        ok(api.delete(f"/api/me/delegations/{delegation['id']}"))
        for value in ("never", "per_node"):
            ok(api.put("/api/policies/self_approval", json={"value": value}))
        ok(api.post("/api/users", json={"name": "tmp", "rights": ["run"]}), 201)
        ok(api.post("/api/users/tmp/rights", json={"rights": ["audit"]}), 200, 201)
        ok(api.delete("/api/users/tmp/rights/audit"), 200, 204)
        ok(api.post("/api/tokens", json={"user": "tmp"}), 201)
        tokens = ok(api.get("/api/tokens"))["tokens"]
        ok(api.delete(f"/api/tokens/{next(t['id'] for t in tokens if t['user'] == 'tmp')}"), 200, 204)
        ok(api.delete("/api/users/tmp"), 200, 204)
        scheduled = example("weekly-report.json")
        ok(api.put(f"/api/flows/{flow_id}", json=scheduled), 200, 201)
        ok(api.get("/api/schedules/next", params={"cron": "0 8 * * 1", "timezone": "Europe/Berlin"}))
