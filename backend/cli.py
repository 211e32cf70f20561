"""`flowyard`: the one command-line entry point, and the one place each command is wired.

Each command is registered once, with `set_defaults(func=...)`: a handler named `module:function` that is
imported only when its command runs, so that `flowyard check` never loads the database driver and
`flowyard --help` is instant. A handler that needs the database gets its URL, the schema migrated first;
`serve`, `worker` and `migrate` are built in backend/processes.py, the one place that wires a process.

Every word of the command line's own is a catalog key in the terminal's language (`terminal_locale`,
docs/i18n.md "The command line"): help texts, headings, word metavars. A command line argparse cannot
read is refused as every refusal is, one coded line on stderr (exit code 2): `cli_argument_invalid`
says "takes a number", so every `type=` here is `int` or `float` (tests/test_cli.py holds it so).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

from backend.errors import CodedError
from backend.i18n import terminal
from backend.i18n.terminal import DEFAULT_LOCALE

Handler = Callable[[argparse.Namespace], int]


def _command(target: str, *, database: bool = True) -> Handler:
    """The handler `module:function` of one command, imported when it runs; with `database`, it is
    called as `function(args, url)` once the schema is migrated, else as `function(args)`. The settings
    are read and checked first, before anything touches the database (`Settings.from_environ`): a bad one
    is one coded line, never a traceback. The handler finds them in `args.settings`, and the environment
    (for a variable its command line names, `--token-env`) in `args.variables`."""

    def handle(args: argparse.Namespace) -> int:
        from backend.actions.failures import ActionFailure
        from backend.console import refuse
        from backend.settings import SettingInvalid
        from backend.store.errors import StoreError

        module, _, name = target.partition(":")
        function = getattr(importlib.import_module(module), name)
        try:
            _read_settings(args)
            if not database:
                return int(function(args))
            return int(function(args, _migrated_url(args.settings)))
        except (SettingInvalid, StoreError) as exc:
            return refuse(exc, exit_code=2)
        except ActionFailure as failure:  # the secret key: missing from the data folder, open to others
            return refuse(failure, exit_code=2)

    return handle


def _offline(target: str) -> Handler:
    """A command that needs no database (`check`, `walk`): its handler, imported when it runs."""

    def handle(args: argparse.Namespace) -> int:
        from backend.settings import SettingInvalid

        module, _, name = target.partition(":")
        function = getattr(importlib.import_module(module), name)
        try:
            _read_settings(args)
        except SettingInvalid as refused:
            from backend.console import refuse

            return refuse(refused, exit_code=2)
        return int(function(args))

    return handle


def _read_settings(args: argparse.Namespace) -> None:
    """Read the settings once, for the command to take from `args` (a bad one: `setting_invalid`)."""
    from backend.settings import Settings, environment

    args.settings, args.variables = Settings.from_environment(), environment()


def _migrated_url(settings: Any) -> str:
    from backend.store.database import connect, database_url
    from backend.store.migrations import migrate

    url = database_url(settings)
    with connect(url) as conn:
        migrate(conn)
    return url


class ArgumentsRefused(CodedError):
    """A command line argparse cannot read, with the parser that read it (for its usage line)."""

    def __init__(self, parser: argparse.ArgumentParser, *, code: str, **params: Any) -> None:
        super().__init__(code=code, **params)
        self.parser = parser


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, with the catalog's "usage:" and each help text as the catalog wrote it
    (never `%`-formatted: a translation may hold a `%`)."""

    usage_prefix = "usage: "

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, self.usage_prefix if prefix is None else prefix)

    def _expand_help(self, action: argparse.Action) -> str:
        return self._get_help_string(action) or ""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that speaks `locale` (a subclass per locale, so that every subparser, which
    argparse makes of the parser's own class, speaks it too) and refuses a command line with a reason
    code (`ArgumentsRefused`) rather than argparse's English."""

    locale = DEFAULT_LOCALE

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = terminal.message("cli_heading_arguments", self.locale)
        self._optionals.title = terminal.message("cli_heading_options", self.locale)
        self.add_argument(
            "-h",
            "--help",
            action="help",
            default=argparse.SUPPRESS,
            help=terminal.message("cli_help_help", self.locale),
        )

    def _get_formatter(self) -> argparse.HelpFormatter:
        formatter = _Formatter(prog=self.prog)
        formatter.usage_prefix = terminal.message("cli_usage", self.locale) + " "
        return formatter

    def _get_value(self, action: argparse.Action, arg_string: str) -> Any:
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError:
            raise ArgumentsRefused(
                self, code="cli_argument_invalid", option=_argument_name(action), given=arg_string
            ) from None

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is None or value in action.choices:
            return
        allowed = ", ".join(map(str, action.choices))
        if isinstance(action, argparse._SubParsersAction):
            raise ArgumentsRefused(self, code="cli_command_unknown", given=str(value), commands=allowed)
        raise ArgumentsRefused(self, code="cli_argument_choice", given=str(value), allowed=allowed)

    def error(self, message: str) -> NoReturn:
        """argparse's other refusals, told apart by its own (gettext) templates: an argument missing, one
        not known, an abbreviated option that could be several, an option without its value or with one
        it does not take; anything else with argparse's words as the detail."""
        missing = _argparse_text("the following arguments are required: %s").partition("%s")[0]
        if message.startswith(missing):
            raise ArgumentsRefused(self, code="cli_argument_missing", arguments=message[len(missing) :])
        unknown = _argparse_text("unrecognized arguments: %s").partition("%s")[0]
        if message.startswith(unknown):
            raise ArgumentsRefused(self, code="cli_argument_unknown", arguments=message[len(unknown) :])
        ambiguous = _argparse_text("ambiguous option: %(option)s could match %(matches)s")
        before, _, rest = ambiguous.partition("%(option)s")
        between = rest.partition("%(matches)s")[0]
        if message.startswith(before) and between in message:
            given, _, matches = message[len(before) :].partition(between)
            raise ArgumentsRefused(self, code="cli_option_ambiguous", given=given, arguments=matches)
        in_flight = sys.exc_info()[1]
        explicit = _argparse_text("ignored explicit argument %r").partition("%r")[0]
        if isinstance(in_flight, argparse.ArgumentError) and in_flight.message.startswith(explicit):
            option = in_flight.argument_name or ""
            raise ArgumentsRefused(self, code="cli_option_takes_no_value", option=option)
        expected = (_argparse_text("expected one argument"), _argparse_text("expected at least one argument"))
        if isinstance(in_flight, argparse.ArgumentError) and in_flight.message in expected:
            name = in_flight.argument_name or ""
            raise ArgumentsRefused(self, code="cli_argument_value_missing", option=name)
        raise ArgumentsRefused(self, code="cli_arguments_refused", detail=message)


def _one_of(*values: str) -> dict[str, Any]:
    """A positional argument's fixed values, named in usage, help and refusals as argparse shows them in
    usage (`{status,stop,url}`), never by its English `dest`."""
    return {"choices": values, "metavar": "{" + ",".join(values) + "}"}


def _argparse_text(template: str) -> str:
    """argparse's own sentence `template` as argparse says it (it calls `gettext.gettext`)."""
    from gettext import gettext

    return gettext(template)


def _argument_name(action: argparse.Action) -> str:
    """How the command line names an argument: its options, else its metavar, else its name."""
    if action.option_strings:
        return "/".join(action.option_strings)
    if isinstance(action.metavar, str):
        return action.metavar
    return action.dest


def _parser(locale: str = DEFAULT_LOCALE) -> argparse.ArgumentParser:
    """The whole command line, its help texts, headings and metavars in `locale` (from the catalogs)."""

    def message(code: str) -> str:
        return terminal.message(code, locale)

    parser_class: type[_Parser] = type("_Parser", (_Parser,), {"locale": locale})
    parser = parser_class(prog="flowyard", description=message("cli_description"))
    sub = parser.add_subparsers(dest="command", required=True, metavar=message("cli_metavar_command"))

    def command(name: str, text: str) -> Any:
        return sub.add_parser(name, help=text, description=text)

    serve = command("serve", message("cli_help_serve"))
    serve.set_defaults(func=_command("backend.processes:serve_command", database=False))
    serve.add_argument(
        "--host", default=None, metavar=message("cli_metavar_host"), help=message("cli_help_serve_host")
    )
    serve.add_argument(
        "--port",
        type=int,
        default=None,
        metavar=message("cli_metavar_port"),
        help=message("cli_help_serve_port"),
    )
    serve.add_argument("--no-worker", action="store_true", help=message("cli_help_serve_no_worker"))
    serve.add_argument("--workers", type=int, default=1, metavar="N", help=message("cli_help_serve_workers"))

    migrate = command("migrate", message("cli_help_migrate"))
    migrate.set_defaults(func=_command("backend.processes:migrate_command", database=False))

    worker = command("worker", message("cli_help_worker"))
    worker.set_defaults(func=_command("backend.processes:worker_command"))
    worker.add_argument(
        "--concurrency", type=int, default=10, metavar="N", help=message("cli_help_worker_concurrency")
    )
    worker.add_argument(
        "--lease",
        type=float,
        default=30.0,
        metavar=message("cli_metavar_seconds"),
        help=message("cli_help_worker_lease"),
    )
    worker.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar=message("cli_metavar_port"),
        help=message("cli_help_worker_metrics_port"),
    )
    worker.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        metavar=message("cli_metavar_host"),
        help=message("cli_help_worker_metrics_host"),
    )
    worker.add_argument("--fault-point", default=None, help=argparse.SUPPRESS)  # fault tests only
    worker.add_argument("--fault-poison-run", type=int, default=None, help=argparse.SUPPRESS)  # the same

    workers = command("workers", message("cli_help_workers"))
    workers.set_defaults(func=_command("backend.queue.commands:workers_command"))

    run = command("run", message("cli_help_run"))
    run.set_defaults(func=_command("backend.processes:run_command"))
    run.add_argument("flow", type=int, metavar=message("cli_metavar_flow_id"))
    run.add_argument("--input", default=None, metavar="JSON", help=message("cli_help_input"))
    run.add_argument(
        "--as",
        dest="as_user",
        default=None,
        metavar=message("cli_metavar_name"),
        help=message("cli_help_run_as"),
    )

    flow = command("flow", message("cli_help_flow"))
    flow.set_defaults(func=_command("backend.flows.commands:flow_command"))
    flow.add_argument("action", **_one_of("save"))
    flow.add_argument("file", metavar=message("cli_metavar_flow_file"))
    flow.add_argument(
        "--flow",
        type=int,
        default=None,
        metavar=message("cli_metavar_flow_id"),
        help=message("cli_help_flow_flow"),
    )

    db = command("db", message("cli_help_db"))
    db.set_defaults(func=_command("backend.store.commands:db_command", database=False))
    db.add_argument("action", **_one_of("status", "stop", "url"), help=message("cli_help_db_action"))

    runs = command("runs", message("cli_help_runs"))
    runs.set_defaults(func=_command("backend.processes:runs_command"))
    runs.add_argument("action", **_one_of("show", "resume", "end"))
    runs.add_argument("run", type=int, metavar=message("cli_metavar_run_id"))
    runs.add_argument(
        "--wait",
        type=float,
        default=None,
        metavar=message("cli_metavar_seconds"),
        help=message("cli_help_runs_wait"),
    )
    runs.add_argument("--version", type=int, default=None, metavar="N", help=message("cli_help_runs_version"))
    runs.add_argument("--dry-run", action="store_true", help=message("cli_help_runs_dry_run"))
    runs.add_argument("--json", action="store_true", help=message("cli_help_runs_json"))

    _add_people_parsers(command, message)
    _add_approvals_parsers(command, message)
    _add_policy_parsers(command, message)
    _add_audit_parsers(command, message)
    _add_action_parsers(command, message)

    check = command("check", message("cli_help_check"))
    check.set_defaults(func=_offline("backend.graph.cli:check_command"))
    check.add_argument("flow", metavar=message("cli_metavar_flow_file"))
    check.add_argument("--json", action="store_true", help=message("cli_help_check_json"))

    walk = command("walk", message("cli_help_walk"))
    walk.set_defaults(func=_offline("backend.walker.cli:walk_command"))
    walk.add_argument("flow", metavar=message("cli_metavar_flow_file"))
    walk.add_argument("--input", default=None, metavar="JSON", help=message("cli_help_input"))
    walk.add_argument(
        "--answer",
        action="append",
        default=[],
        metavar=message("cli_metavar_answer"),
        help=message("cli_help_walk_answer"),
    )
    walk.add_argument("--json", action="store_true", help=message("cli_help_walk_json"))
    return parser


