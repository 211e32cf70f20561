"""The queue's statements, by name (see queries.sql)."""

from backend.store.queries import load

QUERIES = load("backend.queue", "queries.sql")
