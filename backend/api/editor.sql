-- What the editor's flows page shows beside each flow.

-- name: flow_summaries
-- For each flow id: its newest version's trigger kind, who saved that version and when, and the status
-- of its newest run (one index probe per flow: runs_by_flow).
SELECT f.id,
       jsonb_path_query_first(v.document, '$.nodes[*] ? (@.type == "trigger").config.kind') #>> '{}',
       v.created_at,
       v.created_by,
       (SELECT r.status FROM runs AS r WHERE r.flow_id = f.id ORDER BY r.id DESC LIMIT 1)
FROM flows AS f JOIN flow_versions AS v ON v.flow_id = f.id AND v.version = f.latest_version
WHERE f.id = ANY(%(ids)s)