Text = Callable[[str], str]
Command = Callable[[str, str], Any]


def _actions(parser: Any, message: Text) -> Any:
    """The subcommands (ACTION) of a command."""
    return parser.add_subparsers(dest="action", required=True, metavar=message("cli_metavar_action"))


def _add_people_parsers(command: Command, message: Text) -> None:
    """`user` and `token`: the admin's tools at the database, before and beside the API."""
    name = message("cli_metavar_name")
    rights = message("cli_metavar_rights")
    user = command("user", message("cli_help_user"))
    user.set_defaults(func=_command("backend.people.commands:run_people_command"))
    user_actions = _actions(user, message)
    add = user_actions.add_parser(
        "add", help=message("cli_help_user_add"), description=message("cli_help_user_add")
    )
    add.add_argument("name", metavar=name)
    add.add_argument(
        "--grant", action="append", default=[], metavar=rights, help=message("cli_help_user_grant_option")
    )
    add.add_argument(
        "--group",
        action="append",
        default=[],
        metavar=message("cli_metavar_group"),
        help=message("cli_help_user_group"),
    )
    add.add_argument("--admin", action="store_true", help=message("cli_help_user_admin"))
    add.add_argument(
        "--password-env",
        default=None,
        metavar=message("cli_metavar_var"),
        help=message("cli_help_user_password_env"),
    )
    add.add_argument(
        "--email", default=None, metavar=message("cli_metavar_address"), help=message("cli_help_user_email")
    )
    user_actions.add_parser(
        "list", help=message("cli_help_user_list"), description=message("cli_help_user_list")
    )
    for action, text in (
        ("grant", message("cli_help_user_grant")),
        ("revoke", message("cli_help_user_revoke")),
    ):
        change = user_actions.add_parser(action, help=text, description=text)
        change.add_argument("name", metavar=name)
        change.add_argument("rights", nargs="+", metavar=rights)
    text = message("cli_help_user_remove")
    remove = user_actions.add_parser("remove", help=text, description=text)
    remove.add_argument("name", metavar=name)

    token = command("token", message("cli_help_token"))
    token.set_defaults(func=_command("backend.people.commands:run_people_command"))
    token_actions = _actions(token, message)
    text = message("cli_help_token_create")
    create = token_actions.add_parser("create", help=text, description=text)
    create.add_argument("name", metavar=name, help=message("cli_help_token_user"))
    create.add_argument(
        "--expires-in",
        type=int,
        default=None,
        metavar=message("cli_metavar_days"),
        help=message("cli_help_token_expires"),
    )
    text = message("cli_help_token_list")
    listing = token_actions.add_parser("list", help=text, description=text)
    listing.add_argument(
        "name", nargs="?", default=None, metavar=name, help=message("cli_help_token_list_user")
    )
    text = message("cli_help_token_revoke")
    revoke = token_actions.add_parser("revoke", help=text, description=text)
    revoke.add_argument("id", type=int, metavar="ID")


