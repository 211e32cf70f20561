-- Flows and their versions.

-- name: insert_flow
-- A new flow, with no version yet.
INSERT INTO flows (name, created_by) VALUES (%(name)s, %(by)s) RETURNING id

-- name: add_version
-- The next version of a flow; the flow row's lock orders two saves of one flow.
WITH bumped AS (
    UPDATE flows SET latest_version = latest_version + 1, name = %(name)s, description = %(description)s
    WHERE id = %(flow_id)s
    RETURNING id, latest_version
)
INSERT INTO flow_versions (flow_id, version, document, created_by)
SELECT id, latest_version, %(document)s, %(by)s FROM bumped
RETURNING version

-- name: list_flows
-- The flows a user may read (any right on the flow, or everywhere), newest first, after a cursor.
SELECT f.id, f.name, f.latest_version AS version, f.created_at, f.created_by,
       f.webhook_secret_hash IS NOT NULL AS webhook
FROM flows AS f
WHERE f.latest_version > 0
  AND EXISTS (SELECT 1 FROM grants AS g
              WHERE g.user_name = %(user)s AND (g.flow_id IS NULL OR g.flow_id = f.id))
  AND f.id < coalesce(%(before)s::bigint, 9223372036854775807)
ORDER BY f.id DESC
LIMIT %(limit)s

-- name: get_flow
-- One flow with its newest document.
SELECT f.id, f.name, f.description, f.latest_version AS version, f.created_at, f.created_by,
       f.webhook_secret_hash IS NOT NULL AS webhook, v.document
FROM flows AS f JOIN flow_versions AS v ON v.flow_id = f.id AND v.version = f.latest_version
WHERE f.id = %(flow_id)s

-- name: list_versions
-- A flow's versions, newest first.
SELECT version, created_at, created_by FROM flow_versions WHERE flow_id = %(flow_id)s ORDER BY version DESC

-- name: get_version
-- One saved version of a flow.
SELECT version, created_at, created_by, document FROM flow_versions
WHERE flow_id = %(flow_id)s AND version = %(version)s

-- name: set_webhook_secret
-- A new webhook secret (its digest), and who set it: the old one stops working at once.
UPDATE flows SET webhook_secret_hash = %(digest)s, webhook_secret_by = %(by)s WHERE id = %(flow_id)s
RETURNING id

-- name: webhook_of
-- What a webhook call is checked against: the secret's digest, and the newest document (its trigger).
SELECT f.webhook_secret_hash AS digest, v.document
FROM flows AS f JOIN flow_versions AS v ON v.flow_id = f.id AND v.version = f.latest_version
WHERE f.id = %(flow_id)s

-- name: flow_summaries
-- For each flow id: its newest version's trigger kind, who saved that version and when, and the status
-- of its newest run (one index probe per flow: runs_by_flow).
SELECT f.id,
       jsonb_path_query_first(v.document, '$.nodes[*] ? (@.type == "trigger").config.kind') #>> '{}'
           AS trigger_kind,
       v.created_at AS changed_at,
       v.created_by AS changed_by,
       (SELECT r.status FROM runs AS r WHERE r.flow_id = f.id ORDER BY r.id DESC LIMIT 1) AS last_run_status
FROM flows AS f JOIN flow_versions AS v ON v.flow_id = f.id AND v.version = f.latest_version
WHERE f.id = ANY(%(ids)s)

-- name: newest_version_for_update
-- The flow's newest version, who saved it and when; the flow's row locked until the transaction ends.
SELECT f.latest_version AS version, v.created_at, v.created_by
FROM flows AS f JOIN flow_versions AS v ON v.flow_id = f.id AND v.version = f.latest_version
WHERE f.id = %(flow_id)s
FOR UPDATE OF f

-- name: flow_names_for_update
-- The flow's name and description as they are; its row locked until the rename commits.
SELECT name, description, latest_version AS version FROM flows
WHERE id = %(flow_id)s AND latest_version > 0 FOR UPDATE

-- name: lock_flow_name
-- Renames to one name (case folded) wait for each other until the first commits, so that two of them
-- cannot both find the name free.
SELECT pg_advisory_xact_lock(hashtextextended('flow name ' || lower(%(name)s), 0))

-- name: flow_name_holder
-- Another flow that has this name, compared case folded (flows_name_folded).
SELECT id FROM flows WHERE lower(name) = lower(%(name)s) AND id <> %(flow_id)s AND latest_version > 0
LIMIT 1

-- name: rename_flow
-- The flow's name and description, changed without a new version; what it holds now, or no row.
UPDATE flows SET name = %(name)s, description = %(description)s
WHERE id = %(flow_id)s AND latest_version > 0
RETURNING name, description, latest_version AS version
