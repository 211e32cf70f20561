"""A pytest plugin for the mutation runs (`-p tests.mutation.plugin`, added by tests/mutation/run.py).

No hypothesis deadline: on a loaded machine an example may take longer than the default 200 ms, and a
test failing for time would count a mutant as killed, or fail mutmut's first run of the tests outright.

Fewer examples in mutmut's own pass: with FLOWYARD_MUTATION_EXAMPLES set (run.py sets it for `mutmut
run`, not for the fresh re-run of the survivors), every property test runs at most that many examples.
A mutant killed there is killed; one that survives is run again with every example in a process of its
own, so the cap makes the first pass faster and never changes a verdict the score counts.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("mutation", deadline=None)
settings.load_profile("mutation")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    cap = os.environ.get("FLOWYARD_MUTATION_EXAMPLES")
    if not cap:
        return
    for item in items:
        test = getattr(item, "obj", None)
        inner = getattr(getattr(test, "hypothesis", None), "inner_test", None)
        if test is None or inner is None:
            continue
        current = getattr(test, "_hypothesis_internal_use_settings", None) or settings.default
        if current is not None and current.max_examples > int(cap):
            test._hypothesis_internal_use_settings = settings(current, max_examples=int(cap))
