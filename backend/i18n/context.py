"""What a translator is told about each key, beside the English sentence: where a reader meets it, what
each placeholder holds, and an example with the placeholders filled. The extractor writes these as
`#.` comments into locales/messages.pot, and `make catalogs` carries them into every `.po` file.

`PLACEHOLDERS` is also the set of sample parameters `tests/i18n/test_rendered.py` renders every sentence
with, in every locale and the pseudo-locale. A new placeholder name needs a line here; the guard fails
without one (`unexplained_placeholders`).

Examples:
    >>> english = "Loop {node} finished after {passes} passes."
    >>> for line in translator_comments("backend/walker/loops.py", english):
    ...     print(line)
    Shown: in a run's journal, on the run page and in the API's answer for the run
    {node}: the id of a node, as the flow's author named it (e.g. check_invoice)
    {passes}: a count of loop passes (e.g. 3)
    Example: Loop check_invoice finished after 3 passes.
"""

from __future__ import annotations

from backend.i18n.placeholders import fill, placeholders
from backend.i18n.ui_context import ui_shown

# name: (what it holds, an example value). Values that are identifiers (`type`, `port`, `error`, ...)
# are shown as their own translated names; the example is the English name, as a reader sees it.
PLACEHOLDERS: dict[str, tuple[str, str]] = {
    "address": ("an IP address", "10.0.0.7"),
    "allowed": ("the values a setting may take, listed", "debug, info, warning"),
    "answer": ("what was given on the command line after --answer", "approve_invoice=maybe"),
    "approval": ("the number of an approval", "42"),
    "arguments": ("command-line arguments, listed as they were given or named", "FLOW_ID, --as"),
    "approvers": ("the users and groups who may decide, listed", "anna, finance"),
    "at": ("a date and time, in the reader's zone", "01.03.2026, 15:05:00 CET"),
    "attempt": ("which attempt this was, a number", "2"),
    "attempts": ("a count of attempts", "3"),
    "base": ("a version number of a flow", "4"),
    "destination": (
        "where an action goes, as the flow's author wrote it, templates unrendered",
        "https://pay.example/{{trigger.invoice}}",
    ),
    "by": ("the name of a user", "anna"),
    "commands": ("the commands of flowyard (or of one of its commands), listed", "serve, migrate, worker"),
    "column": ("a column in a line of text, counted from 1", "14"),
    "count": ("a count of things the sentence names", "3"),
    "cursor": ("an opaque position in a list, to paste back", "2026-03-01T14:05:00+00:00/17"),
    "days": ("a count of days", "2"),
    "deadline": ("a date and time, in the reader's zone", "01.03.2026, 15:05:00 CET"),
    "depth": ("a count of nesting levels", "4"),
    "detail": ("a technical detail, in English, from a library or a server", "timed out"),
    "duration": ("a duration", "2 hours and 30 minutes"),
    "email": ("an e-mail address", "anna@example.com"),
    "endpoint": ("a path of the API", "/api/runs"),
    "error": ("the sentence of another reason code, translated", "the approval was rejected"),
    "event": ("the name of an event a wait step waits for, as the flow's author wrote it", "payment"),
    "exit_code": ("a program's exit status, a number", "2"),
    "expected": (
        "what the program expected: a pause (node@visit), or a sentence of its own, translated",
        "ask@2",
    ),
    "field": ("the title of a setting of a node, as its field in the editor is titled, translated", "URL"),
    "file": ("a file's path", "/etc/flowyard/key"),
    "first": ("the id of a node", "start"),
    "flow": ("the name or number of a flow", "Invoice approval"),
    "found": ("a version or migration number that was found", "12"),
    "given": ("a value given on the command line", "0"),
    "got": ("what the program was given instead, in English", "a string"),
    "effect_key": ("an action's idempotency key, as sent to the receiver", "fy-42-7-1a2b3c4d5e6f"),
    "host": ("a host name", "db.example.com"),
    "hours": ("a count of hours", "5"),
    "id": ("a number or an id that identifies the thing", "17"),
    "key": ("a key of a JSON object", "name"),
    "kind": ("what a run waits for, translated", "Approval"),
    "known": ("a migration number this release knows", "11"),
    "limit": ("a number that may not be exceeded", "1000"),
    "line": ("a line of text, counted from 1", "3"),
    "link": ("a web address", "https://flowyard.example/approvals/42"),
    "loop": ("the id of a loop node", "each_invoice"),
    "max": ("a largest allowed number", "100"),
    "message": ("a whole sentence, already translated", "The flow was saved."),
    "minutes": ("a count of minutes", "15"),
    "mode": ("a file's permissions, in octal", "0644"),
    "name": ("a name a person chose (a user, a secret, a server, a group)", "anna"),
    "needed": ("a version number that is needed", "15"),
    "newest": ("a version number of a flow", "5"),
    "next": ("the id of the next thing", "18"),
    "node": ("the id of a node, as the flow's author named it", "check_invoice"),
    "parallel": ("the id of a parallel node, as the flow's author named it", "both_approve"),
    "wait": ("how many arrivals or branches a join or parallel node waits for", "3"),
    "wires": ("how many wires lead into a node or leave its port", "2"),
    "number": ("a migration number", "0009"),
    "offset": ("a position in a file, in bytes", "120"),
    "option": ("a command-line option", "--input"),
    "outcome": ("how an approval ended, translated", "Approved"),
    "param": ("the name of a parameter of a command template", "path"),
    "pass": ("which pass of a loop this is, a number", "2"),
    "passes": ("a count of loop passes", "3"),
    "path": ("a file's path, or a list of node ids", "flows/invoice.json"),
    "pointer": ("a JSON Pointer into the flow document", "/nodes/2/config/url"),
    "port": ("the name of a node's out port, translated", "Approved"),
    "position": ("a position in a list, a number", "2"),
    "problem": (
        "what is wrong, a sentence of its own (a problem_* key), translated",
        "A value is required here",
    ),
    "reason": ("why, translated when it is a reason code, else in English", "Expecting value"),
    "recorded": ("the id of a node", "notify_team"),
    "retry_in_s": ("a count of seconds", "60"),
    "right": ("the name of a right, translated", "Decide"),
    "rights": ("names of rights, listed", "edit, run"),
    "run": ("the number of a run", "1234"),
    "seconds": ("a count of seconds", "30"),
    "server": ("the name of a registered server", "billing"),
    "source": ("the id of a node a wire leaves", "start"),
    "state": ("a run's status, translated", "Failed"),
    "status": ("an HTTP status number, or a run's status, translated", "503"),
    "target": ("the id of a node a wire leads to", "notify_team"),
    "template": ("the name of a command template", "backup"),
    "timeout_s": ("a count of seconds", "30"),
    "title": ("an approval's title, as the flow's author wrote it", "Pay invoice 2026-117?"),
    "to": ("an e-mail address", "anna@example.com"),
    "type": ("the name of a node type, translated", "Approval"),
    "until": ("a date and time, in the reader's zone", "01.03.2026, 15:05:00 CET"),
    "url": ("a web address", "https://billing.example.com"),
    "user": ("the name of a user", "anna"),
    "value": ("a value as it was given", "loud"),
    "var": ("the name of an environment variable", "ADMIN_PASSWORD"),
    "variable": ("the name of an environment variable", "FLOWYARD_LOG"),
    "version": ("a version number of a flow", "3"),
    "visit": ("the number of a visit of a node in a run", "7"),
    "when": ("a date and time, in the reader's zone", "01.03.2026, 15:05:00 CET"),
    "who": ("the name of a user", "anna"),
    "x": ("a card's place across the canvas, in the canvas's units", "240"),
    "y": ("a card's place down the canvas, in the canvas's units", "480"),
    "zone": (
        "a time zone: its name in the reader's language, or the IANA name a user gave",
        "Central European Standard Time",
    ),
    "chain": ("the name of a chain of the audit trail: flow:ID, or global", "flow:12"),
    "current": ("a version number of a flow, the one a run is on", "3"),
    "after": ("an ISO 8601 duration from the node's config, as written", "PT4H"),
    "approves": ("a count of approving votes so far", "1"),
    "breaks": ("a count of places where the chained trail is broken", "2"),
    "chains": ("a count of chains of the audit trail (one per flow)", "4"),
    "lines": ("a count of lines of the signed heads file", "12"),
    "choice": ("a vote's choice, translated", "Approved"),
    "digest": ("a SHA-256 digest, in hexadecimal", "9f86d081884c7d65"),
    "part": ("the name of a part of an evidence file, translated", "the run"),
    "delegation": ("the number of a delegation", "7"),
    "hash": ("a SHA-256 hash, in hexadecimal", "9f86d081884c7d65"),
    "missing": ("node ids, listed", "check_invoice, pay"),
    "named": ("a count of users an approval names", "2"),
    "seen_approval": ("the number of the approval a person decided on, as their page showed it", "43"),
    "quorum": ("how many approvers must approve, a number", "2"),
    "records": ("a count of records of the audit trail", "1,204"),
    "ref": ("the number of the decision, vote or rights change a record is about", "42"),
    "seq": ("the position of a record in its chain, a number", "17"),
    "undos": ("the undo steps still to run, listed by node id", "reserve, charge"),
    "visits": ("node ids in the order a walk visited them, listed", "start, check_invoice, ask"),
    "voter": ("the name of a user who voted", "anna"),
    "where": ("the address of the API export that keeps the run's record", "/api/audit/runs?run=6"),
    "branches": ("how many branches a parallel has, or how many wires lead into a join", "3"),
    "branch": ("the number of a parallel's branch, counted from 1 in the order of its wires", "2"),
    # The command line's own lines (flowyard workers, migrate, db, worker).
    "worker": ("a worker process's name: host, process id and a random part", "build-7/4121/a1b2"),
    "started": ("a date and time, in the reader's zone", "01.03.2026, 15:05:00 CET"),
    "heartbeat": ("a date and time, in the reader's zone", "01.03.2026, 15:07:30 CET"),
    "concurrency": ("how many runs a worker walks at once, a number", "10"),
    "silent": ("a duration", "5 minutes and 12 seconds"),
    "migration": ("a database migration's file name", "0011_user_time_zone"),
    "folder": ("a folder's path", "/var/lib/flowyard/pgdata"),
    "pid": ("a process id, a number", "4121"),
    "types": ("kinds of value (value_type_* keys, translated), listed as alternatives", "a text or null"),
    "values": (
        "the values a setting may take, as the flow writes them, listed as alternatives",
        '"GET" or "POST"',
    ),
    "keys": ("titles of settings of a node, translated, listed as alternatives", "Duration or Until"),
    "keyword": ("a JSON Schema keyword, as written", "format"),
    "arg": ("the name of an argument of a command, as the flow's author wrote it", "unit"),
    # The run and inbox pages (frontend/src/runs, inbox).
    "left": ("the time left, in the reader's words, zero units left out", "23 hours, 5 minutes"),
    "delegator": ("the name of the user a delegate decided for", "anna"),
}

