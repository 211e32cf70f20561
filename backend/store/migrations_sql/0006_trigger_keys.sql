-- Idempotency keys of triggers (a webhook sender's key, a schedule's fire time) in a table of their own,
-- with their own retention: a key must keep deduplicating after the run it started has been swept.
CREATE TABLE trigger_keys (
    flow_id     bigint NOT NULL REFERENCES flows (id),
    key         text NOT NULL,
    -- set in the same transaction as the key; kept after the run is swept, so the answer stays the same
    run_id      bigint,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (flow_id, key)
);
CREATE INDEX trigger_keys_by_age ON trigger_keys (created_at);

INSERT INTO trigger_keys (flow_id, key, run_id, created_at)
SELECT flow_id, idempotency_key, id, created_at FROM runs WHERE idempotency_key IS NOT NULL;
