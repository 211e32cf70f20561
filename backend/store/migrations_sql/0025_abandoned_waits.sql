-- Issue 35, item 8: a wait whose last claim was abandoned (its lease lapsed: the worker holding it died,
-- hung, or lost the database for longer than a lease) is a suspect: it may be the run that kills the
-- workers that walk it. Workers claim in batches and a dying worker loses every claim it holds, so such a
-- run used to take the runs claimed beside it to `claim_abandoned` with it. `abandoned` is set when the
-- claim is given back (release_expired_claims) and cleared by the next claim; the claim statement takes
-- at most one abandoned wait, and none for a worker that already holds one (docs/runs.md).
ALTER TABLE waits ADD COLUMN abandoned boolean NOT NULL DEFAULT false;

-- The claim's own question for the suspects: few rows, usually none, so the index stays small.
CREATE INDEX waits_abandoned ON waits (wake_at) WHERE status = 'waiting' AND abandoned;
