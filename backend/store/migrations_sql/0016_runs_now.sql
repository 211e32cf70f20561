-- A run as people read it, written once for every statement that shows one (the queue's get_run and
-- list_runs): its row, with `status` `running` while a worker holds its wait (asked per run through the
-- one-wait-per-run index; the runs table never holds `running` for long). A plain view: the planner
-- expands it into each statement, so their plans are those of the CASE written out.
CREATE VIEW runs_now AS
SELECT r.id, r.flow_id, r.version,
       CASE WHEN EXISTS (SELECT 1 FROM waits AS w WHERE w.run_id = r.id AND w.status = 'claimed')
            THEN 'running' ELSE r.status END AS status,
       r.trigger_kind, r.error, r.started_by, r.created_at, r.updated_at, r.ended_at, r.input
FROM runs AS r;
