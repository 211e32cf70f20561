-- A decision and a vote go on their flow's chain as their transaction commits, no longer as they are
-- written (issue 18). Appending takes the chain head's row lock, held until the transaction ends: taken at
-- the vote's INSERT, it made every other decision of the flow wait for the rest of this one's statements
-- and round trips as well as for its commit; taken at commit, only for the commit. What is appended, in
-- which order (the transaction's own, event by event) and under which lock is unchanged, and a record
-- still commits with its row or not at all. Rights changes stay appended as they are written: they are
-- few, and none waits on a request's path. Same names, so whatever disables them by name (a bulk load)
-- still does.
DROP TRIGGER approvals_chained ON approvals;
CREATE CONSTRAINT TRIGGER approvals_chained AFTER INSERT OR UPDATE OF outcome ON approvals
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.outcome IS NOT NULL) EXECUTE FUNCTION audit_chain_decision();

DROP TRIGGER approval_votes_chained ON approval_votes;
CREATE CONSTRAINT TRIGGER approval_votes_chained AFTER INSERT ON approval_votes
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION audit_chain_vote();
