"""The metrics, declared once (prometheus-client's default registry).

Counters and histograms are counted where things happen (see `events`); the gauges that describe the
database (waits due, approvals waiting) are read when scraped (see `exposition`), so every process shows
the same figures for them and nothing has to keep them in step.

Labels are bounded sets: reason codes, action kinds, outcomes, route templates (never a path with ids),
HTTP statuses. A run id or a user name is never a label.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

# Walks are milliseconds to minutes (an http action may wait for its timeout).
_WALK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)

CLAIMS = Counter("flowyard_claims", "Waits claimed by this process's worker")
RESUMES = Counter(
    "flowyard_resumes",
    "Claims this worker finished: outcome written, failure written (backoff), or claim lost",
    ["result"],
)
RESUME_SECONDS = Histogram(
    "flowyard_resume_seconds", "From a claim to its outcome written, actions included", buckets=_WALK_BUCKETS
)
WALK_SECONDS = Histogram(
    "flowyard_walk_seconds",
    "Walking one claim to its next pause or end, actions included",
    buckets=_WALK_BUCKETS,
)
RESUME_FAILURES = Counter("flowyard_resume_failures", "Resumes that failed, by reason code", ["code"])
RUNS_ENDED = Counter("flowyard_runs_ended", "Runs that ended, by status and reason code", ["status", "code"])
RUNS_STOPPED = Counter(
    "flowyard_runs_stopped",
    "Runs stopped for a person after their last attempt failed, by reason code",
    ["code"],
)
ACTION_SECONDS = Histogram(
    "flowyard_action_seconds",
    "Actions sent, by kind and outcome (out or error)",
    ["kind", "outcome"],
    buckets=_WALK_BUCKETS,
)
APPROVALS_DECIDED = Counter("flowyard_approvals_decided", "Approvals decided, by outcome", ["outcome"])
REQUEST_SECONDS = Histogram(
    "flowyard_http_request_seconds",
    "API requests, by route template, method and status",
    ["route", "method", "status"],
)

DATABASE_UP = Gauge(
    "flowyard_database_up",
    "1 when the database answered this scrape's queries in time, else 0",
    multiprocess_mode="mostrecent",
)
# Read from the database when scraped. In multiprocess mode the most recent scrape's value is the one.
WAITS_DUE = Gauge("flowyard_waits_due", "Waits due now and not claimed", multiprocess_mode="mostrecent")
WAITS_OLDEST_DUE = Gauge(
    "flowyard_waits_oldest_due_seconds",
    "How long the longest-due unclaimed wait has been due (0 when none is)",
    multiprocess_mode="mostrecent",
)
APPROVALS_WAITING = Gauge(
    "flowyard_approvals_waiting", "Approvals asked and not decided yet", multiprocess_mode="mostrecent"
)

# The connection pool of the process that answered the scrape (psycopg_pool's own statistics); in
# multiprocess mode, of the one that answered the latest scrape.
POOL_SIZE = Gauge("flowyard_pool_connections", "Connections the pool holds", multiprocess_mode="mostrecent")
POOL_AVAILABLE = Gauge(
    "flowyard_pool_connections_idle", "Connections idle in the pool", multiprocess_mode="mostrecent"
)
POOL_WAITING = Gauge(
    "flowyard_pool_requests_waiting", "Callers waiting for a connection", multiprocess_mode="mostrecent"
)
POOL_MAX = Gauge("flowyard_pool_connections_max", "The pool's maximum size", multiprocess_mode="mostrecent")
