"""A pytest plugin for the mutation runs (`-p tests.mutation.plugin`, added by tests/mutation/run.py): no
hypothesis deadline. On a loaded machine an example may take longer than the default 200 ms, and a test
failing for time would count a mutant as killed, or fail mutmut's first run of the tests outright."""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("mutation", deadline=None)
settings.load_profile("mutation")
