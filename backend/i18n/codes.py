"""Reason codes, read from the source itself: the catalogs' list of what must be said.

A reason code is a string literal in one of four places (docs/i18n.md, "Where a code is written"):

1. the keyword argument `code=` of any call: `Finding(code="cycle")`, `raise WaitFailed(code="x")`;
2. the value of the key `"code"` in a dict literal: `{"code": "database_unreachable"}`;
3. the first positional argument of a call to `message`: `message("flow_not_found")`;
4. the value assigned to a variable named `code`: `code = failure.code if ... else "resume_error"`;
5. a code cited inside another code's sentence (`message` writes it as its own sentence): the keyword
   argument `problem=`, `reason=` or `error=` of any call, and the first positional argument of a call
   to `problem` (`backend.graph.explain.problem("problem_missing")`).

In each place the literal may sit in a conditional expression (`a if c else "b"`), an `or`
(`x or "b"`), a `str(...)`, or a lookup with a default (`output.pop("code", "action_failed")`): every
branch and the default count, and so do the values of a dict literal looked up in place
(`{404: "not_found"}.get(status, "request_invalid")`); the key looked up does not. A variable or an
f-string is never a code; the places that pass one on (`message(self.code, ...)`) pass on a code that
was written as a literal somewhere else.

Examples:
    >>> source = '''
    ... raise Refused(code="user_unknown", name=name)
    ... answer = {"code": "database_unreachable"}
    ... print(message("flow_not_found"))
    ... code = failure.code if failed else "resume_error"
    ... message(self.code, **params)
    ... raise Refused(code="x_invalid", problem="problem_empty", reason=why)
    ... said = problem("problem_minimum", limit=1)
    ... '''
    >>> sorted(use.code for use in codes_in(source))[:4]
    ['database_unreachable', 'flow_not_found', 'problem_empty', 'problem_minimum']
    >>> sorted(use.code for use in codes_in(source))[4:]
    ['resume_error', 'user_unknown', 'x_invalid']
    >>> [use.params for use in codes_in(source) if use.code == "user_unknown"]
    [('name',)]
    >>> [use.code for use in codes_in('code = {404: "not_found"}.get(status, "request_invalid")')]
    ['not_found', 'request_invalid']
    >>> [use.code for use in codes_in('raise Failed(code=str(output.pop("code", "action_failed")))')]
    ['action_failed']
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

BACKEND_DIR = Path(__file__).resolve().parents[1]
# FLOW_FORMAT.md: lower snake case, no dots. A dot would split the key in the frontend's JSON view.
CODE_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Use:
    """One place a code is written: the file, the line, and the keywords passed beside it.

    `params` is None where they cannot be known from the call (a `**mapping`, or no call at all).
    """

    code: str
    path: str
    line: int
    params: tuple[str, ...] | None


def codes_in(source: str, path: str = "<source>") -> list[Use]:
    """Every use of a reason code in one Python source text, in the order of the file."""
    uses: list[Use] = []
    for node in ast.walk(ast.parse(source, filename=path)):
        if isinstance(node, ast.Call):
            uses.extend(_call_uses(node, path))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "code":
                    uses.extend(Use(code, path, value.lineno, None) for code in _literals(value))
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "code" for t in targets):
                uses.extend(Use(code, path, node.lineno, None) for code in _literals(node.value))
    return sorted(uses, key=lambda use: (use.line, use.code))


def reason_codes(root: Path = BACKEND_DIR) -> dict[str, list[Use]]:
    """Every code used under `root` (backend/ by default), with the places it is used, by code."""
    found: dict[str, list[Use]] = {}
    for file in sorted(root.rglob("*.py")):
        shown = file.relative_to(root.parent).as_posix()
        for use in codes_in(file.read_text(encoding="utf-8"), shown):
            found.setdefault(use.code, []).append(use)
    return dict(sorted(found.items()))


def node_type_keys(ports: Mapping[str, tuple[str, ...]]) -> list[str]:
    """The catalog keys of the node types and their ports: a name and a description each, a name a port.

    Examples:
        >>> node_type_keys({"condition": ("true", "false"), "end": ()})
        ['node_type_condition', 'node_type_condition_description', 'node_type_end', \
'node_type_end_description', 'port_false', 'port_true']
    """
    keys = {key for name in ports for key in (f"node_type_{name}", f"node_type_{name}_description")}
    keys.update(f"port_{port}" for names in ports.values() for port in names)
    return sorted(keys)


def _call_uses(call: ast.Call, path: str) -> Iterator[Use]:
    names = [k.arg for k in call.keywords]
    params = None if None in names else tuple(n for n in names if n is not None and n != "code")
    for keyword in call.keywords:
        if keyword.arg == "code":
            yield from (Use(code, path, keyword.value.lineno, params) for code in _literals(keyword.value))
        elif keyword.arg in _CITING:
            cited = (code for code in _literals(keyword.value) if CODE_PATTERN.match(code))
            yield from (Use(code, path, keyword.value.lineno, None) for code in cited)
    callee = call.func
    name = callee.id if isinstance(callee, ast.Name) else getattr(callee, "attr", None)
    if name == "problem" and call.args:
        everything = None if None in names else tuple(n for n in names if n is not None)
        yield from (Use(code, path, call.lineno, everything) for code in _literals(call.args[0]))
    if name == "message" and call.args:
        everything = None if None in names else tuple(n for n in names if n is not None)
        yield from (Use(code, path, call.lineno, everything) for code in _literals(call.args[0]))


# The parameters that cite a code as a sentence of its own (`catalogs._CITED`), which a literal passed to
# them is: `problem="problem_empty"`. Their other values (a variable, an f-string) are never codes.
_CITING = frozenset({"problem", "reason", "error", "expected"})


def _literals(value: ast.expr) -> Iterator[str]:
    """The string literals an expression can evaluate to, as far as the rules of the module see."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        yield value.value
    elif isinstance(value, ast.IfExp):
        yield from _literals(value.body)
        yield from _literals(value.orelse)
    elif isinstance(value, ast.BoolOp):
        for operand in value.values:
            yield from _literals(operand)
    elif isinstance(value, ast.Subscript) and isinstance(value.value, ast.Dict):
        yield from _dict_values(value.value)
    elif isinstance(value, ast.Call):
        callee = value.func
        if isinstance(callee, ast.Name) and callee.id == "str" and len(value.args) == 1:
            yield from _literals(value.args[0])
        elif isinstance(callee, ast.Attribute) and callee.attr in ("get", "pop"):
            if isinstance(callee.value, ast.Dict):
                yield from _dict_values(callee.value)
            if len(value.args) == 2:
                yield from _literals(value.args[1])


def _dict_values(mapping: ast.Dict) -> Iterator[str]:
    for item in mapping.values:
        yield from _literals(item)
