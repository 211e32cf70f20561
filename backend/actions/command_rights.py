"""Who may make a flow send commands: `use_server:NAME`, checked when a flow is saved and when it sends.

Saving a version whose `command` nodes (or their undos) name a server takes `use_server` on that
server, held by the one who saves, and each must name a template registered for its server, with literal
arguments that fit the template's types (arguments from templates are checked when the action is sent). When
the action is sent, the version's author must still hold the right: revoking it stops the commands of
every flow that author saved. The CLI (`flowyard flow save`, author `cli`) is the operator at the
database and holds every right.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from psycopg import AsyncConnection

from backend.actions import servers
from backend.actions.templates import TemplateSpec, args_problems, args_refusal
from backend.errors import CodedError
from backend.graph.explain import problem

# The author of what the CLI saves: a person with the database's own credentials.
OPERATOR = "cli"


class CommandRefused(CodedError):
    """A flow version whose command nodes may not be saved: an HTTP status, a reason code, its params."""

    status = 422  # a refusal of what was asked

    def __init__(self, status: int, *, code: str, **params: Any) -> None:
        super().__init__(code=code, **params)
        self.status = status  # type: ignore[misc]  # this refusal's own, where the class has a default


def command_nodes(document: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each command a document can send, by its node: the node's own config, then its undo's (a command
    too), which a cancelled run sends under the same rights."""
    for node in document.get("nodes") or ():
        if (
            isinstance(node, Mapping)
            and node.get("type") == "command"
            and isinstance(node.get("config"), Mapping)
        ):
            yield str(node.get("id")), node["config"]
            undo = node["config"].get("undo")
            if isinstance(undo, Mapping):
                yield str(node.get("id")), undo


async def check_commands(conn: AsyncConnection[Any], document: Mapping[str, Any], author: str | None) -> None:
    """Refuse a valid document whose command nodes its author may not save; nothing when it may."""
    for node_id, config in command_nodes(document):
        server = str(config.get("server"))
        if author != OPERATOR and not (author and await servers.may_use_server(conn, author, server)):
            raise CommandRefused(403, code="server_use_refused", server=server, node=node_id)
        spec = await servers.template(conn, server, str(config.get("template")))
        if spec is None:
            raise CommandRefused(
                422,
                code="command_template_unknown",
                server=server,
                template=str(config.get("template")),
                node=node_id,
            )
        args = config.get("args") or {}
        if not isinstance(args, Mapping):
            raise CommandRefused(
                422,
                code="command_args_invalid",
                node=node_id,
                arg="args",
                problem="problem_type",
                types=("object",),
            )
        literal = {
            name: value for name, value in args.items() if not (isinstance(value, str) and "{{" in value)
        }
        typed = {name: spec.params[name] for name in literal if name in spec.params}
        # Arguments that are templates are known only when the action is sent; the rest are checked now.
        problems = args_problems(TemplateSpec(spec.argv, typed), literal)
        problems += [
            (str(name), problem("problem_not_a_parameter")) for name in args if name not in spec.params
        ]
        if problems:
            raise CommandRefused(422, code="command_args_invalid", node=node_id, **args_refusal(problems))


async def may_send(conn: AsyncConnection[Any], run_id: int, server: str) -> bool:
    """Whether the author of the version run `run_id` walks still holds use_server on `server`."""
    author = await servers.version_author(conn, run_id)
    return author == OPERATOR or (author is not None and await servers.may_use_server(conn, author, server))
