"""docs/architecture.md describes the code as it is: its package graph is the one grimp reads now, and its
table of tables names every table the migrations leave, each with an owner whose statements use it.

When the code moves, the page fails here first. `python -m tests.test_architecture` writes the package
graph into the page (between its two markers); the tables' rows are written by hand, since each says what
the table is for.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import grimp
import psycopg

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"
BEGIN, END = "<!-- package graph: tests/test_architecture.py -->", "<!-- end of the package graph -->"


def package_graph() -> str:
    """What each of backend's packages and top-level modules imports, folded as tests/test_imports.py
    folds it (`backend.queue.worker` is `queue`; imports inside functions count), one line each."""
    graph = grimp.build_graph("backend", cache_dir=None)
    imports: dict[str, set[str]] = {}
    for module in graph.modules - {"backend"}:
        source = _package(module)
        found = imports.setdefault(source, set())
        found.update(_package(m) for m in graph.find_modules_directly_imported_by(module))
        found.discard(source)
    return "\n".join(f"{name} -> {', '.join(sorted(imports[name]))}".rstrip() for name in sorted(imports))


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _block(text: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[start:end].strip().removeprefix("```").removesuffix("```").strip()


def documented_tables(text: str) -> dict[str, str]:
    """The tables of the page's "The tables and who owns each", each with its owner package.

    Examples:
        >>> page = "## The tables and who owns each\\n| `a`, `b` | queue/ | x |\\n## Next\\n| `c` | z/ |"
        >>> documented_tables(page)
        {'a': 'queue', 'b': 'queue'}
    """
    section = text.split("## The tables and who owns each", 1)[1].split("\n## ", 1)[0]
    owners: dict[str, str] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("`"):
            continue
        for table in re.findall(r"`([a-z_]+)`", cells[0]):
            owners[table] = cells[1].split()[0].strip("`").rstrip("/")
    return owners


def test_the_package_graph_on_the_page_is_the_one_the_code_has() -> None:
    assert _block(PAGE.read_text("utf-8")) == package_graph(), (
        "docs/architecture.md's package graph is not the code's: `python -m tests.test_architecture` "
        "writes the present one; say in the text what moved"
    )


def test_the_page_names_every_table_and_each_owner_uses_it(database_url: str) -> None:
    with psycopg.connect(database_url) as conn:
        tables = {
            str(name)
            for (name,) in conn.execute(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition"
                " AND c.relname <> 'schema_migrations'"
            )
        }
    owners = documented_tables(PAGE.read_text("utf-8"))
    assert sorted(owners) == sorted(tables)
    unused = {
        table: owner
        for table, owner in owners.items()
        if owner != "nobody"
        and not any(
            re.search(rf"\b{table}\b", path.read_text("utf-8"))
            for path in sorted((ROOT / "backend" / owner).glob("*.sql"))
        )
    }
    assert unused == {}, "each owner's statements (backend/<owner>/*.sql) use its tables"


def main() -> None:
    text = PAGE.read_text("utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    PAGE.write_text(f"{text[:start]}\n```\n{package_graph()}\n```\n{text[end:]}", "utf-8")
    print(f"{PAGE.relative_to(ROOT)}: package graph written", file=sys.stderr)


if __name__ == "__main__":
    main()
