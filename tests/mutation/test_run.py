"""Which tests the fresh re-run gives a survivor: those mutmut saw calling its function, and all of the
package's when mutmut's record of them cannot be trusted."""

from __future__ import annotations

from tests.mutation.run import PACKAGES, _new_files, _tests_for

WALKER = PACKAGES["walker"]
SEEN = {
    "backend.walker.loops.xǁLoopsǁ_open": [
        "tests/walker/test_loops.py::test_a",
        "tests/walker/test_loops.py::test_b",
    ],
    "backend.walker.conditions.x__ordered": ["tests/walker/test_cli.py::test_first"],
    "backend.walker.conditions.x_holds": [
        "tests/walker/test_conditions.py::test_c",
        "tests/walker/test_cli.py::test_d",
    ],
}


def test_a_survivor_meets_the_new_test_files_first_then_the_files_that_called_its_function() -> None:
    new = _new_files(SEEN, ["tests/walker/test_cli.py", "tests/walker/test_mutants_new.py"])
    assert new == ["tests/walker/test_mutants_new.py"]
    tests = _tests_for("backend.walker.conditions.x_holds__mutmut_3", WALKER, SEEN, new, set())
    assert tests == [
        "tests/walker/test_mutants_new.py",
        "tests/walker/test_cli.py",
        "tests/walker/test_conditions.py",
    ]


def test_a_function_run_while_the_tests_are_imported_meets_every_test_of_its_package() -> None:
    # mutmut credits `_ordered` (run at import) to the first test it ran: that file alone cannot judge it.
    new = ["tests/walker/test_mutants_new.py"]
    tests = _tests_for(
        "backend.walker.conditions.x__ordered__mutmut_8",
        WALKER,
        SEEN,
        new,
        {"backend.walker.conditions.x__ordered"},
    )
    assert tests == [*new, "tests/walker", "backend/walker"]
    assert _tests_for("backend.walker.conditions.x__ordered__mutmut_8", WALKER, SEEN, new, set()) == [
        *new,
        "tests/walker/test_cli.py",
    ]


def test_a_function_no_test_was_seen_calling_meets_every_test_of_its_package() -> None:
    tests = _tests_for("backend.walker.redact.x_spellings__mutmut_1", WALKER, SEEN, [], set())
    assert tests == ["tests/walker", "backend/walker"]
