-- `audit verify --since-last` (since_last.py): each statement reads one chain's records after its last
-- verified point, or the rows of one chain written since a moment, through an index: never the whole trail.

-- name: verified_points
-- Each chain's last verified record, and when its rows were last checked for a record.
SELECT chain, seq, hash, rows_checked_at FROM audit_verified
WHERE %(chain)s::text IS NULL OR chain = %(chain)s::text
ORDER BY chain

-- name: verified_points_reached
-- Move chains' verified points on; `at` (when given) is when their rows were checked, else it stays.
INSERT INTO audit_verified AS v (chain, seq, hash, rows_checked_at)
SELECT point.chain, point.seq, point.hash, %(at)s::timestamptz
FROM unnest(%(chains)s::text[], %(seqs)s::bigint[], %(hashes)s::text[]) AS point (chain, seq, hash)
ON CONFLICT (chain) DO UPDATE
SET seq = EXCLUDED.seq, hash = EXCLUDED.hash, rows_checked_at = coalesce(EXCLUDED.rows_checked_at, v.rows_checked_at)

-- name: verified_rows_differing
-- Records of one page of a chain whose row is no longer what was recorded (changed, or gone): each row
-- found by its id.
SELECT c.chain, c.seq, c.kind, c.ref_id, src.content IS NULL AS gone, c.at
FROM audit_chain AS c
LEFT JOIN LATERAL (
    SELECT audit_decision_content(a) AS content FROM approvals AS a
    WHERE c.kind = 'decision' AND a.id = c.ref_id
    UNION ALL
    SELECT audit_vote_content(v) FROM approval_votes AS v WHERE c.kind = 'vote' AND v.id = c.ref_id
    UNION ALL
    SELECT audit_rights_content(r) FROM rights_trail AS r WHERE c.kind = 'rights' AND r.id = c.ref_id
) AS src ON true
WHERE c.chain = %(chain)s::text AND c.seq BETWEEN %(first)s::bigint AND %(last)s::bigint
  AND src.content IS DISTINCT FROM c.content
ORDER BY c.seq

-- name: verified_rows_unrecorded
-- One chain's decisions, votes and rights changes written since `since` (NULL: ever) that no record
-- covers. `flow` is the chain's flow, NULL for `global` (rights changes that name no flow).
SELECT trail.kind, trail.ref_id, %(chain)s::text AS chain FROM (
    SELECT 'decision' AS kind, a.id AS ref_id FROM approvals AS a
    WHERE a.flow_id = %(flow)s::bigint AND a.outcome IS NOT NULL
      AND (%(since)s::timestamptz IS NULL OR a.decided_at >= %(since)s::timestamptz)
    UNION ALL
    SELECT 'vote', v.id FROM approval_votes AS v
    WHERE v.flow_id = %(flow)s::bigint
      AND (%(since)s::timestamptz IS NULL OR v.cast_at >= %(since)s::timestamptz)
    UNION ALL
    SELECT 'rights', r.id FROM rights_trail AS r
    WHERE r.flow_id = %(flow)s::bigint
      AND (%(since)s::timestamptz IS NULL OR r.at >= %(since)s::timestamptz)
    UNION ALL
    SELECT 'rights', r.id FROM rights_trail AS r
    WHERE %(flow)s::bigint IS NULL AND r.flow_id IS NULL
      AND (%(since)s::timestamptz IS NULL OR r.at >= %(since)s::timestamptz)
) AS trail
WHERE NOT EXISTS (SELECT 1 FROM audit_chain AS c WHERE c.kind = trail.kind AND c.ref_id = trail.ref_id)
ORDER BY trail.kind, trail.ref_id

-- name: verified_now
-- The database's now, which stamps the rows a verify checked: their own times are the database's, and a
-- verifying machine's clock may run ahead of it.
SELECT now()
