"""The command line's own words come from the catalogs: help in the terminal's language, and argparse's
refusals as one coded line on stderr with exit code 2."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from backend.cli import _parser, main
from backend.i18n import terminal
from backend.i18n.catalogs import LOCALES, message, po_file


def _refusal(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err.splitlines()[-1]


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def test_the_terminal_locales_are_the_catalogs_locales() -> None:
    assert set(terminal.LOCALES) == set(LOCALES) and terminal.DEFAULT_LOCALE == "en"


def test_the_light_reader_reads_what_babel_reads_in_every_catalog() -> None:
    for locale in LOCALES:
        po = po_file(locale)
        assert po is not None
        expected = {m.id: m.string for m in po if isinstance(m.id, str) and m.id and m.string and not m.fuzzy}
        assert terminal._sentences(locale) == expected, locale


def test_the_terminal_asks_for_its_locale_as_gettext_does() -> None:
    assert terminal.terminal_locale({"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}) == "fr"
    assert terminal.terminal_locale({"LC_MESSAGES": "nl_BE", "LANG": "de_DE"}) == "nl"
    assert terminal.terminal_locale({"LANGUAGE": "pl:de", "LANG": "de_DE.UTF-8"}) == "pl"
    assert terminal.terminal_locale({"LANGUAGE": "pl", "LANG": "POSIX"}) == "en"
    assert terminal.terminal_locale({"LANG": "zh_TW.UTF-8"}) == "en"
    assert terminal.terminal_locale({"LANG": "en_XA"}) == "en_XA"


def test_help_in_german_shows_the_german_catalogs_text(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--help"])
    out = capsys.readouterr().out
    assert exited.value.code == 0
    assert message("cli_help_serve_port", "de") in out and "Optionen:" in out and "Aufruf:" in out
    assert "port to listen on" not in out


def test_every_help_text_is_a_catalog_sentence() -> None:
    seen: list[str] = []

    def walk(parser: object) -> None:
        for action in parser._actions:  # type: ignore[attr-defined]
            if action.help not in (None, "==SUPPRESS=="):
                seen.append(action.help)
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    seen.append(sub.description)
                    walk(sub)

    walk(_parser("en"))
    english = {terminal.message(key, "en") for key in terminal._sentences("en") if key.startswith("cli_")}
    assert len(seen) > 80 and not [text for text in seen if text not in english]


def test_every_typed_argument_is_a_number_as_cli_argument_invalid_says() -> None:
    types: set[object] = set()

    def walk(parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            types.add(action.type)
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub)

    walk(_parser("en"))
    assert types == {None, int, float}


def test_an_invalid_number_is_cli_argument_invalid(capsys: pytest.CaptureFixture[str]) -> None:
    assert _refusal(capsys, ["serve", "--port", "abc"]) == (
        2,
        "flowyard: --port takes a number, not abc. (cli_argument_invalid)",
    )


def test_an_unknown_command_is_cli_command_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    code, line = _refusal(capsys, ["nosuch"])
    assert code == 2 and line.startswith("flowyard: There is no command nosuch; the commands are serve, ")
    assert line.endswith(", check, walk. (cli_command_unknown)")


def test_a_missing_argument_is_cli_argument_missing(capsys: pytest.CaptureFixture[str]) -> None:
    assert _refusal(capsys, ["run"]) == (
        2,
        "flowyard: Required, but not given: FLOW_ID. (cli_argument_missing)",
    )


def test_an_unknown_argument_is_cli_argument_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert _refusal(capsys, ["check", "x.json", "--bogus"]) == (
        2,
        "flowyard: This command does not take --bogus. (cli_argument_unknown)",
    )


def test_a_value_missing_and_a_choice_refused_are_coded_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert _refusal(capsys, ["serve", "--port"]) == (
        2,
        "flowyard: --port needs a value. (cli_argument_value_missing)",
    )
    assert _refusal(capsys, ["worker", "--metrics", "9"]) == (
        2,
        "flowyard: The option --metrics could be any of --metrics-port, --metrics-host."
        " (cli_option_ambiguous)",
    )
    assert _refusal(capsys, ["serve", "--no-worker=yes"]) == (
        2,
        "flowyard: --no-worker takes no value. (cli_option_takes_no_value)",
    )
    assert _refusal(capsys, ["db", "nope"]) == (
        2,
        "flowyard: nope is not one of status, stop, url. (cli_argument_choice)",
    )


def test_the_command_in_its_own_process_refuses_in_german_with_exit_code_2() -> None:
    env = {"LANG": "de_DE.UTF-8", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "serve", "--port", "abc"],
        env=env,
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert (
        done.stderr.splitlines()[-1]
        == "flowyard: --port erwartet eine Zahl, nicht abc. (cli_argument_invalid)"
    )
    assert done.stderr.startswith("Aufruf: flowyard serve")
