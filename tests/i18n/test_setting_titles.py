"""A node's setting is named by the title of its field in the editor, in every sentence that cites it: the
validator's findings, a run's failure in its journal, an action's refused setting (never `duration`,
never `/nodes/2/config/duration`, never an ellipsis where the reason should be)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from backend.i18n.catalogs import SETTING_TITLES, catalog, message
from backend.i18n.locales import LOCALES

FINDING_TEXT = Path(__file__).resolve().parents[2] / "frontend" / "src" / "flows" / "findingText.ts"


def test_the_backend_titles_a_setting_as_the_editor_does() -> None:
    source = FINDING_TEXT.read_text(encoding="utf-8")
    block = re.search(r"const MORE_TITLES[^{]*\{(.*?)\n\};", source, re.S)
    assert block is not None
    editor = dict(re.findall(r"^\s*(\w+): '(\w+)',$", block.group(1), re.M))
    assert editor == SETTING_TITLES


@pytest.mark.parametrize("locale", LOCALES)
def test_a_run_failed_at_a_setting_names_its_title_and_why(locale: str) -> None:
    said = message("run_failed", locale, error="node_config_invalid", node="wait1", field="duration")
    assert catalog(locale)["ui_field_duration"] in said
    assert catalog(locale)["problem_form"].rstrip(".。") in said
    assert "…" not in said and "{" not in said and "duration" not in said


@pytest.mark.parametrize(("field", "title"), [*SETTING_TITLES.items(), ("url", "ui_field_url")])
def test_a_finding_names_the_setting_by_its_title(field: str, title: str) -> None:
    said = message("node_config_invalid", "de", node="n", field=field, problem="problem_missing")
    assert f"„{catalog('de')[title]}“" in said


def test_the_keys_a_problem_names_are_titles_listed_as_alternatives() -> None:
    said = message("problem_exactly_one", "ja", keys=("duration", "until"))
    assert catalog("ja")["ui_field_duration"] in said and catalog("ja")["ui_field_until"] in said
    assert "duration" not in said


def test_a_setting_without_a_title_is_written_as_the_flow_writes_it() -> None:
    said = message("node_config_invalid", "en", node="n", field="urll", problem="problem_not_allowed")
    assert said == "In node n, “urll” is not valid: This entry is not allowed here."
