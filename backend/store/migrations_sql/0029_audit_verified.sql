-- Incremental, resumable `flowyard audit verify --since-last` (issue 38). Verifying a year of decisions
-- from the first record each time reads everything the database holds; an auditor who verified
-- yesterday wants today's records checked. Each chain's last verified record is kept here: the next
-- `--since-last` starts from it (that record's hash must still be the one verified), checks only the
-- records after it and their rows, and moves it on a page at a time, so a verify that is interrupted
-- resumes where it stopped. `rows_checked_at` is when the chain's rows were last checked for a record
-- (rows written with the chain's trigger disabled): the next check reads the rows decided, cast or
-- changed since then. A full `audit verify` trusts none of this and moves every intact chain's point.
CREATE TABLE audit_verified (
    chain            text PRIMARY KEY,
    seq              bigint NOT NULL,
    hash             text NOT NULL,
    rows_checked_at  timestamptz
);

-- The rows of one chain written since a moment: what `--since-last` checks for a record. Decisions are
-- found by approvals_decided_by_flow.
CREATE INDEX approval_votes_by_flow_cast ON approval_votes (flow_id, cast_at);
CREATE INDEX rights_trail_by_flow_at ON rights_trail (flow_id, at);
