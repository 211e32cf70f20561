"""Every catalog sentence, rendered with sample parameters in the nine locales and the pseudo-locale,
reads as a sentence: every placeholder filled, and no reason code, node type or port identifier in it.
An identifier a sentence cites (`{type}`, `{port}`, `{error}`, ...) is shown as its translated name or
sentence; the identifier itself stays in the machine-readable field beside the sentence."""

from __future__ import annotations

import re

import pytest

from backend.i18n.catalogs import DEFAULT_LOCALE, LOCALES, catalog, message
from backend.i18n.context import PLACEHOLDERS, sample
from backend.i18n.placeholders import placeholders
from backend.i18n.plurals import PLURALS
from backend.i18n.pseudo import PSEUDO_LOCALE
from backend.node_types import PORTS

# Identifiers a sentence may cite, each passed where a real caller passes one.
CITED = {
    "type": "foreach",
    "kind": "approval",
    "port": "approve",
    "on_timeout": "reject",
    "outcome": "timed_out_approved",
    "state": "cancelled",
    "right": "decide",
    "error": "iteration_limit_exceeded",
    "reason": "action_unavailable",
    "problem": "problem_missing",
    "expected": "resume_expected_new_run",
}
NODE_TYPES = set(PORTS)
PORT_NAMES = {port for ports in PORTS.values() for port in ports}
# Words of the flow format a sentence about the format names on purpose (docs/i18n.md, Glossary).
FORMAT_WORDS = {"on_timeout", "foreach", "repeat", "body", "done", "trigger", "approve", "reject", "skip"}
_TOKEN = re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/-])")


def _params(template: str, count: int) -> dict[str, object]:
    params: dict[str, object] = {name: CITED.get(name, sample(name)) for name in placeholders(template)}
    for name in ("passes", "limit"):  # what iteration_limit_exceeded cites
        params.setdefault(name, sample(name))
    for name in ("count", "passes", "minutes", "attempts"):
        if name in params:
            params[name] = count
    return params


def _blank(template: str) -> str:
    """The sentence's own words: every placeholder emptied."""
    return re.sub(r"\{[a-z_]+\}", "", template)


CASES = [(locale, key) for locale in (*LOCALES, PSEUDO_LOCALE) for key in sorted(catalog(DEFAULT_LOCALE))]


@pytest.mark.parametrize("locale", [*LOCALES, PSEUDO_LOCALE])
def test_every_sentence_renders_without_a_raw_identifier(locale: str) -> None:
    english = catalog(DEFAULT_LOCALE)
    codes = {key for key in english if "_" in key}
    problems: list[str] = []
    for key, template in sorted(english.items()):
        for count in (1, 3, 5) if key in PLURALS else (3,):
            params = _params(template, count)
            shown = message(key, locale, **params)
            own = _blank(catalog(locale).get(key, "")) if locale != PSEUDO_LOCALE else ""
            left = placeholders(shown) & set(params)
            if left:
                problems.append(f"{key}: placeholders {sorted(left)} left in {shown!r}")
            for token in _TOKEN.findall(shown):
                if token in codes and token not in own and token not in FORMAT_WORDS:
                    problems.append(f"{key}: the reason code {token} in {shown!r}")
            for name, identifier in CITED.items():
                if name not in params:
                    continue
                cited = len(re.findall(rf"\b{identifier}\b", shown)) - len(
                    re.findall(rf"\b{identifier}\b", own)
                )
                if cited > 0 and (locale != DEFAULT_LOCALE or identifier not in _blank(template)):
                    problems.append(f"{key}: {{{name}}} shows the identifier {identifier} in {shown!r}")
    assert not problems, f"{len(problems)} sentences show identifiers:\n" + "\n".join(problems)


def test_the_samples_explain_every_placeholder() -> None:
    names = {name for sentence in catalog(DEFAULT_LOCALE).values() for name in placeholders(sentence)}
    assert names <= set(PLACEHOLDERS), (
        f"explain in backend/i18n/context.py: {sorted(names - set(PLACEHOLDERS))}"
    )


def test_the_cited_samples_are_real_identifiers() -> None:
    assert CITED["type"] in NODE_TYPES and CITED["port"] in PORT_NAMES
    assert CITED["error"] in catalog(DEFAULT_LOCALE) and CITED["reason"] in catalog(DEFAULT_LOCALE)


def test_the_pseudo_locale_marks_every_sentence_and_is_longer() -> None:
    english, pseudo = catalog(DEFAULT_LOCALE), catalog(PSEUDO_LOCALE)
    assert pseudo.keys() == english.keys()
    assert all(s.startswith("[") and s.endswith("]") for s in pseudo.values())
    assert all(placeholders(pseudo[key]) == placeholders(english[key]) for key in english)
    long = [key for key in english if len(_blank(english[key])) >= 20]
    ratio = sum(len(pseudo[key]) for key in long) / sum(len(english[key]) for key in long)
    assert ratio >= 1.35, ratio


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != DEFAULT_LOCALE])
def test_every_outcome_a_pause_resumes_with_is_named_in_the_journal(locale: str) -> None:
    """`run_resumed` cites how the pause ended (a delay's `passed` once showed as the raw word)."""
    from backend.i18n.catalogs import cited_name
    from backend.walker.walk import _OUTCOMES

    for outcome in sorted(set().union(*_OUTCOMES.values())):
        name = cited_name("outcome", outcome, locale)
        said = message("run_resumed", locale, node="wait_a_day", outcome=outcome)
        assert name and name != outcome and name in said, (locale, outcome, said)
