-- Issue 32, security round two.

-- Four eyes around a webhook: whoever set the flow's current webhook secret can start its runs
-- anonymously, so for self-approval they count as those runs' starter. The flow keeps who set the secret;
-- a run started by the webhook keeps who had set it then (a later rotation by someone else does not
-- clear the poster); an approval keeps it like started_by, after the run is swept.
ALTER TABLE flows ADD COLUMN webhook_secret_by text;
ALTER TABLE runs ADD COLUMN hook_secret_by text;
ALTER TABLE approvals ADD COLUMN hook_secret_by text;

-- Four eyes an admin can require: policies are the installation's rules above a flow's own settings,
-- set by an admin (API or `flowyard policy`). `self_approval`: `per_node` (each approval node's
-- allow_self_approval decides) or `never` (no one decides an approval that is their own, whatever the
-- node says, the approvals of versions saved before the policy included). No row: `per_node`.
CREATE TABLE policies (
    name    text PRIMARY KEY CHECK (name IN ('self_approval')),
    value   text NOT NULL CHECK (name <> 'self_approval' OR value IN ('per_node', 'never')),
    set_by  text NOT NULL,
    set_at  timestamptz NOT NULL DEFAULT now()
);

-- Whether an approval's own people may decide it: the node allows it and the policy does not forbid it.
-- Every check reads this one function: the decision, the inbox, the tally of who could still approve.
CREATE FUNCTION self_approval_allowed(node_allows boolean) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT node_allows
       AND NOT EXISTS (SELECT 1 FROM policies WHERE name = 'self_approval' AND value = 'never')
$$;

-- The approvals' retention is a fact the schema's owner records, not something a session declares: the
-- app's role could set `flowyard.approval_retention` itself (set_config) and delete any decision older
-- than a second. `flowyard migrate`, run as the owner, writes FLOWYARD_APPROVAL_RETENTION_DAYS here (no
-- row: decided approvals are kept forever); a statement trigger refuses every other role's write, whatever
-- it was granted (docs/security.md grants the app every table). The trail's triggers read the table by
-- its schema, so a temporary table of the same name, which comes first on the search path, is not read.
CREATE TABLE approval_retention (
    only_row   boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    retention  interval NOT NULL CHECK (retention > interval '0'),
    set_at     timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION approval_retention_owner_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'MEMBER') THEN
        RAISE EXCEPTION 'only the owner of the schema records the approvals'' retention (flowyard migrate)'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER approval_retention_owner_only
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON approval_retention
    FOR EACH STATEMENT EXECUTE FUNCTION approval_retention_owner_only();

-- The recorded retention, read from the schema of the table whose trigger asks (NULL: none recorded).
CREATE FUNCTION recorded_approval_retention(schema_name name) RETURNS interval LANGUAGE plpgsql STABLE AS $$
DECLARE
    retention interval;
BEGIN
    EXECUTE format('SELECT retention FROM %I.approval_retention', schema_name) INTO retention;
    RETURN retention;
END
$$;

CREATE OR REPLACE FUNCTION approvals_decided_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    retention interval;
BEGIN
    IF OLD.outcome IS NOT NULL THEN
        IF TG_OP = 'DELETE' THEN
            retention := recorded_approval_retention(TG_TABLE_SCHEMA);
            IF retention > interval '0' AND OLD.decided_at < now() - retention THEN
                RETURN OLD;
            END IF;
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

CREATE OR REPLACE FUNCTION approval_votes_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    retention interval;
BEGIN
    IF TG_OP = 'DELETE' THEN
        retention := recorded_approval_retention(TG_TABLE_SCHEMA);
        IF retention > interval '0' AND OLD.cast_at < now() - retention THEN
            RETURN OLD;
        END IF;
    END IF;
    RAISE EXCEPTION 'vote % on approval % is final', OLD.id, OLD.approval_id
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;

-- User names are one name whatever their capitals ("Bob" and "bob" read alike in an audit). Names that
-- already differ only by case are not merged: the oldest of each keeps the name, the others are marked
-- and left out of the unique index, and `flowyard migrate` names them until an admin removes them.
ALTER TABLE users ADD COLUMN name_case_duplicate boolean NOT NULL DEFAULT false;
UPDATE users AS u SET name_case_duplicate = true
WHERE EXISTS (SELECT 1 FROM users AS o
              WHERE lower(o.name) = lower(u.name) AND (o.created_at, o.name) < (u.created_at, u.name));
CREATE UNIQUE INDEX users_name_folded ON users (lower(name)) WHERE NOT name_case_duplicate;

-- Outside events: a sender's Idempotency-Key (a provider's retry is one event), kept for the keys'
-- retention (FLOWYARD_KEY_RETENTION_DAYS) like a webhook's, with the answer the first post got; and a
-- quota per sender on the events kept for it (their count and their payloads' bytes).
CREATE TABLE event_keys (
    sender      text NOT NULL,
    name        text NOT NULL,
    key         text NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
    event_id    bigint,
    delivered   boolean,
    expires_at  timestamptz,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (sender, name, key)
);
CREATE INDEX event_keys_by_age ON event_keys (created_at);

ALTER TABLE events ADD COLUMN payload_bytes integer;
CREATE INDEX events_kept_by_sender ON events (sent_by) WHERE consumed_run IS NULL;
