-- Approvals no other tool gets right (issue 21): quorum with one immutable row per vote, four eyes,
-- reminders and escalation, delegation, and a hash-chained trail of decisions, votes and rights changes.

-- Approvals -------------------------------------------------------------------------------------------

-- The node's rules, copied onto the request when it is made, as title and approvers are: a later
-- version of the flow never changes how an open approval is decided. Rows made before this migration
-- keep the rules they were made under (self-approval allowed); new ones refuse it unless the node says so.
ALTER TABLE approvals
    ADD COLUMN quorum              integer NOT NULL DEFAULT 1 CHECK (quorum BETWEEN 1 AND 100),
    ADD COLUMN reject_rule         text NOT NULL DEFAULT 'any' CHECK (reject_rule IN ('any', 'quorum')),
    ADD COLUMN allow_self_approval boolean NOT NULL DEFAULT true,
    -- the author of the flow version the run follows, kept like started_by: the four-eyes rule reads it
    ADD COLUMN author              text,
    -- who the decider stood in for, when a delegate decided
    ADD COLUMN on_behalf_of        text,
    ADD COLUMN remind_after        interval[] NOT NULL DEFAULT '{}',
    ADD COLUMN reminders_sent      integer NOT NULL DEFAULT 0,
    ADD COLUMN escalate_after      interval,
    ADD COLUMN escalate_to         text[] NOT NULL DEFAULT '{}',
    ADD COLUMN escalated_at        timestamptz;
ALTER TABLE approvals ALTER COLUMN allow_self_approval SET DEFAULT false;

-- Every vote is a row of its own, never changed: who clicked (`voter`), whose seat it took (`seat`: the
-- voter, or the approver a delegate stood in for). One vote per person and one per seat, so a delegate
-- who is an approver too never counts twice. The approval's row lock orders concurrent votes.
CREATE TABLE approval_votes (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    approval_id   bigint NOT NULL REFERENCES approvals (id) ON DELETE CASCADE,
    flow_id       bigint NOT NULL,
    voter         text NOT NULL,
    on_behalf_of  text,
    seat          text GENERATED ALWAYS AS (coalesce(on_behalf_of, voter)) STORED,
    vote          text NOT NULL CHECK (vote IN ('approve', 'reject')),
    comment       text,
    cast_at       timestamptz NOT NULL,
    UNIQUE (approval_id, voter),
    UNIQUE (approval_id, seat)
);

-- A vote is final as a decision is; the approvals' retention sweep removes it with its approval (the
-- cascade), under the same declared retention.
CREATE FUNCTION approval_votes_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    retention interval;
BEGIN
    IF TG_OP = 'DELETE' THEN
        BEGIN
            retention := nullif(current_setting('flowyard.approval_retention', true), '')::interval;
        EXCEPTION WHEN invalid_datetime_format OR datetime_field_overflow THEN
            retention := NULL;
        END;
        IF retention > interval '0' AND OLD.cast_at < now() - retention THEN
            RETURN OLD;
        END IF;
    END IF;
    RAISE EXCEPTION 'vote % on approval % is final', OLD.id, OLD.approval_id
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;
CREATE TRIGGER approval_votes_final BEFORE UPDATE OR DELETE ON approval_votes
    FOR EACH ROW EXECUTE FUNCTION approval_votes_are_final();
CREATE TRIGGER approval_votes_no_truncate BEFORE TRUNCATE ON approval_votes
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_truncate();

-- A reminder is one more mail per approver, numbered: round 0 is the request, round n the n-th reminder.
-- The key (approval, user, round) is what makes a retried walk write a reminder once.
ALTER TABLE approval_mails ADD COLUMN round integer NOT NULL DEFAULT 0;
ALTER TABLE approval_mails DROP CONSTRAINT approval_mails_pkey;
ALTER TABLE approval_mails ADD PRIMARY KEY (approval_id, user_name, round);

-- Delegation ------------------------------------------------------------------------------------------