def _add_approvals_parsers(command: Command, message: Text) -> None:
    """`approvals list|decide`: the approver without a browser, under the API's rules."""
    name = message("cli_metavar_name")
    approvals = command("approvals", message("cli_help_approvals"))
    approvals.set_defaults(func=_command("backend.approvals.commands:run_approvals_command"))
    actions = _actions(approvals, message)
    text = message("cli_help_approvals_list")
    listing = actions.add_parser("list", help=text, description=text)
    listing.add_argument(
        "--as", dest="as_user", default=None, metavar=name, help=message("cli_help_approvals_list_as")
    )
    listing.add_argument(
        "--after",
        default=None,
        metavar=message("cli_metavar_cursor"),
        help=message("cli_help_approvals_after"),
    )
    text = message("cli_help_approvals_decide")
    decide = actions.add_parser("decide", help=text, description=text)
    decide.add_argument("id", type=int, metavar="ID")
    decide.add_argument("outcome", **_one_of("approve", "reject"))
    decide.add_argument(
        "--comment",
        default=None,
        metavar=message("cli_metavar_text"),
        help=message("cli_help_approvals_comment"),
    )
    decide.add_argument(
        "--as", dest="as_user", required=True, metavar=name, help=message("cli_help_approvals_decide_as")
    )


