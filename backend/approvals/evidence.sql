-- The evidence for one decision (evidence.py): its approval, its records and the records after them up to
-- a signed head, its run's record, its flow version, and the rights trail of the people who decided.

-- name: evidence_approval
-- The approval the evidence is for, decided (its outcome set) or not.
SELECT id, flow_id, version, run_id, outcome, decided_by, on_behalf_of, decided_at
FROM approvals WHERE id = %(approval)s

-- name: evidence_records_of
-- The chain records of the approval's decision and of its votes, in chain order.
SELECT c.chain, c.seq, c.kind, c.ref_id, c.content, c.prev_hash, c.hash
FROM audit_chain AS c
WHERE (c.kind = 'decision' AND c.ref_id = %(approval)s)
   OR (c.kind = 'vote' AND c.ref_id IN (SELECT v.id FROM approval_votes AS v WHERE v.approval_id = %(approval)s))
ORDER BY c.chain, c.seq

-- name: evidence_chain_span
-- A chain's records from one position to another, in order: the way from a decision to a signed head.
SELECT chain, seq, kind, ref_id, content, prev_hash, hash
FROM audit_chain
WHERE chain = %(chain)s AND seq BETWEEN %(first)s AND %(last)s
ORDER BY seq

-- name: evidence_run
-- The run's record for auditors: who started it, when, and its input when kept.
SELECT run_id, trigger_kind, started_by, started_at, status, input_digest, input_kept, input
FROM run_records WHERE run_id = %(run)s

-- name: evidence_flow_version
-- The flow version the run walked, as it was saved.
SELECT f.name, v.document, v.created_at, v.created_by
FROM flow_versions AS v JOIN flows AS f ON f.id = v.flow_id
WHERE v.flow_id = %(flow)s AND v.version = %(version)s

-- name: evidence_rights_records
-- The chained rights changes about the people who decided or voted, and about those they decided for (a
-- delegation is a change about the one who delegates), up to the decision, in the order they happened.
SELECT c.chain, c.seq, c.kind, c.ref_id, c.content, c.prev_hash, c.hash
FROM rights_trail AS r
JOIN audit_chain AS c ON c.kind = 'rights' AND c.ref_id = r.id
WHERE r.user_name = ANY(%(users)s::text[]) AND r.at <= %(at)s
ORDER BY r.id
