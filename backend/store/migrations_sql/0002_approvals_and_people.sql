-- Approvals (product: what was asked, of whom, and what was decided), and the people who decide.

CREATE TABLE users (
    name           text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9_.@-]{1,64}$'),
    password_hash  text,
    locale         text,
    created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE group_members (
    group_name  text NOT NULL,
    user_name   text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    PRIMARY KEY (group_name, user_name)
);

-- A right, everywhere (flow_id NULL) or on one flow. Deciding is a right of its own, never implied.
CREATE TABLE grants (
    user_name  text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    "right"    text NOT NULL CHECK ("right" IN ('edit', 'run', 'decide', 'audit', 'admin')),
    flow_id    bigint REFERENCES flows (id),
    UNIQUE NULLS NOT DISTINCT (user_name, "right", flow_id)
);

CREATE TABLE tokens (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_name   text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    -- SHA-256 of the token: the token itself is shown once and never stored
    token_hash  text NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz
);

-- No foreign key to runs: an approval outlives its run, whatever the run sweep deletes.
CREATE TABLE approvals (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id        bigint NOT NULL,
    flow_id       bigint NOT NULL,
    version       integer NOT NULL,
    node          text NOT NULL,
    visit         integer NOT NULL,
    title         text NOT NULL,
    explanation   text NOT NULL,
    approvers     text[] NOT NULL,
    deadline      interval,
    deadline_at   timestamptz,
    on_timeout    text CHECK (on_timeout IN ('approve', 'reject', 'skip')),
    requested_at  timestamptz NOT NULL,
    -- cancelled: the run was cancelled; run_failed: the run failed while it waited here
    outcome       text CHECK (outcome IN ('approved', 'rejected', 'timed_out_approved',
                                          'timed_out_rejected', 'skipped', 'cancelled', 'run_failed')),
    decided_by    text,
    decided_at    timestamptz,
    comment       text,
    -- one approval per visit: a loop asks again on every pass
    UNIQUE (run_id, visit),
    CHECK ((outcome IS NULL) = (decided_at IS NULL))
);
CREATE INDEX approvals_open ON approvals (requested_at) WHERE outcome IS NULL;
-- The audit trail, in its stable order: all decisions, one flow's, one decider's.
CREATE INDEX approvals_decided ON approvals (decided_at, id) WHERE outcome IS NOT NULL;
CREATE INDEX approvals_decided_by_flow ON approvals (flow_id, decided_at, id) WHERE outcome IS NOT NULL;
CREATE INDEX approvals_decided_by_decider ON approvals (decided_by, decided_at, id) WHERE outcome IS NOT NULL;

-- A decided approval is the audit trail: the database refuses to change or delete it, even for a bug.
-- The one exception is the approvals' own retention sweep (FLOWYARD_APPROVAL_RETENTION_DAYS, off unless
-- set), which may delete, never change, and only in a transaction that declares itself with
-- `set_config('flowyard.approval_retention', 'on', true)`.
CREATE FUNCTION approvals_decided_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.outcome IS NOT NULL THEN
        IF TG_OP = 'DELETE' AND current_setting('flowyard.approval_retention', true) = 'on' THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION 'approval % was decided (%) and cannot change', OLD.id, OLD.outcome
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER approvals_final BEFORE UPDATE OR DELETE ON approvals
    FOR EACH ROW EXECUTE FUNCTION approvals_decided_are_final();
