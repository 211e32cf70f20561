-- Flows and their versions.

-- name: insert_flow
-- A new flow, with no version yet.
INSERT INTO flows (name, created_by) VALUES (%(name)s, %(by)s) RETURNING id

-- name: add_version
-- The next version of a flow; the flow row's lock orders two saves of one flow.
WITH bumped AS (
    UPDATE flows SET latest_version = latest_version + 1, name = %(name)s
    WHERE id = %(flow_id)s
    RETURNING id, latest_version
)
INSERT INTO flow_versions (flow_id, version, document, created_by)
SELECT id, latest_version, %(document)s, %(by)s FROM bumped
RETURNING version

-- name: latest_version
-- The version a new run of a flow is pinned to.
SELECT latest_version FROM flows WHERE id = %(flow_id)s AND latest_version > 0
