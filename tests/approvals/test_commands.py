"""`flowyard approvals list|decide`, `flowyard runs show` and `flowyard user add --admin`, as typed.

The commands run in process (`backend.cli.main`) against the module's database; tests/test_readme.py
runs them as real processes beside a real server.
"""

from __future__ import annotations

import re
from datetime import timedelta

import psycopg
import pytest

from backend.actions import ActionSettings
from backend.approvals.queue_port import ApprovalsPort
from backend.cli import main
from backend.i18n.catalogs import message
from backend.queue.runs import cancel_run
from tests.actions.support import drain
from tests.approvals.test_decisions import approval_flow, user, visited
from tests.support import Connected, Queue, flow


def flowyard(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


@pytest.fixture
def cli(queue: Queue, monkeypatch: pytest.MonkeyPatch) -> Queue:
    monkeypatch.setenv("DATABASE_URL", queue.url)
    return queue


def waiting_approval(queue: Queue, invoice: str = "A-7", **config: object) -> tuple[int, int]:
    """A run paused at its approval, walked by a worker: (run id, approval id)."""
    run_id = queue.start(queue.save(approval_flow(**config)), {"id": invoice})
    queue.clock.advance(timedelta(seconds=10))  # the start wait is due at the database's now
    queue.drain()
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert row is not None
    return run_id, row[0]


def test_a_decision_from_the_terminal_takes_the_apis_rules_and_the_first_one_wins(
    cli: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id, approval_id = waiting_approval(cli, approvers=["group:finance"])
    assert flowyard(capsys, "user", "add", "ann", "--admin")[0] == 0
    user(cli, "bob", "decide", groups=("finance",))
    user(cli, "carl", "decide")
    other_flow = cli.save(approval_flow())
    user(cli, "dora", f"decide:{other_flow}", groups=("finance",))
    decide = ("approvals", "decide", str(approval_id))

    refusals = {
        "ann": "decide_right_missing",  # an administrator, but deciding is a right of its own
        "carl": "approver_not_named",
        "dora": "decide_right_missing",  # the right on another flow
        "nobody": "user_unknown",
    }
    for name, code in refusals.items():
        refused = flowyard(capsys, *decide, "approve", "--as", name)
        assert refused[0] == 1 and refused[1] == [] and refused[2].endswith(f"({code})\n"), (name, refused)
    too_long = flowyard(capsys, *decide, "approve", "--comment", "x" * 2001, "--as", "bob")
    assert too_long[0] == 1 and "(decision_comment_too_long)" in too_long[2]
    assert cli.one("SELECT outcome FROM approvals WHERE id = %s", approval_id) == (None,)

    done = flowyard(capsys, *decide, "approve", "--comment", "Checked", "--as", "bob")
    assert done == (0, [f"Approval {approval_id} approved by bob; run {run_id} goes on."], "")
    again = flowyard(capsys, *decide, "reject", "--as", "bob")
    assert again[0] == 1 and "(approval_already_decided)" in again[2]
    assert re.fullmatch(r"It was approved by bob at .+ UTC\.", again[2].splitlines()[1])
    row = cli.one("SELECT outcome, decided_by, comment FROM approvals WHERE id = %s", approval_id)
    assert row == ("approved", "bob", "Checked")

    cli.clock.advance(timedelta(minutes=1))  # the terminal's decision woke the wait at the database's now
    cli.drain()
    assert visited(cli, run_id) == ["start", "ask", "yes", "after"]
    assert flowyard(capsys, "runs", "show", str(run_id)) == (0, [f"Run {run_id} succeeded."], "")


def test_a_cancelled_runs_approval_says_it_was_closed_without_a_decision(
    cli: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id, approval_id = waiting_approval(cli)
    user(cli, "hal", "decide")

    assert Connected(cli.url)(lambda conn: cancel_run(conn, run_id, by="ops", approvals=ApprovalsPort()))
    code, out, err = flowyard(capsys, "approvals", "decide", str(approval_id), "approve", "--as", "hal")
    assert (code, out) == (1, []) and "(approval_cancelled)" in err
    assert re.fullmatch(
        r"It was closed without a person's decision \(Cancelled with its run\) at .+ UTC\.",
        err.splitlines()[1],
    )


def test_the_list_shows_every_open_approval_or_those_one_user_may_decide(
    cli: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id, approval_id = waiting_approval(cli, approvers=["user:erin"], deadline="P2D", on_timeout="skip")
    user(cli, "erin", "decide")
    user(cli, "fred", "decide")
    every = flowyard(capsys, "approvals", "list")[1]
    mine = flowyard(capsys, "approvals", "list", "--as", "erin")[1]
    line = f"Approval {approval_id}: Pay A-7? (run {run_id}, flow "
    assert [x for x in every if x.startswith(line)] == [x for x in mine if x.startswith(line)]
    (listed,) = [x for x in mine if x.startswith(line)]
    assert "approvers: erin; deadline " in listed  # `user:erin` as a person says it
    assert not [x for x in flowyard(capsys, "approvals", "list", "--as", "fred")[1] if x.startswith(line)]
    unknown = flowyard(capsys, "approvals", "list", "--as", "nobody")
    assert unknown[0] == 1 and "(user_unknown)" in unknown[2]


def test_a_title_from_a_payload_cannot_drive_the_approvers_terminal(
    cli: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id, approval_id = waiting_approval(cli, "A-7\x1b[2J\nrm -rf", approvers=["user:gil"])
    user(cli, "gil", "decide")
    code, out, _ = flowyard(capsys, "approvals", "list", "--as", "gil")
    assert code == 0 and not [line for line in out if "\x1b" in line]
    (line,) = [line for line in out if line.startswith(f"Approval {approval_id}:")]
    assert line.startswith(f"Approval {approval_id}: Pay A-7\\x1b[2J\\nrm -rf? (run {run_id}, ")


def test_a_long_list_comes_a_page_at_a_time_never_cut(cli: Queue, capsys: pytest.CaptureFixture[str]) -> None:
    flow_id = cli.save(approval_flow())
    user(cli, "pat", f"decide:{flow_id}")
    assert flowyard(capsys, "approvals", "list", "--as", "pat")[1] == ["No approvals are waiting for pat."]
    with psycopg.connect(cli.url) as conn:
        conn.execute(
            "INSERT INTO approvals (run_id, flow_id, version, node, visit, title, explanation, approvers,"
            " requested_at) SELECT 900000 + g, %s, 1, 'ask', 1, 'bulk ' || g, '', '{}',"
            " now() - (200 - g) * interval '1 minute' FROM generate_series(1, 101) AS g",
            (flow_id,),
        )
    code, first, _ = flowyard(capsys, "approvals", "list", "--as", "pat")
    assert code == 0 and len(first) == 101 and first[0].startswith("Approval ")
    assert first[0].endswith("approvers: anyone with the decide right; no deadline)")
    cursor = first[-1].removeprefix("More approvals are waiting: list them with --after ").removesuffix(".")
    assert first[-1] == message("approvals_more", cursor=cursor)
    code, rest, _ = flowyard(capsys, "approvals", "list", "--as", "pat", "--after", cursor)
    assert code == 0 and len(rest) == 1 and "bulk 101" in rest[0]
    bad = flowyard(capsys, "approvals", "list", "--after", "not-a-cursor")
    assert bad[0] == 1 and bad[1] == [] and "flowyard: " in bad[2]


def test_runs_show_waits_only_as_long_as_asked_and_says_why(
    cli: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = cli.start(cli.save(approval_flow()))  # no worker walks it in this test
    code, out, err = flowyard(capsys, "runs", "show", str(run_id), "--wait", "0.3")
    assert (code, out) == (1, [f"Run {run_id} is due: the next free worker walks it."])
    assert err.endswith("(run_wait_timed_out)\n") and "flowyard worker" in err
    cli.clock.advance(timedelta(minutes=1))  # the start wait is due at the database's now
    cli.drain()
    row = cli.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert row is not None
    shown = flowyard(capsys, "runs", "show", str(run_id), "--wait", "5")
    assert shown == (0, [f"Run {run_id} is waiting for approval {row[0]} at node ask."], "")
    pause = {"id": "nap", "type": "delay", "config": {"duration": "P1D"}}
    napping = cli.start(cli.save(flow("start:trigger", pause, wires=[{"from": "start", "to": "nap"}])))
    cli.clock.advance(timedelta(minutes=1))  # the start wait is due at the database's now
    cli.drain()
    code, out, _ = flowyard(capsys, "runs", "show", str(napping), "--wait", "5")
    assert code == 0 and re.fullmatch(rf"Run {napping} is waiting at node nap until .+ UTC\.", out[0])
    call = {"id": "call", "type": "http", "config": {"method": "GET", "url": "http://127.0.0.1:9/"}}
    failing = cli.start(cli.save(flow("start:trigger", call, wires=[{"from": "start", "to": "call"}])))
    cli.clock.advance(timedelta(minutes=1))
    drain(cli, ActionSettings())  # loopback is not allowed: the visit fails, its error port is unwired
    code, out, _ = flowyard(capsys, "runs", "show", str(failing))
    assert code == 0 and re.fullmatch(
        # The cited code reads as its own sentence; what the wait does not keep reads as an ellipsis.
        rf"Run {failing} will be tried again at .+ UTC, after an error: … resolves to …, which is not a "
        r"public address: actions may reach it only when the allow list admits it\.",
        out[0],
    )
    missing = flowyard(capsys, "runs", "show", "99999999")
    assert missing[0] == 1 and "(run_not_found)" in missing[2]


def test_user_add_admin_grants_everything_but_deciding(
    cli: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    flow_id = cli.save(approval_flow())
    code, out, _ = flowyard(capsys, "user", "add", "root", "--admin", "--grant", f"decide:{flow_id}")
    assert (code, out) == (
        0,
        [f"Added user root with rights: admin, edit, run, audit, and decide:{flow_id}."],
    )
    rights = cli.all("SELECT \"right\", flow_id FROM grants WHERE user_name = 'root' ORDER BY 1")
    assert rights == [("admin", None), ("audit", None), ("decide", flow_id), ("edit", None), ("run", None)]


def test_a_vote_from_the_terminal_counts_towards_the_quorum_and_says_so(
    cli: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    _run_id, approval_id = waiting_approval(cli, "Q-2", approvers=["user:vic", "user:wes"], quorum=2)
    user(cli, "vic", "decide")
    user(cli, "wes", "decide")
    decide = ("approvals", "decide", str(approval_id), "approve")
    counted = flowyard(capsys, *decide, "--as", "vic")
    assert counted == (
        0,
        [message("approval_vote_counted", approval=approval_id, user="vic", approves=1, quorum=2)],
        "",
    )
    twice = flowyard(capsys, *decide, "--as", "vic")
    assert twice[0] == 1 and twice[2].endswith("(approval_vote_already_cast)\n")
    settled = flowyard(capsys, *decide, "--as", "wes")
    assert settled[0] == 0 and settled[1][0].startswith(f"Approval {approval_id} approved by wes")


def test_a_command_run_as_a_user_speaks_their_language_in_their_time_zone(
    cli: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    """The terminal speaks English (LANG=C); `--as` a user whose settings say Japanese and Tokyo, the
    command speaks Japanese and writes the deadline in Tokyo's time, from the moment the user is known."""
    run_id, approval_id = waiting_approval(
        cli, approvers=["user:kenji", "user:anna"], deadline="P2D", on_timeout="reject"
    )
    flow_id = cli.one("SELECT flow_id FROM runs WHERE id = %s", run_id)
    assert flow_id is not None
    user(cli, "kenji", f"decide:{flow_id[0]}", f"run:{flow_id[0]}")
    user(cli, "anna", f"decide:{flow_id[0]}")
    with psycopg.connect(cli.url, autocommit=True) as conn:
        conn.execute("UPDATE users SET locale = 'ja', time_zone = 'Asia/Tokyo' WHERE name = 'kenji'")

    code, out, _ = flowyard(capsys, "approvals", "list", "--as", "kenji")
    assert code == 0 and len(out) == 1
    assert out[0].startswith(f"承認 {approval_id}：Pay A-7?（実行 {run_id}")
    assert "日本標準時" in out[0] and "UTC" not in out[0]
    english = flowyard(capsys, "approvals", "list", "--as", "anna")[1]  # no settings: the terminal's, UTC
    assert english[0].startswith(f"Approval {approval_id}: Pay A-7? (run {run_id}") and "UTC" in english[0]

    code, out, _ = flowyard(capsys, "run", str(flow_id[0]), "--as", "kenji")
    started = cli.one("SELECT max(id) FROM runs WHERE started_by = 'kenji'")
    assert started is not None and (code, out) == (0, [message("cli_run_started", "ja", run=started[0])])

    unknown = flowyard(capsys, "approvals", "list", "--as", "nobody")  # not known: the terminal's language
    refused = message("user_unknown", "en", name="nobody")
    assert unknown[0] == 1 and unknown[2] == f"flowyard: {refused} (user_unknown)\n"
    decided = flowyard(capsys, "approvals", "decide", str(approval_id), "reject", "--as", "kenji")
    said = message("approval_decided_rejected", "ja", approval=approval_id, user="kenji", run=run_id)
    assert decided == (0, [said], "")
