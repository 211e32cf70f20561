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

-- The signed heads, mailed to the auditors' address (FLOWYARD_AUDITORS_EMAIL): an outbox, as the
-- approvals' mails have. A line is queued here as it is signed, and sent by whoever signed it (a worker
-- at its interval, `flowyard audit sign`); a failed try is tried again after the queue's backoff, five
-- times at most. `key` (the line's digest) is the mail's Message-ID: a mail sent again after a crash is
-- the same message, and a line is queued once.
CREATE TABLE signed_heads_mails (
    key          text PRIMARY KEY,
    line         text NOT NULL,
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts     integer NOT NULL DEFAULT 0,
    next_try_at  timestamptz NOT NULL DEFAULT now(),
    error        text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    sent_at      timestamptz
);
CREATE INDEX signed_heads_mails_due ON signed_heads_mails (next_try_at) WHERE status = 'pending';