def _add_policy_parsers(command: Command, message: Text) -> None:
    """`policy show|set`: the installation's policies (four eyes an admin can require)."""
    policy = command("policy", message("cli_help_policy"))
    policy.set_defaults(func=_command("backend.approvals.policy_commands:policy_command"))
    actions = _actions(policy, message)
    text = message("cli_help_policy_show")
    actions.add_parser("show", help=text, description=text)
    text = message("cli_help_policy_set")
    setting = actions.add_parser("set", help=text, description=text)
    setting.add_argument("name", **_one_of("self_approval"))
    setting.add_argument("value", **_one_of("per_node", "never"))


def _add_audit_parsers(command: Command, message: Text) -> None:
    """`audit verify`: the chained trail, checked in the database or in an export (docs/approvals.md)."""
    audit = command("audit", message("cli_help_audit"))
    actions = _actions(audit, message)
    text = message("cli_help_audit_verify")
    check = actions.add_parser("verify", help=text, description=text)
    check.add_argument("--flow", type=int, default=None, metavar="ID", help=message("cli_help_audit_flow"))
    check.add_argument(
        "--file", default=None, metavar=message("cli_metavar_export"), help=message("cli_help_audit_file")
    )
    check.add_argument("--json", action="store_true", help=message("cli_help_audit_json"))
    check.add_argument("--since-last", action="store_true", help=message("cli_help_audit_since_last"))
    check.add_argument(
        "--signed-heads",
        default=None,
        metavar=message("cli_metavar_file"),
        help=message("cli_help_audit_signed_heads"),
    )
    check.add_argument(
        "--public-key",
        default=None,
        action="append",
        metavar=message("cli_metavar_key"),
        help=message("cli_help_audit_public_key"),
    )
    check.set_defaults(func=_audit)
    text = message("cli_help_audit_sign")
    sign = actions.add_parser("sign", help=text, description=text)
    sign.set_defaults(func=_command("backend.approvals.chain_commands:run_sign_command"))
    text = message("cli_help_audit_key")
    key = actions.add_parser("public-key", help=text, description=text)
    key.set_defaults(func=_command("backend.approvals.chain_commands:run_key_command", database=False))
    text = message("cli_help_audit_evidence")
    evidence = actions.add_parser("evidence", help=text, description=text)
    evidence.add_argument("approval", type=int, metavar="ID", help=message("cli_help_audit_approval"))
    evidence.add_argument(
        "--output", default=None, metavar=message("cli_metavar_file"), help=message("cli_help_audit_output")
    )
    evidence.set_defaults(func=_command("backend.approvals.evidence_commands:run_evidence_command"))
    text = message("cli_help_audit_check_evidence")
    checking = actions.add_parser("check-evidence", help=text, description=text)
    checking.add_argument(
        "file", metavar=message("cli_metavar_file"), help=message("cli_help_audit_evidence_file")
    )
    checking.add_argument(
        "--public-key",
        required=True,
        action="append",
        metavar=message("cli_metavar_key"),
        help=message("cli_help_audit_evidence_key"),
    )
    checking.set_defaults(func=_offline("backend.approvals.evidence_commands:run_check_command"))


