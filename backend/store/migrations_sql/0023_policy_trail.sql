-- Issue 32, item 5: setting a policy is a rights change. The policies table keeps only the last value, so
-- an admin could switch self-approval to `per_node`, decide their own request and switch back with no
-- record of the window. Each set (the first INSERT and every UPDATE of the value, the same value again
-- included: it is a set all the same) now appends a `policy_set` row to the rights trail, and so a record
-- to the `global` chain.
ALTER TABLE rights_trail ADD COLUMN value text;
ALTER TABLE rights_trail DROP CONSTRAINT rights_trail_change_check;
ALTER TABLE rights_trail ADD CONSTRAINT rights_trail_change_check
    CHECK (change IN ('user_added', 'user_removed', 'granted', 'revoked', 'token_created', 'token_revoked',
                      'delegated', 'delegation_ended', 'policy_set'));

-- A policy is nobody's right, but the trail's user column is NOT NULL and is what the trail is searched
-- by (`?user=`): the actor goes there too, so "what did this admin change" finds their policy sets. The
-- policy's name is in "right", its new value in `value`.
CREATE FUNCTION policies_trail_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    actor text := rights_trail_actor();
BEGIN
    INSERT INTO rights_trail (actor, change, user_name, "right", value)
    VALUES (actor, 'policy_set', actor, NEW.name, NEW.value);
    RETURN NULL;
END
$$;
CREATE TRIGGER policies_trail AFTER INSERT OR UPDATE OF value ON policies
    FOR EACH ROW EXECUTE FUNCTION policies_trail_write();

-- The chain's content covers the value for the new kind only: every older record's content, made again
-- by `flowyard audit verify` from its row, stays byte for byte what 0012 made (jsonb || '{}' is the same
-- object), so chains written before this migration still verify.
CREATE OR REPLACE FUNCTION audit_rights_content(r rights_trail) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT (jsonb_build_object(
        'change_id', r.id, 'at', audit_utc(r.at), 'actor', r.actor, 'change', r.change, 'user', r.user_name,
        'right', r."right", 'flow', r.flow_id, 'server', r.server, 'token', r.token_id,
        'delegate', r.delegate)
        || CASE WHEN r.change = 'policy_set' THEN jsonb_build_object('value', r.value) ELSE '{}'::jsonb END
    )::text
$$;