-- A user's approvals go to another user for a period (out of office). A delegation passes no right: the
-- delegate decides only where they hold the decide right themselves.
CREATE TABLE delegations (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    from_user   text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    to_user     text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    starts_at   timestamptz NOT NULL,
    ends_at     timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text NOT NULL,
    revoked_at  timestamptz,
    CHECK (ends_at > starts_at),
    CHECK (from_user <> to_user)
);
CREATE INDEX delegations_to ON delegations (to_user, ends_at);
CREATE INDEX delegations_from ON delegations (from_user, ends_at);

-- Delegating and ending a delegation are rights changes: on the rights trail, with the delegate.
ALTER TABLE rights_trail ADD COLUMN delegate text;
ALTER TABLE rights_trail DROP CONSTRAINT rights_trail_change_check;
ALTER TABLE rights_trail ADD CONSTRAINT rights_trail_change_check
    CHECK (change IN ('user_added', 'user_removed', 'granted', 'revoked', 'token_created', 'token_revoked',
                      'delegated', 'delegation_ended'));

CREATE FUNCTION delegations_trail_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO rights_trail (actor, change, user_name, "right", delegate)
        VALUES (rights_trail_actor(), 'delegated', NEW.from_user, 'decide', NEW.to_user);
    ELSIF OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL THEN
        INSERT INTO rights_trail (actor, change, user_name, "right", delegate)
        VALUES (rights_trail_actor(), 'delegation_ended', NEW.from_user, 'decide', NEW.to_user);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER delegations_trail AFTER INSERT OR UPDATE OF revoked_at ON delegations
    FOR EACH ROW EXECUTE FUNCTION delegations_trail_write();

-- The chained trail -----------------------------------------------------------------------------------

-- Each decision, vote and rights change is appended to a chain (one per flow, `flow:<id>`; rights
-- changes that name no flow go on `global`) with its content as text, the previous record's hash and its
-- own: hash = sha256(prev_hash || '\n' || content), the first record's prev_hash 64 zeros. The content is
-- made by the functions below from the row, so `flowyard audit verify` can make it again from the row as
-- it is now and compare: a row changed by hand (triggers disabled) no longer matches its record, a record
-- removed or inserted breaks the links, a row with no record is reported. Written by triggers, so every
-- path that decides (a person, a deadline, a cancel, a failed run) is on it without knowing it.
CREATE TABLE audit_chain (
    chain      text NOT NULL,
    seq        bigint NOT NULL CHECK (seq >= 1),
    kind       text NOT NULL CHECK (kind IN ('decision', 'vote', 'rights')),
    ref_id     bigint NOT NULL,
    content    text NOT NULL,
    prev_hash  text NOT NULL,
    hash       text NOT NULL,
    at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (chain, seq),
    UNIQUE (kind, ref_id)
);
-- Each chain's last record; its row lock orders the appends of one chain.
CREATE TABLE audit_chain_heads (
    chain  text PRIMARY KEY,
    seq    bigint NOT NULL,
    hash   text NOT NULL
);

