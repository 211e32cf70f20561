-- Hardening (issue 12): the secret store, command templates per server with typed arguments, the right
-- to use a server, token expiry and revocation, an append-only trail of every change of a right, and an
-- approvals trail that TRUNCATE cannot empty and whose retention exception checks the age itself.

-- Approvals -------------------------------------------------------------------------------------------

-- The retention sweep now declares the retention itself (an interval, as text), and the trigger deletes
-- only a decided approval older than that: a transaction that declares itself the sweep can no longer
-- delete yesterday's decision. The interval must be positive; anything else is not the sweep.
CREATE OR REPLACE FUNCTION approvals_decided_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    retention interval;
BEGIN
    IF OLD.outcome IS NOT NULL THEN
        IF TG_OP = 'DELETE' THEN
            BEGIN
                retention := nullif(current_setting('flowyard.approval_retention', true), '')::interval;
            EXCEPTION WHEN invalid_datetime_format OR datetime_field_overflow THEN
                retention := NULL;
            END;
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

-- Row triggers do not fire for TRUNCATE; a statement trigger refuses it for every role, the owner's too.
CREATE FUNCTION refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is an append-only trail and cannot be truncated', TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;
CREATE TRIGGER approvals_no_truncate BEFORE TRUNCATE ON approvals
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_truncate();

-- Secrets ---------------------------------------------------------------------------------------------

-- A secret is a Fernet token (encrypted and signed with the key from FLOWYARD_SECRET_KEY or the data
-- folder, never stored here). `server:<name>` holds a server's agent token; other names are what flows
-- reference as {{secrets.NAME}}. `legacy_plain` exists only for the tokens this migration moves out of
-- `servers`: SQL cannot encrypt with a key it does not have, so the next `flowyard migrate` or start seals
-- them and clears the column (backend/actions/secrets.py).
CREATE TABLE secrets (
    name          text PRIMARY KEY CHECK (name ~ '^(server:[A-Za-z0-9][A-Za-z0-9_.-]{0,199}|[A-Za-z0-9_-]{1,100})$'),
    sealed        bytea,
    legacy_plain  text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    updated_by    text,
    CHECK ((sealed IS NULL) <> (legacy_plain IS NULL))
);
INSERT INTO secrets (name, legacy_plain, updated_by)
SELECT 'server:' || name, token, created_by FROM servers;
ALTER TABLE servers DROP COLUMN token;

-- Command templates -----------------------------------------------------------------------------------

-- A template belongs to one server and is an argument vector: literal elements and `{param}` elements,
-- each parameter typed by `params` (a JSON Schema per name). The old templates were command lines for
-- every server; turning a line into an argv means guessing how a shell would split it, so they are kept
-- aside, unused, for an admin to register again per server.
ALTER TABLE command_templates RENAME TO command_templates_retired;
ALTER TABLE command_templates_retired RENAME CONSTRAINT command_templates_pkey TO command_templates_retired_pkey;
CREATE TABLE command_templates (
    server      text NOT NULL REFERENCES servers (name) ON DELETE CASCADE,
    name        text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$'),
    argv        jsonb NOT NULL CHECK (jsonb_typeof(argv) = 'array' AND jsonb_array_length(argv) > 0),
    params      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(params) = 'object'),
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text,
    PRIMARY KEY (server, name)
);

-- Rights ----------------------------------------------------------------------------------------------

