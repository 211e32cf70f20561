"""Every statement the program runs is a named statement (docs/architecture.md, "Every statement has a
name"): the main stories are told to a real server and worker with the database logging each statement it
receives, and every one logged is found among the `-- name:` blocks of a queries file, or is allowed by a
rule of tests/store/named.py that says why. The named statements' plans are checked by the packages'
test_plans.py files; tests/store/test_plans_cover.py holds that each name is checked there.
"""

from __future__ import annotations

import psycopg
import pytest

from tests.actions.servers import recording_server, smtp_server
from tests.observability.live import started
from tests.store import stories
from tests.store.named import named_statements, normalised, unnamed
from tests.store.statement_log import database_of, logging_statements, quiet

# The retentions make the worker's first heartbeat sweep ended runs, records and decided approvals.
RETENTIONS = {
    "FLOWYARD_RUN_RETENTION_DAYS": "30",
    "FLOWYARD_RUN_RECORD_RETENTION_DAYS": "30",
    "FLOWYARD_APPROVAL_RETENTION_DAYS": "400",
}


@pytest.fixture(scope="module")
def executed(pg_server_url: str, database_url: str, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """What the server ran for the module's database while the stories were told."""
    log = tmp_path_factory.mktemp("statements") / "serve.log"
    with (
        logging_statements(pg_server_url, database_of(database_url)) as statement_log,
        smtp_server() as (mailbox, port),
        recording_server() as receiver,
    ):
        env = {"FLOWYARD_SMTP_HOST": "127.0.0.1", "FLOWYARD_SMTP_PORT": str(port), **RETENTIONS}
        with started(["serve", "--port", "0"], database_url, log, **env) as server:
            stage = stories.Stage(server.base, database_url, quiet(database_url), receiver, mailbox)
            _tell(stage)
        return statement_log.statements()


def _tell(stage: stories.Stage) -> None:
    boss, legal, finance = stage.users(
        stories.person("boss", "admin", "edit", "run", "audit", "send_events"),
        stories.person("lee", "decide", groups=("legal",)),
        stories.person("fin", "decide", groups=("finance",), email="fin@example.test"),
    )
    stories.login_and_out(stage)
    flow_id = stories.parallel_approvals_and_payment(stage, boss, legal, finance)
    stories.event_answers_a_wait(stage, boss)
    stories.delay_and_webhook(stage, boss)
    stories.stop_resume_end_and_cancel(stage, boss)
    stories.reading_everything(stage, boss, flow_id)
    stories.people_and_settings(stage, boss, flow_id)
    stage.cli(["runs", "show", "1"], ["workers"])


def test_every_statement_the_stories_ran_is_named_or_allowed_by_a_rule(executed: list[str]) -> None:
    found = unnamed(executed, named_statements())
    assert found == [], "statements run without a name:\n" + "\n".join(found)


# One statement of each story and process: proof that the capture saw the stories, and that they went
# where they say (a story that silently did nothing would make the test above pass on nothing).
SEEN = {
    "queue/queries.sql:claim",
    "queue/queries.sql:heartbeat",
    "queue/queries.sql:append_journal",
    "approvals/queries.sql:decide",
    "actions/queries.sql:open_effect",
    "events/queries.sql:register",
    "events/queries.sql:deliver",
    "people/queries.sql:insert_session",
    "approvals/queries.sql:audit",
    "approvals/queries.sql:claim_approval_mails",
    "approvals/queries.sql:approval_mail_done",
    "approvals/queries.sql:sweep_decided_approvals",
    "queue/queries.sql:sweep_ended_runs",
    "events/queries.sql:sweep_events",
    "queue/run_page.sql:run_page",
    "queue/queries.sql:upsert_schedule",
    "people/queries.sql:remove_user",
    "approvals/queries.sql:end_delegation",
}


def test_the_capture_saw_every_story(executed: list[str]) -> None:
    names = named_statements()
    seen = {names[text] for text in map(normalised, executed) if text in names}
    assert SEEN - seen == set()


def test_the_capture_finds_what_the_test_itself_would_run_unnamed(
    pg_server_url: str, database_url: str
) -> None:
    """The capture is the server's: a statement no queries file holds is found, whoever sends it."""
    with logging_statements(pg_server_url, database_of(database_url)) as statement_log:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute("SELECT count(*) FROM runs WHERE id > %s", (0,))
        found = unnamed(statement_log.statements(), named_statements())
    assert found == ["SELECT count(*) FROM runs WHERE id > ?"]