# Where a reader meets a key, by the source path that uses it (first match wins).
_SHOWN: tuple[tuple[str, str], ...] = (
    ("frontend/", "on a page of the editor or the web app"),
    ("backend/processes", "in the output of flowyard serve, worker or migrate"),
    ("backend/queue/commands", "in the output of a flowyard command"),
    ("backend/flows/commands", "in the output of a flowyard command"),
    ("backend/store/commands", "in the output of a flowyard command"),
    ("backend/approvals/mail", "in the mail an approver receives"),
    ("backend/approvals/audit", "in the audit export (CSV and JSON) and the audit page"),
    ("backend/walker/cli", "in the output of the command flowyard walk"),
    ("backend/walker", "in a run's journal, on the run page and in the API's answer for the run"),
    ("backend/queue", "in a run's journal, on the run page and in the API's answer for the run"),
    ("backend/graph", "as a finding of flow validation, in the editor and the API"),
    ("backend/flows", "as a finding of flow validation, in the editor and the API"),
    ("backend/people/commands", "in the output of a flowyard command"),
    ("backend/actions/commands", "in the output of a flowyard command"),
    ("backend/approvals/commands", "in the output of a flowyard command"),
    ("backend/cli", "in the output of a flowyard command"),
    ("backend/actions/secret", "in the output of a flowyard command and the server's log"),
    ("backend/actions", "in a run's journal and on the run page, when an action is sent or fails"),
    ("backend/approvals", "in the inbox, on the approval page and in the API's answers about approvals"),
    ("backend/people", "in an error of the API (logins, users, rights) or of a flowyard command"),
    ("backend/store", "in the output of flowyard migrate and serve, and the server's log"),
    ("backend/observability", "in the server's log and its health and metrics answers"),
    ("backend/api", "in an error or answer of the API, which the pages show"),
    ("backend/", "in a message of the server, its logs or its API"),
)
# Where a reader meets the names of identifiers, which the pages show as well as the server's sentences, by
# the key's prefix: the source file that writes them (backend/i18n/names.py) says nothing of that.
_SHOWN_BY_KEY: tuple[tuple[str, str], ...] = (
    (
        "run_status_",
        "as a run's status: on the runs page (list and filter), the run page, the flows page (last run)"
        " and in sentences about a run",
    ),
    (
        "effect_state_",
        "as the state of an action's effect: on the run page (actions and their effects) and in sentences",
    ),
    (
        "trigger_kind_",
        "as how a run was started: on the runs page (list and filter), the run page and in sentences",
    ),
    (
        "outcome_",
        "as how an approval ended: on the run page, the inbox, the approval page, the audit page and"
        " export, and in sentences",
    ),
    (
        "json_problem_",
        "inside another sentence, as why a text is no JSON: a flow file or --input of a flowyard command",
    ),
    (
        "file_problem_",
        "inside another sentence, as why a flowyard command cannot read a file it was given",
    ),
    (
        "timeout_rule_",
        "as a choice of what happens when an approval's deadline passes: in the approval node's settings"
        " panel, the audit export and sentences",
    ),
)
# What a translator must know about a kind of key, by the key's prefix (first match wins).
_KEY_NOTES: tuple[tuple[str, str], ...] = (
    (
        "cli_metavar_",
        "Note: a word standing for a value in flowyard --help (FLOW_ID in: flowyard run FLOW_ID);"
        " capitals where the language has them, no spaces",
    ),
    ("cli_help_", "Note: a line of flowyard --help; lower case, no full stop, as the English"),
    ("cli_heading_", "Note: a heading of flowyard --help, followed by a colon"),
    ("cli_token_state_", "Note: one word in a column of flowyard token list, beside a date; lower case"),
)


