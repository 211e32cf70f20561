-- The chained trail's verification. These read a whole chain, or every chain, by design: verifying is
-- reading everything once (each statement is a single pass; none runs on a request's hot path).

-- name: chain_records
-- The chains' records, in order, a page after (chain, seq); with `until`, none past that seq.
SELECT chain, seq, kind, ref_id, content, prev_hash, hash
FROM audit_chain
WHERE (%(chain)s::text IS NULL OR chain = %(chain)s::text)
  AND (chain, seq) > (coalesce(%(after_chain)s::text, ''), coalesce(%(after_seq)s::bigint, 0))
  AND (%(until)s::bigint IS NULL OR seq <= %(until)s::bigint)
ORDER BY chain, seq
LIMIT %(limit)s

-- name: chain_heads
-- Each chain's last record as its head says it.
SELECT chain, seq, hash FROM audit_chain_heads
WHERE (%(chain)s::text IS NULL OR chain = %(chain)s::text)
ORDER BY chain

-- name: chain_rows_differing
-- Records whose row is no longer what was recorded: changed (its content now differs) or gone. Each kind
-- of record joined with its own table by id (a lookup per record took 97 s for 400,000; one join of every
-- kind on (kind, id) hashed all of them together): the server shares each join among parallel workers,
-- and the content functions are inlined (migration 0030).
SELECT c.chain, c.seq, c.kind, c.ref_id, a.id IS NULL AS gone, c.at
FROM audit_chain AS c LEFT JOIN approvals AS a ON a.id = c.ref_id
WHERE c.kind = 'decision' AND (%(chain)s::text IS NULL OR c.chain = %(chain)s::text)
  AND audit_decision_content(a) IS DISTINCT FROM c.content
UNION ALL
SELECT c.chain, c.seq, c.kind, c.ref_id, v.id IS NULL, c.at
FROM audit_chain AS c LEFT JOIN approval_votes AS v ON v.id = c.ref_id
WHERE c.kind = 'vote' AND (%(chain)s::text IS NULL OR c.chain = %(chain)s::text)
  AND audit_vote_content(v) IS DISTINCT FROM c.content
UNION ALL
SELECT c.chain, c.seq, c.kind, c.ref_id, r.id IS NULL, c.at
FROM audit_chain AS c LEFT JOIN rights_trail AS r ON r.id = c.ref_id
WHERE c.kind = 'rights' AND (%(chain)s::text IS NULL OR c.chain = %(chain)s::text)
  AND audit_rights_content(r) IS DISTINCT FROM c.content
ORDER BY chain, seq

-- name: chain_rows_unrecorded
-- Decisions, votes and rights changes that no record covers: written with the chain's trigger disabled.
SELECT kind, ref_id, chain FROM (
    SELECT 'decision' AS kind, a.id AS ref_id, 'flow:' || a.flow_id AS chain
    FROM approvals AS a WHERE a.outcome IS NOT NULL
    UNION ALL
    SELECT 'vote', v.id, 'flow:' || v.flow_id FROM approval_votes AS v
    UNION ALL
    SELECT 'rights', r.id, coalesce('flow:' || r.flow_id, 'global') FROM rights_trail AS r
) AS trail
WHERE (%(chain)s::text IS NULL OR trail.chain = %(chain)s::text)
  AND NOT EXISTS (SELECT 1 FROM audit_chain AS c WHERE c.kind = trail.kind AND c.ref_id = trail.ref_id)
ORDER BY chain, kind, ref_id

-- name: chain_heads_to_sign
-- Each chain's head with its seq, read at one moment: what a signed heads line holds.
SELECT chain, seq, hash FROM audit_chain_heads WHERE seq > 0 ORDER BY chain

-- name: chain_hashes_at
-- The records' hashes at the positions given (a signed head, a verified point): absent when gone.
SELECT c.chain, c.seq, c.hash
FROM unnest(%(chains)s::text[], %(seqs)s::bigint[]) AS at_ (chain, seq)
JOIN audit_chain AS c ON c.chain = at_.chain AND c.seq = at_.seq
