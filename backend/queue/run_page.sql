-- The run page's read: everything the queue keeps about one run that its page shows, in one statement
-- (a round trip per part cost more than the parts).

-- name: run_page
-- One run (`running` while a worker holds its wait), a page of its journal as one JSON array, what its
-- wait waits for (with the retries of branches' failed actions it holds, issue 35), a paused run's variables, the pinned version's document and the flow's name, the visits
-- by node, and the line that says why it failed (its last run_failed; only for a run with an error).
SELECT r.id, r.flow_id, r.version, r.status, r.trigger_kind, r.error, r.started_by, r.created_at,
       r.updated_at, r.ended_at, r.input,
       (SELECT coalesce(json_agg(json_build_object(
                   'seq', j.seq, 'at', j.at, 'code', j.code, 'node', j.node, 'visit', j.visit, 'data', j.data)
                   ORDER BY j.seq), '[]')
        FROM (SELECT seq, at, code, node, visit, data FROM journal
              WHERE run_id = r.id AND seq > %(after)s ORDER BY seq LIMIT %(limit)s) AS j) AS journal,
       (SELECT json_build_object('kind', w.kind, 'node', w.node, 'visit', w.visit,
                                 'wake_at', CASE WHEN w.wake_at < 'infinity' THEN w.wake_at END,
                                 'status', w.status, 'attempts', w.attempts, 'last_error', w.last_error,
                                 'retries', (SELECT coalesce(json_agg(json_build_object(
                                                 'node', p.value ->> 'node', 'visit', (p.value ->> 'visit')::integer,
                                                 'due', (p.value ->> 'due')::timestamptz,
                                                 'attempt', (p.value ->> 'attempt')::integer)
                                                 ORDER BY (p.value ->> 'due')::timestamptz), '[]')
                                             FROM jsonb_each(w.pauses) AS p (key, value)
                                             WHERE p.value ->> 'kind' = 'retry'))
        FROM waits AS w WHERE w.run_id = r.id) AS wait,
       (SELECT w.continuation -> 'vars' FROM waits AS w WHERE w.run_id = r.id) AS variables,
       f.name AS flow_name, v.document,
       (SELECT coalesce(json_object_agg(n.node, n.visits), '{}')
        FROM (SELECT node, count(*) AS visits FROM journal
              WHERE run_id = r.id AND code = 'node_visited' AND node IS NOT NULL GROUP BY node) AS n) AS visits,
       CASE WHEN r.error IS NOT NULL THEN
           (SELECT json_build_object('node', j.node, 'data', j.data) FROM journal AS j
            WHERE j.run_id = r.id AND j.code = 'run_failed' ORDER BY j.seq DESC LIMIT 1)
       END AS failure
FROM runs_now AS r
LEFT JOIN flow_versions AS v ON v.flow_id = r.flow_id AND v.version = r.version
LEFT JOIN flows AS f ON f.id = r.flow_id
WHERE r.id = %(run_id)s
