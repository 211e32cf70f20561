-- Users' e-mail addresses, the outbox of the mails that call approvers, and the NOTIFY the runs pages
-- listen to.

-- Where an approver is told that something waits for them; optional: a user without one gets no mail.
ALTER TABLE users ADD COLUMN email text
    CHECK (email IS NULL OR (length(email) <= 254 AND email ~ '^[^@\s<>,;"]+@[^@\s<>,;"]+$'));

-- Who started the run, kept with the approval: the audit trail reads the product table only, and a run
-- may be swept long before its decisions are.
ALTER TABLE approvals ADD COLUMN started_by text;

-- One mail per approval and approver, written in the transaction that parks the run at the approval,
-- before anything leaves: a crash after that commit loses no mail, and a retried walk cannot write a
-- second row. The key is the message's Message-ID on every try, as the effects log's key is for a
-- notify node. The recipient's address, language and time zone are read when the mail is sent.
CREATE TABLE approval_mails (
    approval_id  bigint NOT NULL REFERENCES approvals (id) ON DELETE CASCADE,
    user_name    text NOT NULL,
    key          text NOT NULL UNIQUE,
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
    attempts     integer NOT NULL DEFAULT 0,
    next_try_at  timestamptz NOT NULL DEFAULT now(),
    error        text,
    sent_at      timestamptz,
    PRIMARY KEY (approval_id, user_name)
);
CREATE INDEX approval_mails_due ON approval_mails (next_try_at) WHERE status = 'pending';

-- Every change of a run a page shows (a new run, its status, a new journal stretch) is one NOTIFY on
-- flowyard_runs. The API holds one LISTEN connection per process and fans the events out to the
-- browsers' event streams; a NOTIFY is sent at commit, so a page never hears of a change it cannot read.
CREATE FUNCTION runs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('flowyard_runs',
                      json_build_object('run', NEW.id, 'flow', NEW.flow_id, 'status', NEW.status)::text);
    RETURN NULL;
END
$$;
CREATE TRIGGER runs_changed AFTER INSERT OR UPDATE OF status, journal_seq, ended_at ON runs
    FOR EACH ROW EXECUTE FUNCTION runs_changed();

-- The People page counts each user's tokens.
-- tokens_by_user (user_name, id) comes with 0008 and serves the People page's count of tokens too.
