-- The triggers that keep run records (0010) and send the pages' change notifications (0009) fire once per
-- statement instead of once per row: the worker writes a batch of runs with one UPDATE, which used to call
-- two PL/pgSQL functions for every run in it. Each statement's changed rows are read from its transition
-- tables in set-based statements. What they write is unchanged: a record per new run, the record kept in
-- step when a run's status or version changes, and a NOTIFY on flowyard_runs per new run and per run whose
-- status, journal or end changed, with the same payload.

DROP TRIGGER runs_record ON runs;
DROP FUNCTION record_run();
DROP TRIGGER runs_changed ON runs;
DROP FUNCTION runs_changed();

-- New runs: their records (each flow version's document read once per statement, not once per run), then
-- one NOTIFY each, in the order they were inserted.
CREATE FUNCTION runs_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    WITH versions AS (
        SELECT v.flow_id, v.version, coalesce(v.document ->> 'name', '') AS name,
               NOT EXISTS (
                   SELECT 1 FROM jsonb_array_elements(v.document -> 'nodes') AS n
                   WHERE n ->> 'type' = 'trigger' AND n -> 'config' -> 'record_input' = 'false'::jsonb
               ) AS keep
        FROM flow_versions AS v
        WHERE (v.flow_id, v.version) IN (SELECT DISTINCT flow_id, version FROM new_runs)
    )
    INSERT INTO run_records (run_id, flow_id, flow_name, version, trigger_kind, started_by, trigger_key,
                             started_at, status, input_digest, input_kept, input)
    SELECT r.id, r.flow_id, coalesce(v.name, ''), r.version, r.trigger_kind, r.started_by, r.idempotency_key,
           r.created_at, r.status,
           encode(sha256(convert_to(coalesce(r.input, 'null'::jsonb)::text, 'UTF8')), 'hex'),
           coalesce(v.keep, true), CASE WHEN coalesce(v.keep, true) THEN r.input END
    FROM new_runs AS r LEFT JOIN versions AS v ON v.flow_id = r.flow_id AND v.version = r.version;
    PERFORM pg_notify('flowyard_runs',
                      json_build_object('run', r.id, 'flow', r.flow_id, 'status', r.status)::text)
    FROM new_runs AS r;
    RETURN NULL;
END
$$;
CREATE TRIGGER runs_inserted AFTER INSERT ON runs
    REFERENCING NEW TABLE AS new_runs
    FOR EACH STATEMENT EXECUTE FUNCTION runs_inserted();

-- Changed runs. A trigger with transition tables cannot name columns (UPDATE OF ...), so it fires for
-- every UPDATE of runs and picks the rows whose values changed: the record follows a change of status or
-- version (as 0010's did), the NOTIFY a change of status, journal or end (0009's fired on any UPDATE
-- naming those columns; one that left them as they were told a page nothing new).
CREATE FUNCTION runs_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE run_records AS rec
    SET status = r.status, error = r.error, ended_at = r.ended_at, version = r.version
    FROM new_runs AS r JOIN old_runs AS o ON o.id = r.id
    WHERE rec.run_id = r.id
      AND (r.status IS DISTINCT FROM o.status OR r.version IS DISTINCT FROM o.version);
    PERFORM pg_notify('flowyard_runs',
                      json_build_object('run', r.id, 'flow', r.flow_id, 'status', r.status)::text)
    FROM new_runs AS r JOIN old_runs AS o ON o.id = r.id
    WHERE r.status IS DISTINCT FROM o.status OR r.journal_seq IS DISTINCT FROM o.journal_seq
       OR r.ended_at IS DISTINCT FROM o.ended_at;
    RETURN NULL;
END
$$;
CREATE TRIGGER runs_updated AFTER UPDATE ON runs
    REFERENCING OLD TABLE AS old_runs NEW TABLE AS new_runs
    FOR EACH STATEMENT EXECUTE FUNCTION runs_updated();

-- The audit chain appends a record for a decided approval only; an approval is inserted undecided, so the
-- insert no longer calls the function at all (the WHEN is evaluated without PL/pgSQL). Same name, so
-- whatever disables it by name (a bulk load) still does.
DROP TRIGGER approvals_chained ON approvals;
CREATE TRIGGER approvals_chained AFTER INSERT OR UPDATE OF outcome ON approvals
    FOR EACH ROW WHEN (NEW.outcome IS NOT NULL) EXECUTE FUNCTION audit_chain_decision();