def _audit(args: argparse.Namespace) -> int:
    """An export is verified offline (no database); else the database's chains."""
    if args.file is not None:
        return _offline("backend.approvals.chain_commands:run_offline_verify")(args)
    return _command("backend.approvals.chain_commands:run_audit_command")(args)


def _add_action_parsers(command: Command, message: Text) -> None:
    """`server`, `template` and `secret`: the agents command nodes talk to, and the secret store."""
    name, server_name, var = (
        message("cli_metavar_name"),
        message("cli_metavar_server"),
        message("cli_metavar_var"),
    )
    server = command("server", message("cli_help_server"))
    server.set_defaults(func=_command("backend.actions.commands:run"))
    server_actions = _actions(server, message)
    text = message("cli_help_server_add")
    add = server_actions.add_parser("add", help=text, description=text)
    add.add_argument("name", metavar=name)
    add.add_argument("--url", required=True, metavar="URL", help=message("cli_help_server_url"))
    add.add_argument("--token-env", required=True, metavar=var, help=message("cli_help_server_token_env"))
    text = message("cli_help_server_list")
    server_actions.add_parser("list", help=text, description=text)
    text = message("cli_help_server_remove")
    remove = server_actions.add_parser("remove", help=text, description=text)
    remove.add_argument("name", metavar=name)

    template = command("template", message("cli_help_template"))
    template.set_defaults(func=_command("backend.actions.commands:run"))
    template_actions = _actions(template, message)
    text = message("cli_help_template_add")
    add = template_actions.add_parser("add", help=text, description=text)
    add.add_argument("server", metavar=server_name)
    add.add_argument("name", metavar=name)
    add.add_argument("--argv", required=True, metavar="JSON", help=message("cli_help_template_argv"))
    add.add_argument("--params", default="{}", metavar="JSON", help=message("cli_help_template_params"))
    text = message("cli_help_template_list")
    listing = template_actions.add_parser("list", help=text, description=text)
    listing.add_argument(
        "--server", default=None, metavar=server_name, help=message("cli_help_template_server")
    )
    text = message("cli_help_template_remove")
    remove = template_actions.add_parser("remove", help=text, description=text)
    remove.add_argument("server", metavar=server_name)
    remove.add_argument("name", metavar=name)

    secret = command("secret", message("cli_help_secret"))
    secret.set_defaults(func=_command("backend.actions.commands:run"))
    secret_actions = _actions(secret, message)
    text = message("cli_help_secret_set")
    put = secret_actions.add_parser("set", help=text, description=text)
    put.add_argument("name", metavar=name)
    put.add_argument("--from-env", default=None, metavar=var, help=message("cli_help_secret_from_env"))
    text = message("cli_help_secret_list")
    secret_actions.add_parser("list", help=text, description=text)
    text = message("cli_help_secret_remove")
    remove = secret_actions.add_parser("remove", help=text, description=text)
    remove.add_argument("name", metavar=name)
    text = message("cli_help_secret_rotate")
    secret_actions.add_parser("rotate", help=text, description=text)


# The crash tests' commit counter (backend/store/commits.py): armed only when the environment asks.
_CRASH_SETTINGS = {"FLOWYARD_CRASH_AFTER_COMMIT", "FLOWYARD_CRASH_BEFORE_COMMIT", "FLOWYARD_COUNT_COMMITS"}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command `argv` names (`sys.argv` by default) and return its exit code: 2 for a command
    line that cannot be read, after argparse's usage line, one coded line as every refusal is."""
    from backend.settings import environment

    terminal.speak(terminal.terminal_locale(environment()))
    try:
        args = _parser(terminal.spoken()).parse_args(argv)
    except ArgumentsRefused as refused:
        from backend.console import refuse

        refused.parser.print_usage(sys.stderr)
        return refuse(refused, exit_code=2)
    handler: Handler = args.func
    if _CRASH_SETTINGS & environment().keys():
        from backend.console import refuse
        from backend.store.commits import arm_from_environment
        from backend.store.errors import StoreError

        try:
            arm_from_environment(environment())
        except StoreError as error:
            return refuse(error, exit_code=2)
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
