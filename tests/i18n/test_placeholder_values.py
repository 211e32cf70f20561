"""No English inside a translated sentence: a placeholder's value is itself translated (a code cited as its
own sentence, a node type, a port), never English words the code wrote (docs/i18n.md, "Identifiers inside
sentences"; issue 34).

Two nets. The source: no call under backend/ passes English words (a literal with a space, an f-string,
a joined or `str()`-converted text) for a placeholder of the sentence its reason code names, and a cited
placeholder (`problem`, `reason`, `error`) is passed only codes the catalogs have. The readers: findings
and refusals of every kind, rendered in German and Japanese, repeat no English word of their English
sentence beyond what the author wrote (node ids, keys, values).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from backend.actions.failures import ActionFailure
from backend.actions.templates import TemplateSpec, build_argv, check_template
from backend.graph.validator import validate
from backend.i18n.catalogs import DEFAULT_LOCALE, catalog, message
from backend.i18n.placeholders import placeholders
from backend.walker import ContinuationInvalid, Resume, ResumeMismatch, walk
from backend.walker.branches import thaw
from tests.support import flow
from tests.walker.walker_flows import approval, build, trigger

BACKEND = Path(__file__).resolve().parents[2] / "backend"
CITING = ("problem", "reason", "error")


def _english_text(value: ast.expr, keys: set[str], caught: set[str]) -> str | None:
    """Why `value`, passed for a placeholder, is English text the code wrote; None when it is not.

    `caught` names the exceptions the file catches (`except OSError as exc`): `str(exc)` is a library's
    English. A list of identifiers joined with ", " or an f-string of identifiers (`f"{node}@{visit}"`)
    holds no words of ours.
    """
    if isinstance(value, ast.JoinedStr):
        written = "".join(str(part.value) for part in value.values if isinstance(part, ast.Constant))
        return f"an f-string with the words {written!r}" if _WORDS.search(written) else None
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        words = value.value not in keys and _WORDS.search(value.value)
        return f"the words {value.value!r}" if words else None
    if isinstance(value, ast.BinOp):
        return next(
            (why for side in (value.left, value.right) if (why := _english_text(side, keys, caught))), None
        )
    if isinstance(value, ast.Call):
        callee, args = value.func, value.args
        if (
            isinstance(callee, ast.Attribute)
            and callee.attr == "join"
            and isinstance(callee.value, ast.Constant)
        ):
            return "problems joined into one text" if ";" in str(callee.value.value) else None
        if isinstance(callee, ast.Name) and callee.id == "str" and args and isinstance(args[0], ast.Name):
            return f"the words of the exception {args[0].id}" if args[0].id in caught else None
    return None


_WORDS = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}")


def _code_of(call: ast.Call) -> str | None:
    for keyword in call.keywords:
        if keyword.arg == "code" and isinstance(keyword.value, ast.Constant):
            return str(keyword.value.value)
    name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", None)
    first = call.args[0] if call.args else None
    if name == "message" and isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def english_placeholder_values(source: str, path: str, english: Mapping[str, str]) -> Iterator[str]:
    """Each place in `source` that passes English words for a placeholder of a sentence, as `path:line`."""
    keys = set(english)
    tree = ast.parse(source)
    # An exception of a class the file defines carries what it was given (a user's name), no library's words.
    own = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    caught = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ExceptHandler)
        and node.name
        and not (isinstance(node.type, ast.Name) and node.type.id in own)
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        code = _code_of(node)
        if code is None or code not in english:
            continue
        shown = placeholders(english[code])
        for keyword in node.keywords:
            if keyword.arg is None or keyword.arg == "code":
                continue
            value = keyword.value
            literal = value.value if isinstance(value, ast.Constant) else None
            if keyword.arg in CITING and isinstance(literal, str) and literal and literal not in keys:
                yield f"{path}:{value.lineno}: {code} cites {keyword.arg}={literal!r}, which no catalog has"
            elif keyword.arg in shown and (why := _english_text(value, keys, caught)):
                yield f"{path}:{value.lineno}: {code} fills {{{keyword.arg}}} with {why}"


def test_the_scan_finds_english_passed_for_a_placeholder() -> None:
    english = {
        "x_invalid": "X is not valid: {problem}.",
        "y_failed": "Y failed: {detail}.",
        "problem_empty": "",
    }
    source = """
raise Failure(code="x_invalid", problem="is missing")
raise Failure(code="x_invalid", problem="problem_empty")
raise Failure(code="y_failed", detail=f"version {v} is not 1")
raise Failure(code="y_failed", detail="; ".join(problems))
try:
    pass
except OSError as exc:
    raise Failure(code="y_failed", detail=str(exc))
