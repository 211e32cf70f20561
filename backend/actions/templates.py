"""Command templates: an argument vector an admin registered for one server, with typed parameters.

A template's `argv` is a list of strings; `{name}` inside an element is a parameter, replaced by the
node's argument of that name as text, and the element stays one argument whatever the value holds (a
space, a `;`, a quote). `params` gives each parameter a JSON Schema of a scalar (`string`, `integer`,
`number` or `boolean`, with `pattern`, `enum`, `minimum`, `maximum`, `minLength`, `maxLength`); a node's
`args` must give every parameter and nothing else. The agent receives the finished vector and runs it
without a shell (docs/actions.md).

Examples:
    >>> unit = {"unit": {"type": "string", "pattern": "^[a-z-]+$"}}
    >>> spec = check_template(["systemctl", "restart", "{unit}"], unit)
    >>> build_argv(spec, {"unit": "nginx; rm -rf /"})
    Traceback (most recent call last):
    ...
    backend.actions.failures.ActionFailure: command_args_invalid
    >>> build_argv(spec, {"unit": "nginx"})
    ['systemctl', 'restart', 'nginx']
    >>> build_argv(check_template(["sleep", "{s}"], {"s": {"type": "integer", "maximum": 60}}), {"s": 5})
    ['sleep', '5']
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from backend.actions.failures import ActionFailure
from backend.graph.explain import Path, Problem, describe, path_key

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]{0,63})\}")
_TYPES = {"string", "integer", "number", "boolean"}
_KEYWORDS = {"type", "pattern", "enum", "minimum", "maximum", "minLength", "maxLength", "description"}
MAX_ARGV = 256
MAX_ELEMENT = 4096


@dataclass(frozen=True, slots=True)
class TemplateSpec:
    argv: list[str]
    params: dict[str, dict[str, Any]]


def check_template(argv: Any, params: Any) -> TemplateSpec:
    """A template as an admin gives it, checked: every placeholder typed, every parameter used."""
    if not isinstance(argv, list) or not argv or len(argv) > MAX_ARGV:
        raise ActionFailure(code="template_argv_invalid", problem="problem_argv_shape", limit=MAX_ARGV)
    if not all(isinstance(element, str) and 0 < len(element) <= MAX_ELEMENT for element in argv):
        raise ActionFailure(code="template_argv_invalid", problem="problem_argv_element", limit=MAX_ELEMENT)
    if _PLACEHOLDER.search(argv[0]):
        raise ActionFailure(code="template_argv_invalid", problem="problem_argv_program")
    if not isinstance(params, Mapping):
        raise ActionFailure(
            code="template_params_invalid", param="", problem="problem_type", types=("object",)
        )
    used = {name for element in argv for name in _PLACEHOLDER.findall(element)}
    for name in sorted(used - set(params)):
        raise ActionFailure(code="template_params_invalid", param=name, problem="problem_param_untyped")
    for name in sorted(set(params) - used):
        raise ActionFailure(code="template_params_invalid", param=name, problem="problem_param_unused")
    for name, schema in params.items():
        _check_param(str(name), schema)
    return TemplateSpec(list(argv), {str(name): dict(schema) for name, schema in params.items()})


def _check_param(name: str, schema: Any) -> None:
    if not isinstance(schema, Mapping) or schema.get("type") not in _TYPES:
        raise ActionFailure(
            code="template_params_invalid",
            param=name,
            problem="problem_param_type",
            values=tuple(json.dumps(one) for one in sorted(_TYPES)),
        )
    unknown = set(schema) - _KEYWORDS
    if unknown:
        raise ActionFailure(
            code="template_params_invalid", param=name, problem="problem_param_keyword", keyword=min(unknown)
        )
    try:
        Draft202012Validator.check_schema(dict(schema))
    except SchemaError as error:
        # jsonschema's words stay for machines (`detail`); a person reads the problem's sentence.
        raise ActionFailure(
            code="template_params_invalid", param=name, problem="problem_param_schema", detail=error.message
        ) from None


def args_problems(spec: TemplateSpec, args: Any) -> list[tuple[str, Problem]]:
    """What is wrong with a node's `args` for this template: (argument, problem) each, in the arguments'
    order; empty when they fit. Never the offending value: an argument may hold what its author did not
    mean to show."""
    schema = {
        "type": "object",
        "properties": spec.params,
        "required": sorted(spec.params),
        "additionalProperties": False,
    }
    given = {} if args is None else args
    errors = Draft202012Validator(schema).iter_errors(given)
    found = [(path, said) for error in errors for path, said in describe(error)]
    return [
        ("/".join(str(part) for part in path) or "args", said) for path, said in sorted(found, key=_by_path)
    ]


def _by_path(found: tuple[Path, Problem]) -> tuple[tuple[tuple[int, int, str], ...], str]:
    return path_key(found[0]), found[1].code


def args_refusal(problems: list[tuple[str, Problem]]) -> dict[str, Any]:
    """The parameters of `command_args_invalid` for these problems: the first one as a sentence (its
    argument, its problem and what the problem names), and all of them for machines in `detail`."""
    arg, first = problems[0]
    detail = "; ".join(f"{where}: {said.code}" for where, said in problems)
    return {"arg": arg, "problem": first.code, **first.fields(), "detail": detail}


def build_argv(spec: TemplateSpec, args: Any) -> list[str]:
    """The argument vector the agent runs: `command_args_invalid` when `args` do not fit the types."""
    problems = args_problems(spec, args)
    if problems:
        raise ActionFailure(code="command_args_invalid", **args_refusal(problems))
    values = {name: _as_text(value) for name, value in dict(args or {}).items()}
    return [_PLACEHOLDER.sub(lambda match: values[match.group(1)], element) for element in spec.argv]


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
