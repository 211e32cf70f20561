"""The names a reader sees for the product's identifiers: run statuses, trigger kinds, effect states,
rights and wait kinds, in the reader's language. The identifier stays in the machine-readable field
beside the name (`status`, `trigger`, `state`); the name is what a sentence, a CSV cell or a page shows.

Each name is a catalog key written out here, so the guard holds it to the nine catalogs; `cited_name`
in catalogs.py finds them by the same key patterns when a sentence cites an identifier as a parameter.

Examples:
    >>> status_name("failed", "de"), trigger_name("webhook", "ja"), right_name("decide", "fr")
    ('Fehlgeschlagen', 'Webhook', 'Décider')
"""

from __future__ import annotations

from backend.i18n.catalogs import message


def status_name(status: str, locale: str) -> str:
    """A run's status (`running`, `waiting`, `stopped`, `succeeded`, `failed`, `cancelled`) as a reader
    says it: the one family of status words, which the pages read too (frontend/src/runs/format.ts)."""
    code = {
        "running": "run_status_running",
        "waiting": "run_status_waiting",
        "stopped": "run_status_stopped",
        "succeeded": "run_status_succeeded",
        "failed": "run_status_failed",
    }.get(status, "run_status_cancelled")
    return message(code, locale)


def trigger_name(trigger: str, locale: str) -> str:
    """How a run was started (`manual`, `webhook`, `schedule`)."""
    code = {"manual": "trigger_kind_manual", "webhook": "trigger_kind_webhook"}.get(
        trigger, "trigger_kind_schedule"
    )
    return message(code, locale)


def effect_state_name(state: str, locale: str) -> str:
    """An action's effect: `sent` (an answer is recorded), `failed` (an error is), `pending`."""
    code = {"sent": "effect_state_sent", "failed": "effect_state_failed"}.get(state, "effect_state_pending")
    return message(code, locale)


def right_name(right: str, locale: str) -> str:
    """A right (`edit`, `run`, `decide`, `audit`, `admin`, `send_events`)."""
    code = {
        "edit": "right_name_edit",
        "run": "right_name_run",
        "decide": "right_name_decide",
        "audit": "right_name_audit",
        "send_events": "right_name_send_events",
    }.get(right, "right_name_admin")
    return message(code, locale)


def wait_kind_name(kind: str, locale: str) -> str:
    """What a run waits for: its `start`, an `approval`, a `delay`, an `event` (named as their node types),
    a `retry` of a branch's failed action."""
    code = {
        "approval": "node_type_approval",
        "delay": "node_type_delay",
        "event": "node_type_wait_event",
        "retry": "wait_kind_retry",
    }.get(kind, "wait_kind_start")
    return message(code, locale)


def port_name(port: str | None, locale: str) -> str:
    """A node's out port (`approve`, `reject`, `error`, ...) by its catalog name; empty for none."""
    return "" if not port else message(f"port_{port}", locale)


def resume_outcome_name(outcome: str, locale: str) -> str:
    """How a pause ended, as `run_resumed` cites it: a port it follows, or its deadline passing."""
    code = {
        "approve": "port_approve",
        "reject": "port_reject",
        "out": "port_out",
        "error": "port_error",
        "passed": "outcome_passed",  # a delay's time is over
    }.get(outcome, "outcome_timeout")
    return message(code, locale)


def timeout_rule_name(rule: str | None, locale: str) -> str:
    """An approval's `on_timeout` rule (`approve`, `reject`, `skip`); empty for none."""
    if not rule:
        return ""
    code = {"approve": "timeout_rule_approve", "reject": "timeout_rule_reject"}.get(rule, "timeout_rule_skip")
    return message(code, locale)


def value_type_name(json_type: str, locale: str) -> str:
    """A JSON type a setting must have (`object`, `array`, `string`, ...), as `problem_type` cites it in
    `{types}` ("an object", "a list", "a text")."""
    code = {
        "object": "value_type_object",
        "array": "value_type_array",
        "string": "value_type_string",
        "number": "value_type_number",
        "integer": "value_type_integer",
        "boolean": "value_type_boolean",
    }.get(json_type, "value_type_null")
    return message(code, locale)


def chain_record_kind_name(kind: str, locale: str) -> str:
    """What a record of the audit chain is about (`decision`, `vote`, `rights`), as a chain break cites it."""
    code = {"decision": "chain_record_kind_decision", "vote": "chain_record_kind_vote"}.get(
        kind, "chain_record_kind_rights"
    )
    return message(code, locale)
