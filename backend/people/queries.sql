-- Users, groups, grants and tokens.

-- name: insert_user
-- A new user; nothing when the name is taken.
INSERT INTO users (name, password_hash, locale, email)
VALUES (%(name)s, %(password_hash)s, %(locale)s, %(email)s)
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

-- name: insert_session
-- A login session, by the digest of its id.
INSERT INTO sessions (id_hash, user_name, csrf_token, expires_at)
VALUES (%(id_hash)s, %(name)s, %(csrf)s, now() + %(lifetime)s::interval)

-- name: session_user
-- Who a live session belongs to, its CSRF token, and the user's locale.
SELECT s.user_name, s.csrf_token, u.locale
FROM sessions AS s JOIN users AS u ON u.name = s.user_name
WHERE s.id_hash = %(id_hash)s AND s.expires_at > now()

-- name: delete_session
-- A logout.
DELETE FROM sessions WHERE id_hash = %(id_hash)s

-- name: set_email
-- A user's e-mail address, or none.
UPDATE users SET email = %(email)s WHERE name = %(name)s
RETURNING name

-- name: user_locale
-- A user's own language setting.
SELECT locale FROM users WHERE name = %(name)s

-- name: rights_of
-- A user's grants, for /api/me.
SELECT "right", flow_id FROM grants WHERE user_name = %(name)s ORDER BY "right", flow_id NULLS FIRST

-- name: has_any_right
-- Whether a user holds any right on a flow, or everywhere: what reading it takes.
SELECT EXISTS (
    SELECT 1 FROM grants WHERE user_name = %(name)s AND (flow_id IS NULL OR flow_id = %(flow_id)s)
)

-- name: recent_login_failures
-- How many times a name failed to log in lately.
SELECT count(*) FROM login_failures WHERE user_name = %(name)s AND at > now() - %(window)s::interval

-- name: login_failed
-- One more failed login for a name.
INSERT INTO login_failures (user_name) VALUES (%(name)s)

-- name: login_succeeded
-- A good login clears the name's failures.
DELETE FROM login_failures WHERE user_name = %(name)s

-- name: list_people
-- Users for the admin's People page, by name, a page after a name: their address, language, groups,
-- rights and how many tokens they hold (never a token or a hash).
SELECT u.name, u.email, u.locale, u.created_at,
       coalesce((SELECT array_agg(m.group_name ORDER BY m.group_name)
                 FROM group_members AS m WHERE m.user_name = u.name), '{}') AS groups,
       coalesce((SELECT array_agg(g."right" || coalesce(':' || g.flow_id, '') ORDER BY g."right", g.flow_id)
                 FROM grants AS g WHERE g.user_name = u.name), '{}') AS rights,
       (SELECT count(*) FROM tokens AS t WHERE t.user_name = u.name) AS tokens
FROM users AS u
WHERE u.name > coalesce(%(after)s::text, '')
ORDER BY u.name
LIMIT %(limit)s