-- `use_server:NAME`: a right of its own, apart from `grants`, whose flow-less rows mean "on every flow"
-- to every statement that reads flows. No foreign key: removing a server must not drop a grant unseen.
CREATE TABLE server_grants (
    user_name  text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    server     text NOT NULL CHECK (server ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$'),
    PRIMARY KEY (user_name, server)
);

ALTER TABLE tokens ADD COLUMN expires_at timestamptz, ADD COLUMN revoked_at timestamptz;
-- An admin lists one user's tokens.
CREATE INDEX tokens_by_user ON tokens (user_name, id);

-- Every change of a right, of a user's existence and of a token, in order; written by triggers, so a
-- change made by any statement (a cascade from removing a user included) is on it. `actor` is what the
-- changing transaction declared with set_config('flowyard.actor', ..., true), else the database role.
CREATE TABLE rights_trail (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor      text NOT NULL,
    change     text NOT NULL CHECK (change IN ('user_added', 'user_removed', 'granted', 'revoked',
                                               'token_created', 'token_revoked')),
    user_name  text NOT NULL,
    "right"    text,
    flow_id    bigint,
    server     text,
    token_id   bigint
);
CREATE INDEX rights_trail_by_user ON rights_trail (user_name, id);

CREATE FUNCTION rights_trail_actor() RETURNS text LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(current_setting('flowyard.actor', true), ''), session_user::text)
$$;

CREATE FUNCTION rights_trail_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'users' THEN
        INSERT INTO rights_trail (actor, change, user_name)
        VALUES (rights_trail_actor(), CASE TG_OP WHEN 'INSERT' THEN 'user_added' ELSE 'user_removed' END,
                CASE TG_OP WHEN 'INSERT' THEN NEW.name ELSE OLD.name END);
    ELSIF TG_TABLE_NAME = 'grants' THEN
        INSERT INTO rights_trail (actor, change, user_name, "right", flow_id)
        SELECT rights_trail_actor(), CASE TG_OP WHEN 'INSERT' THEN 'granted' ELSE 'revoked' END,
               g.user_name, g."right", g.flow_id
        FROM (SELECT (CASE TG_OP WHEN 'INSERT' THEN NEW ELSE OLD END).*) AS g;
    ELSIF TG_TABLE_NAME = 'server_grants' THEN
        INSERT INTO rights_trail (actor, change, user_name, "right", server)
        SELECT rights_trail_actor(), CASE TG_OP WHEN 'INSERT' THEN 'granted' ELSE 'revoked' END,
               g.user_name, 'use_server', g.server
        FROM (SELECT (CASE TG_OP WHEN 'INSERT' THEN NEW ELSE OLD END).*) AS g;
    ELSIF TG_TABLE_NAME = 'tokens' THEN
        IF TG_OP = 'INSERT' THEN
            INSERT INTO rights_trail (actor, change, user_name, token_id)
            VALUES (rights_trail_actor(), 'token_created', NEW.user_name, NEW.id);
        ELSIF (TG_OP = 'UPDATE' AND OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
              OR (TG_OP = 'DELETE' AND OLD.revoked_at IS NULL) THEN
            INSERT INTO rights_trail (actor, change, user_name, token_id)
            VALUES (rights_trail_actor(), 'token_revoked', OLD.user_name, OLD.id);
        END IF;
    END IF;
    RETURN NULL;
END
$$;
-- Removing a user writes `user_removed`, then the revocations of its grants and tokens (the cascade).
CREATE TRIGGER users_trail AFTER INSERT OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION rights_trail_write();
CREATE TRIGGER grants_trail AFTER INSERT OR DELETE ON grants
    FOR EACH ROW EXECUTE FUNCTION rights_trail_write();
CREATE TRIGGER server_grants_trail AFTER INSERT OR DELETE ON server_grants
    FOR EACH ROW EXECUTE FUNCTION rights_trail_write();
CREATE TRIGGER tokens_trail AFTER INSERT OR UPDATE OF revoked_at OR DELETE ON tokens
    FOR EACH ROW EXECUTE FUNCTION rights_trail_write();

CREATE FUNCTION rights_trail_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the rights trail is append-only (% refused)', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;
CREATE TRIGGER rights_trail_final BEFORE UPDATE OR DELETE ON rights_trail
    FOR EACH ROW EXECUTE FUNCTION rights_trail_is_append_only();
CREATE TRIGGER rights_trail_no_truncate BEFORE TRUNCATE ON rights_trail
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_truncate();