CREATE FUNCTION audit_utc(moment timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT to_char(moment AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$;

CREATE FUNCTION audit_decision_content(a approvals) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_object(
        'approval', a.id, 'run', a.run_id, 'flow', a.flow_id, 'version', a.version, 'node', a.node,
        'visit', a.visit, 'title', a.title, 'explanation', a.explanation, 'approvers', a.approvers,
        'requested_at', audit_utc(a.requested_at), 'deadline_at', audit_utc(a.deadline_at),
        'on_timeout', a.on_timeout, 'quorum', a.quorum, 'reject', a.reject_rule,
        'allow_self_approval', a.allow_self_approval, 'started_by', a.started_by, 'author', a.author,
        'outcome', a.outcome, 'decided_by', a.decided_by, 'on_behalf_of', a.on_behalf_of,
        'decided_at', audit_utc(a.decided_at), 'comment', a.comment)::text
$$;

CREATE FUNCTION audit_vote_content(v approval_votes) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_object(
        'vote', v.id, 'approval', v.approval_id, 'flow', v.flow_id, 'voter', v.voter,
        'on_behalf_of', v.on_behalf_of, 'choice', v.vote, 'comment', v.comment,
        'cast_at', audit_utc(v.cast_at))::text
$$;

CREATE FUNCTION audit_rights_content(r rights_trail) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_object(
        'change_id', r.id, 'at', audit_utc(r.at), 'actor', r.actor, 'change', r.change, 'user', r.user_name,
        'right', r."right", 'flow', r.flow_id, 'server', r.server, 'token', r.token_id,
        'delegate', r.delegate)::text
$$;

CREATE FUNCTION audit_chain_append(p_chain text, p_kind text, p_ref bigint, p_content text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    head audit_chain_heads;
    next_hash text;
BEGIN
    INSERT INTO audit_chain_heads (chain, seq, hash) VALUES (p_chain, 0, repeat('0', 64))
    ON CONFLICT (chain) DO NOTHING;
    SELECT * INTO head FROM audit_chain_heads WHERE chain = p_chain FOR UPDATE;
    next_hash := encode(sha256(convert_to(head.hash || E'\n' || p_content, 'UTF8')), 'hex');
    INSERT INTO audit_chain (chain, seq, kind, ref_id, content, prev_hash, hash)
    VALUES (p_chain, head.seq + 1, p_kind, p_ref, p_content, head.hash, next_hash);
    UPDATE audit_chain_heads SET seq = head.seq + 1, hash = next_hash WHERE chain = p_chain;
END
$$;

CREATE FUNCTION audit_chain_decision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.outcome IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.outcome IS NULL) THEN
        PERFORM audit_chain_append('flow:' || NEW.flow_id, 'decision', NEW.id, audit_decision_content(NEW));
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER approvals_chained AFTER INSERT OR UPDATE OF outcome ON approvals
    FOR EACH ROW EXECUTE FUNCTION audit_chain_decision();

CREATE FUNCTION audit_chain_vote() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM audit_chain_append('flow:' || NEW.flow_id, 'vote', NEW.id, audit_vote_content(NEW));
    RETURN NULL;
END
$$;
CREATE TRIGGER approval_votes_chained AFTER INSERT ON approval_votes
    FOR EACH ROW EXECUTE FUNCTION audit_chain_vote();

CREATE FUNCTION audit_chain_rights() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM audit_chain_append(coalesce('flow:' || NEW.flow_id, 'global'), 'rights', NEW.id,
                               audit_rights_content(NEW));
    RETURN NULL;
END
$$;
CREATE TRIGGER rights_trail_chained AFTER INSERT ON rights_trail
    FOR EACH ROW EXECUTE FUNCTION audit_chain_rights();

-- The chain is append-only, as the trails it covers.
CREATE TRIGGER audit_chain_final BEFORE UPDATE OR DELETE ON audit_chain
    FOR EACH ROW EXECUTE FUNCTION rights_trail_is_append_only();
CREATE TRIGGER audit_chain_no_truncate BEFORE TRUNCATE ON audit_chain
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_truncate();

-- What was decided and changed before this migration goes on the chains first, in its own order.
DO $$
DECLARE
    a approvals;
    r rights_trail;
BEGIN
    FOR a IN SELECT * FROM approvals WHERE outcome IS NOT NULL ORDER BY decided_at, id LOOP
        PERFORM audit_chain_append('flow:' || a.flow_id, 'decision', a.id, audit_decision_content(a));
    END LOOP;
    FOR r IN SELECT * FROM rights_trail ORDER BY id LOOP
        PERFORM audit_chain_append(coalesce('flow:' || r.flow_id, 'global'), 'rights', r.id,
                                   audit_rights_content(r));
    END LOOP;
END
$$;