def key_notes(key: str) -> list[str]:
    """What a translator must know about `key` beyond the sentence and where it is shown."""
    return [note for prefix, note in _KEY_NOTES if key.startswith(prefix)][:1]


NODE_TYPE_SHOWN = "as the name of a node type or port: palette, canvas, lists and sentences about a run"


def shown_where(path: str) -> str:
    """Where a reader meets a key used in the source file at `path`."""
    return next((text for prefix, text in _SHOWN if path.startswith(prefix)), _SHOWN[-1][1])


def shown_lines(path: str, key: str | None = None, paths: tuple[str, ...] = ()) -> list[str]:
    """The `Shown:` lines for `key` used at `path`: for an editor's key, what it is and where
    (`ui_context.py`), one line per page file of `paths` (every file that uses it; `path` alone when
    empty); for the server's keys, where a reader meets them.

    Examples:
        >>> shown_lines("frontend/src/flows/Toolbar.tsx", "ui_toolbar_save")
        ["Shown: a button, on the editor's toolbar"]
        >>> shown_lines("backend/i18n/names.py", "run_status_failed")[0][:28]
        "Shown: as a run's status: on"
    """
    if path.startswith("frontend/") and key is not None:
        found = (ui_shown(key, each) for each in paths or (path,))
        return [f"Shown: {shown}" for shown in found if shown]
    by_key = next((text for prefix, text in _SHOWN_BY_KEY if key and key.startswith(prefix)), None)
    return [f"Shown: {by_key or shown_where(path)}"]


def translator_comments(
    path: str, english: str | None, key: str | None = None, paths: tuple[str, ...] = ()
) -> list[str]:
    """The `#.` lines for `key` used at `path` (and `paths`, see `shown_lines`) whose English sentence is
    `english`, the English aside."""
    lines = shown_lines(path, key, paths)
    if english is None:
        return lines
    names = sorted(placeholders(english), key=english.index)
    lines += [
        f"{{{name}}}: {PLACEHOLDERS[name][0]} (e.g. {PLACEHOLDERS[name][1]})"
        for name in names
        if name in PLACEHOLDERS
    ]
    if names:
        lines.append("Example: " + fill(english, {name: sample(name) for name in names}))
    return lines


def sample(name: str) -> str:
    """A placeholder's example value."""
    return PLACEHOLDERS.get(name, ("", name))[1]


def unexplained_placeholders(english: dict[str, str]) -> dict[str, list[str]]:
    """The placeholder names of English sentences that `PLACEHOLDERS` does not explain, with their keys."""
    found: dict[str, list[str]] = {}
    for key, sentence in english.items():
        for name in placeholders(sentence):
            if name not in PLACEHOLDERS:
                found.setdefault(name, []).append(key)
    return found
