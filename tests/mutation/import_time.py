"""The mutated functions that run while the tests are imported: `python tests/mutation/import_time.py DIR
[pytest options and tests]` (run.py starts it) prints their names, one JSON list on stdout.

mutmut credits a call to the test running at the time; a call made while pytest imports the modules (an
operator table that `conditions._ordered` builds at import) happens before any test runs, and mutmut
credits it to the first test it runs. The fresh re-run cannot trust those functions' test lists, so it
asks which they are: it collects the tests, without running them, under mutmut's "stats" mode (every
trampoline records its function) in a process of its own that imports everything from nothing.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys


def main() -> None:
    directory, arguments = sys.argv[1], sys.argv[2:]
    os.environ["MUTANT_UNDER_TEST"] = "stats"
    sys.dont_write_bytecode = True
    os.chdir(directory)
    sys.path.insert(0, directory)
    import pytest
    from mutmut.state import state

    said = io.StringIO()  # pytest's list of the tests: shown only when collecting them failed
    with contextlib.redirect_stdout(said):
        code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *arguments])
    if code != 0:
        sys.exit(f"{said.getvalue()}\ncollecting the tests failed (pytest exited {code})")
    print(json.dumps(sorted(state()._stats)))


if __name__ == "__main__":
    main()
