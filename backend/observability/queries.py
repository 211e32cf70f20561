"""The statements behind the database gauges, by name (see queries.sql)."""

from backend.store.queries import load

QUERIES = load("backend.observability", "queries.sql")
