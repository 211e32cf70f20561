-- Flows and their versions, runs and their journals, and the waits queue.

CREATE TABLE flows (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    latest_version  integer NOT NULL DEFAULT 0,
    -- the webhook trigger's secret, as a SHA-256 hex digest; the secret itself is shown once
    webhook_secret_hash text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    created_by      text
);

-- A run is pinned to the version it started on: saving a flow adds a row here and changes no run.
CREATE TABLE flow_versions (
    flow_id     bigint NOT NULL REFERENCES flows (id),
    version     integer NOT NULL CHECK (version >= 1),
    document    jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text,
    PRIMARY KEY (flow_id, version)
);

CREATE TABLE runs (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    flow_id         bigint NOT NULL,
    version         integer NOT NULL,
    status          text NOT NULL
                    CHECK (status IN ('running', 'waiting', 'succeeded', 'failed', 'cancelled')),
    trigger_kind    text NOT NULL CHECK (trigger_kind IN ('manual', 'webhook', 'schedule')),
    input           jsonb,
    -- the sender's key for a webhook, or the fire time of a schedule: the same key starts one run
    idempotency_key text,
    error           text,
    started_by      text,
    -- the last journal line's number: taken with the run's row lock, so a worker and a cancel never clash
    journal_seq     integer NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    ended_at        timestamptz,
    FOREIGN KEY (flow_id, version) REFERENCES flow_versions (flow_id, version),
    UNIQUE (flow_id, idempotency_key)
);
CREATE INDEX runs_by_flow ON runs (flow_id, id DESC);
CREATE INDEX runs_ended ON runs (ended_at) WHERE ended_at IS NOT NULL;

-- One line per event of a run, in order.
CREATE TABLE journal (
    run_id  bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq     integer NOT NULL,
    at      timestamptz NOT NULL DEFAULT now(),
    code    text NOT NULL,
    node    text,
    visit   integer,
    data    jsonb NOT NULL DEFAULT '{}'::jsonb,
    PRIMARY KEY (run_id, seq)
);

-- Mechanics: when should a run go on, and with what. Deleted once served, so it stays small; the
-- settings below keep a hot, churning queue table vacuumed and its updates HOT.
CREATE TABLE waits (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id            bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    kind              text NOT NULL CHECK (kind IN ('start', 'approval', 'delay')),
    continuation      jsonb,
    -- the pause the continuation is at (NULL for a start): what a resume must answer
    node              text,
    visit             integer,
    wake_at           timestamptz NOT NULL,
    status            text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'claimed')),
    claimed_by        text,
    claim_expires_at  timestamptz,
    attempts          integer NOT NULL DEFAULT 0,
    last_error        text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    CHECK ((status = 'claimed') = (claimed_by IS NOT NULL AND claim_expires_at IS NOT NULL))
) WITH (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);

-- Layer two of idempotency: a run is parked at most once.
CREATE UNIQUE INDEX waits_one_per_run ON waits (run_id);
-- The one question a worker asks.
CREATE INDEX waits_due ON waits (wake_at) WHERE status = 'waiting';
-- Claims whose worker died, found by the lease's end.
CREATE INDEX waits_claims ON waits (claim_expires_at) WHERE status = 'claimed';

CREATE TABLE workers (
    name          text PRIMARY KEY,
    started_at    timestamptz NOT NULL DEFAULT now(),
    heartbeat_at  timestamptz NOT NULL DEFAULT now(),
    concurrency   integer NOT NULL
);