raise Failure(code="y_failed", detail="not text")
raise Failure(code="y_failed", detail=node_id, other="free words here")
message("y_failed", "de", detail="type is not one of " + names)
raise Failure(code="y_failed", detail=f"{node}@{visit}")
raise Failure(code="y_failed", detail=", ".join(node_ids))
raise Failure(code="y_failed", detail=str(path))
"""
    found = sorted(
        english_placeholder_values(source, "x.py", english), key=lambda line: int(line.split(":")[1])
    )
    assert [line.split(": ", 1)[0] for line in found] == [f"x.py:{n}" for n in (2, 4, 5, 9, 10, 12)]


def test_no_call_under_backend_passes_english_words_for_a_placeholder() -> None:
    english = catalog(DEFAULT_LOCALE)
    found = [
        place
        for file in sorted(BACKEND.rglob("*.py"))
        for place in english_placeholder_values(
            file.read_text(encoding="utf-8"), file.relative_to(BACKEND.parent).as_posix(), english
        )
    ]
    assert not found, "English passed for a placeholder:\n" + "\n".join(found)


# Findings and refusals of every kind the places of issue 34 give, each with what its author wrote (the
# flow, the template, the arguments), whose words a sentence repeats as written.
Said = Callable[[str], list[str]]


def _findings(document: dict[str, Any]) -> tuple[Said, object]:
    return (lambda locale: [finding.message for finding in validate(document, locale)]), document


def _node(node_type: str, config: dict[str, Any]) -> tuple[Said, object]:
    return _findings(flow("start:trigger", {"id": "n", "type": node_type, "config": config}, wires="start>n"))


def _refusal(attempt: Callable[[], object], *written: object) -> tuple[Said, object]:
    def said(locale: str) -> list[str]:
        with pytest.raises((ActionFailure, ContinuationInvalid, ResumeMismatch)) as raised:
            attempt()
        failure = raised.value
        return [message(failure.code, locale, **failure.params)]

    return said, written


def _chain_break(locale: str) -> list[str]:
    return [message("chain_hash_mismatch", locale, chain="flow:1", seq=3, kind=kind, ref=4) for kind in KINDS]


KINDS = ("decision", "vote", "rights")
UNIT = TemplateSpec(["systemctl", "restart", "{unit}"], {"unit": {"type": "string", "pattern": "^[a-z]+$"}})
ASK = build({"t": trigger(), "a": approval("Pay?")}, "t>a")
SAMPLES: dict[str, tuple[Said, object]] = {
    "missing, unknown keys": _node("log", {"level": "info", "loud": True}),
    "type": _node("log", {"message": 5}),
    "enum": _node("log", {"message": "m", "level": "loud"}),
    "pattern": _node("approval", {"title": "t", "approvers": ["everyone"], "deadline": "P2D"}),
    "duration form": _node("delay", {"duration": "soon"}),
    "bounds": _node("http", {"method": "GET", "url": "https://a.example", "timeout_s": 0}),
    "lengths": _node("approval", {"title": "", "approvers": ["user:a"] * 30}),
    "one of": _node("delay", {"duration": "PT1H", "until": "2030-01-01T00:00:00Z"}),
    "too long a wait": _node("delay", {"duration": "P9999D"}),
    "no moment": _node("delay", {"until": "tomorrow"}),
    "document": _findings({"format": "flowyard.flow/1", "name": " ", "nodes": "none", "wires": []}),
    "argv": _refusal(lambda: check_template("ls", {}), "ls"),
    "argv program": _refusal(lambda: check_template(["{p}"], {"p": {"type": "string"}}), "p"),
    "param untyped": _refusal(lambda: check_template(["ls", "{p}"], {}), "ls", "p"),
    "param unused": _refusal(lambda: check_template(["ls"], {"p": {"type": "string"}}), "ls", "p"),
    "param type": _refusal(lambda: check_template(["ls", "{p}"], {"p": {"type": "list"}}), "p", "list"),
    "param keyword": _refusal(lambda: check_template(["ls", "{p}"], {"p": {"type": "string", "x": 1}}), "p"),
    "args": _refusal(lambda: build_argv(UNIT, {"unit": "Nginx"}), "unit", "Nginx"),
    "continuation version": _refusal(lambda: thaw({"v": 9}, {"n"})),
    "continuation damaged": _refusal(lambda: thaw({"v": 1, "vars": {}}, {"n"})),
    "resume of a new run": _refusal(
        lambda: walk(ASK, None, resume=Resume("a", 2, "approve")), "a", "approve"
    ),
    "chain record kinds": (_chain_break, "flow:1"),
}


def _words(text: str) -> set[str]:
    return {word.lower() for word in re.findall(r"(?<![\w_])[A-Za-z]{4,}(?![\w_])", text)}


@cache
def _vocabulary(locale: str) -> frozenset[str]:
    """The Latin-letter words a catalog's own sentences use (German "Flow", "Parameter", "Format"): a word
    an English sentence shares with them is the language's own, no English leaking in."""
    return frozenset(
        word for sentence in catalog(locale).values() for word in _words(_BRACES.sub(" ", sentence))
    )


_BRACES = re.compile(r"\{[^}]*\}")


def _own_words(english: str) -> set[str]:
    """The English words of a sentence that are its own: not a quoted value, a pointer or a placeholder."""
    return _words(re.sub(r'"[^"]*"|/\S*|\{[^}]*\}', " ", english))


@pytest.mark.parametrize("locale", ["de", "ja"])
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_finding_or_refusal_repeats_no_english_word_in_german_or_japanese(name: str, locale: str) -> None:
    (said_by, written), vocabulary = SAMPLES[name], _vocabulary(locale)
    english, translated = said_by(DEFAULT_LOCALE), said_by(locale)
    assert english and len(english) == len(translated)
    for said_in_english, said in zip(english, translated, strict=True):
        own = _own_words(said_in_english) - _words(json.dumps(written)) - vocabulary
        leaked = {word for word in own if re.search(rf"\b{word}\b", said.lower())}
        assert not leaked, f"{locale}: {said!r} repeats {sorted(leaked)} of {said_in_english!r}"
