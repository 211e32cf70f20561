"""The actions package's statements, by name (see queries.sql)."""

from backend.store.queries import load

QUERIES = load("backend.actions", "queries.sql")
