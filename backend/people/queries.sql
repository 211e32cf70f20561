-- Users, groups, grants and tokens.

-- name: insert_user
-- A new user; nothing when the name is taken.
INSERT INTO users (name, password_hash, locale) VALUES (%(name)s, %(password_hash)s, %(locale)s)
ON CONFLICT (name) DO NOTHING
RETURNING name

-- name: add_to_group
-- A user joins a group.
INSERT INTO group_members (group_name, user_name) VALUES (%(group)s, %(name)s)
ON CONFLICT DO NOTHING

-- name: grant
-- A right, everywhere (flow NULL) or on one flow.
INSERT INTO grants (user_name, "right", flow_id) VALUES (%(name)s, %(right)s, %(flow_id)s)
ON CONFLICT DO NOTHING

-- name: has_right
-- Whether a user holds a right on a flow, or everywhere.
SELECT EXISTS (
    SELECT 1 FROM grants
    WHERE user_name = %(name)s AND "right" = %(right)s AND (flow_id IS NULL OR flow_id = %(flow_id)s)
)

-- name: groups_of
-- The groups a user belongs to.
SELECT group_name FROM group_members WHERE user_name = %(name)s

-- name: insert_token
-- A token, by its hash.
INSERT INTO tokens (user_name, token_hash) VALUES (%(name)s, %(token_hash)s) RETURNING id

-- name: user_of_token
-- Who a token belongs to; marks it used.
UPDATE tokens SET last_used_at = now() WHERE token_hash = %(token_hash)s RETURNING user_name

-- name: password_of
-- A user's password hash, for a login.
SELECT password_hash, locale FROM users WHERE name = %(name)s

-- name: set_password
-- A user's new password hash (argon2 parameters move on).
UPDATE users SET password_hash = %(password_hash)s WHERE name = %(name)s
