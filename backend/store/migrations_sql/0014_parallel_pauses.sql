-- Several pauses of one run pending at once (issue 24, `parallel`): the run still has one wait row, whose
-- wake_at is the earliest due time among its pauses; each pause's own due time is kept in `pauses`, a map
-- keyed "node@visit" to {"node", "visit", "kind", "due"} ("due": a timestamptz's text, or "infinity"),
-- so a wake resumes exactly the pauses that are due. NULL for a wait with one pause (every sequential
-- flow): that wait's kind, node, visit and wake_at say everything, as before.
ALTER TABLE waits ADD COLUMN pauses jsonb CHECK (pauses IS NULL OR jsonb_typeof(pauses) = 'object');

-- An approval left open in a branch that a parallel's wait rule cancelled ("first", N) can no longer be
-- decided: it closes as branch_cancelled, as one open when its run fails closes as run_failed.
ALTER TABLE approvals DROP CONSTRAINT approvals_outcome_check;
ALTER TABLE approvals ADD CONSTRAINT approvals_outcome_check
    CHECK (outcome IN ('approved', 'rejected', 'timed_out_approved', 'timed_out_rejected', 'skipped',
                       'cancelled', 'run_failed', 'branch_cancelled'));
