-- Stopped runs a person resumes or ends, a deadline on every action attempt with the late answers of
-- abandoned attempts kept, and the run records auditors read after the runs are swept.

-- A run whose resume failed at every attempt stops instead of failing: its wait is kept, unclaimable,
-- with the continuation it had, until a person resumes it or ends it. It has no end time, so the sweep
-- never takes it.
ALTER TABLE runs DROP CONSTRAINT runs_status_check;
ALTER TABLE runs ADD CONSTRAINT runs_status_check
    CHECK (status IN ('running', 'waiting', 'stopped', 'succeeded', 'failed', 'cancelled'));
ALTER TABLE waits DROP CONSTRAINT waits_status_check;
ALTER TABLE waits ADD CONSTRAINT waits_status_check CHECK (status IN ('waiting', 'claimed', 'stopped'));
-- A cancelled run whose succeeded actions declare undos waits, as kind `undo`, until they have run.
ALTER TABLE waits DROP CONSTRAINT waits_kind_check;
ALTER TABLE waits ADD CONSTRAINT waits_kind_check CHECK (kind IN ('start', 'approval', 'delay', 'undo'));

-- When the attempt under way may still answer: its timeout plus a margin. Another try waits until then.
ALTER TABLE effects ADD COLUMN deadline_at timestamptz;
-- A resume on a newer version lets the next try of a visit ask something else under the same key.
ALTER TABLE effects ADD COLUMN rebased boolean NOT NULL DEFAULT false;

-- The answers of attempts that came back after a later attempt had started: kept for people, never used.
CREATE TABLE late_results (
    run_id       bigint NOT NULL,
    visit        integer NOT NULL,
    attempt      integer NOT NULL,
    outcome      text NOT NULL CHECK (outcome IN ('out', 'error')),
    output       jsonb NOT NULL,
    deadline_at  timestamptz,
    at           timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, visit, attempt),
    FOREIGN KEY (run_id, visit) REFERENCES effects (run_id, visit) ON DELETE CASCADE
);

-- One row per run for auditors: who or what started it, with what, and how it ended. No foreign key:
-- it outlives the run's sweep and goes only by its own retention (FLOWYARD_RUN_RECORD_RETENTION_DAYS).
CREATE TABLE run_records (
    run_id        bigint PRIMARY KEY,
    flow_id       bigint NOT NULL,
    flow_name     text NOT NULL,
    version       integer NOT NULL,
    trigger_kind  text NOT NULL,
    started_by    text,
    -- the key the trigger started it under: `webhook:` and the sender's Idempotency-Key, or a schedule's fire
    trigger_key   text,
    started_at    timestamptz NOT NULL,
    ended_at      timestamptz,
    status        text NOT NULL,
    error         text,
    -- SHA-256 of the input's jsonb text (keys sorted the way jsonb keeps them)
    input_digest  text NOT NULL,
    input_kept    boolean NOT NULL,
    input         jsonb
);
CREATE INDEX run_records_ended ON run_records (ended_at) WHERE ended_at IS NOT NULL;
CREATE INDEX run_records_started ON run_records (started_at, run_id);

-- Written by the database itself, so that every way a run starts or changes (the worker's batched
-- writes, a cancel, a person's resume or end) keeps its record in step in the same transaction.
CREATE FUNCTION record_run() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    doc jsonb;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT v.document INTO doc FROM flow_versions AS v
        WHERE v.flow_id = NEW.flow_id AND v.version = NEW.version;
        INSERT INTO run_records (run_id, flow_id, flow_name, version, trigger_kind, started_by, trigger_key,
                                 started_at, status, input_digest, input_kept, input)
        SELECT NEW.id, NEW.flow_id, coalesce(doc ->> 'name', ''), NEW.version, NEW.trigger_kind,
               NEW.started_by, NEW.idempotency_key, NEW.created_at, NEW.status,
               encode(sha256(convert_to(coalesce(NEW.input, 'null'::jsonb)::text, 'UTF8')), 'hex'),
               keep, CASE WHEN keep THEN NEW.input END
        FROM (SELECT NOT EXISTS (
                  SELECT 1 FROM jsonb_array_elements(doc -> 'nodes') AS n
                  WHERE n ->> 'type' = 'trigger' AND n -> 'config' -> 'record_input' = 'false'::jsonb
              ) AS keep) AS opted;
    ELSIF NEW.status IS DISTINCT FROM OLD.status OR NEW.version IS DISTINCT FROM OLD.version THEN
        UPDATE run_records
        SET status = NEW.status, error = NEW.error, ended_at = NEW.ended_at, version = NEW.version
        WHERE run_id = NEW.id;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER runs_record AFTER INSERT OR UPDATE OF status, version ON runs
    FOR EACH ROW EXECUTE FUNCTION record_run();

INSERT INTO run_records (run_id, flow_id, flow_name, version, trigger_kind, started_by, trigger_key,
                         started_at, ended_at, status, error, input_digest, input_kept, input)
SELECT r.id, r.flow_id, coalesce(v.document ->> 'name', ''), r.version, r.trigger_kind, r.started_by,
       r.idempotency_key, r.created_at, r.ended_at, r.status, r.error,
       encode(sha256(convert_to(coalesce(r.input, 'null'::jsonb)::text, 'UTF8')), 'hex'), true, r.input
FROM runs AS r JOIN flow_versions AS v ON v.flow_id = r.flow_id AND v.version = r.version;
