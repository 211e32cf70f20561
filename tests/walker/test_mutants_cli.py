"""`flowyard walk`'s sentences, exactly (survivors of `make mutation` in backend/walker/cli.py): a file it
cannot read is named with its reason code's English sentence, and a code without a sentence is printed
as the code, with its details only when it has some."""

from __future__ import annotations

from pathlib import Path

import pytest

from backend.i18n import message
from backend.walker.cli import _say, run_walk


def test_a_file_that_cannot_be_read_is_refused_with_its_codes_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.json"
    assert run_walk(str(missing), input_text=None, answers=[], as_json=False) == 2
    out, err = capsys.readouterr()
    sentence = message("flow_file_unreadable", "en", path=str(missing), reason="file_problem_missing")
    assert out == ""
    assert err == f"flowyard walk: {sentence}\n"
    assert sentence == f"{missing} cannot be read: There is no such file."


def test_a_file_that_is_not_json_is_refused_with_its_path_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{", "utf-8")
    assert run_walk(str(broken), input_text=None, answers=[], as_json=True) == 2
    _, err = capsys.readouterr()
    assert err.startswith(f"flowyard walk: {broken} is not JSON: ")


def test_a_code_without_a_sentence_is_the_code_and_its_details_only_when_it_has_some() -> None:
    assert message("walk_code_without_sentence", "en") == "walk_code_without_sentence"
    assert _say(code="walk_code_without_sentence", params={}) == "walk_code_without_sentence"
    assert (
        _say(code="walk_code_without_sentence", params={"node": "ask", "n": 2})
        == 'walk_code_without_sentence (node="ask", n=2)'
    )
    # the line's node and visit fill a sentence but are not repeated in the fallback
    assert (
        _say(code="walk_code_without_sentence", params={}, context={"node": "ask", "visit": 3})
        == "walk_code_without_sentence"
    )
