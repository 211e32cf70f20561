-- Users, groups, grants and tokens.

-- name: insert_user
-- A new user; nothing when the name is taken, in any capitals (users_name_folded).
INSERT INTO users (name, password_hash, locale, email)
VALUES (%(name)s, %(password_hash)s, %(locale)s, %(email)s)
ON CONFLICT DO NOTHING
RETURNING name

-- name: name_taken_by
-- The user who holds a name, in whatever capitals (the oldest, when several do from before the rule).
SELECT name FROM users WHERE lower(name) = lower(%(name)s) ORDER BY name_case_duplicate, created_at LIMIT 1

-- name: case_duplicates
-- Users whose names differ only by case from an older user's: kept from before the rule, never merged.
SELECT d.name, (SELECT o.name FROM users AS o
                WHERE lower(o.name) = lower(d.name) AND NOT o.name_case_duplicate) AS kept_by
FROM users AS d WHERE d.name_case_duplicate ORDER BY lower(d.name), d.name

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
-- A token, by its hash, that stops working after its expiry (none: never).
INSERT INTO tokens (user_name, token_hash, expires_at)
VALUES (%(name)s, %(token_hash)s, now() + %(expires_in)s::interval)
RETURNING id

-- name: user_of_token
-- Who a token that is neither revoked nor expired belongs to; marks it used, to the minute: writing its
-- row on every request made a program's concurrent requests queue on that row and each wait for a commit.
WITH valid AS (
    SELECT id, user_name FROM tokens
    WHERE token_hash = %(token_hash)s AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
), used AS (
    UPDATE tokens SET last_used_at = now()
    WHERE id = (SELECT id FROM valid) AND revoked_at IS NULL  -- a revoke committed meanwhile: left alone
      AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
)
SELECT user_name FROM valid

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
-- Who a live session belongs to, its CSRF token, and the user's locale and time zone.
SELECT s.user_name AS name, s.csrf_token AS csrf, u.locale, u.time_zone
FROM sessions AS s JOIN users AS u ON u.name = s.user_name
WHERE s.id_hash = %(id_hash)s AND s.expires_at > now()

-- name: delete_session
-- A logout.
DELETE FROM sessions WHERE id_hash = %(id_hash)s

-- name: set_email
-- A user's e-mail address, or none.
UPDATE users SET email = %(email)s WHERE name = %(name)s
RETURNING name

-- name: set_locale
-- A user's own language.
UPDATE users SET locale = %(locale)s WHERE name = %(name)s

-- name: set_time_zone
-- A user's own time zone (an IANA name).
UPDATE users SET time_zone = %(time_zone)s WHERE name = %(name)s

-- name: user_locale
-- A user's own language and time zone settings.
SELECT locale, time_zone FROM users WHERE name = %(name)s

-- name: rights_of
-- A user's grants, for /api/me.
SELECT "right", flow_id FROM grants WHERE user_name = %(name)s ORDER BY "right", flow_id NULLS FIRST

-- name: has_any_right
-- Whether a user holds any right on a flow, or everywhere: what reading it takes.
SELECT EXISTS (
    SELECT 1 FROM grants WHERE user_name = %(name)s AND (flow_id IS NULL OR flow_id = %(flow_id)s)
)

-- name: lock_login
-- Logins on this name or from this address wait for each other's reservation (till commit): the count
-- the next statement reads then holds every attempt before it. Address first, then name, in every
-- transaction, so two logins never wait on each other in a circle.
SELECT pg_advisory_xact_lock(hashtextextended('login address ' || %(address)s, 0)),
       pg_advisory_xact_lock(hashtextextended('login name ' || %(name)s, 0))

-- name: reserve_login
-- An attempt, counted as a failure before its password is checked, unless recent failures refuse it:
-- from this address (any name), on this name (any address), on it from here; and whether it was kept.
WITH recent AS (
    SELECT count(*) FILTER (WHERE address = %(address)s) AS from_address,
           count(*) FILTER (WHERE user_name = %(name)s) AS on_name,
           count(*) FILTER (WHERE user_name = %(name)s AND address = %(address)s) AS on_name_from_here
    FROM login_failures
    WHERE (address = %(address)s OR user_name = %(name)s) AND at > now() - %(window)s::interval
), kept AS (
    INSERT INTO login_failures (user_name, address)
    SELECT %(name)s, %(address)s FROM recent
    WHERE from_address < %(max_address)s AND NOT (on_name >= %(max_name)s AND on_name_from_here > 0)
    RETURNING 1
)
SELECT from_address, on_name, on_name_from_here, EXISTS (SELECT 1 FROM kept) AS reserved FROM recent

-- name: login_succeeded
-- A good login clears the name's failures from its address; other addresses' failures stand.
DELETE FROM login_failures WHERE user_name = %(name)s AND address = %(address)s

-- name: any_user
-- Whether anyone has been added yet: an empty database is told how to add its first administrator.
SELECT EXISTS (SELECT 1 FROM users)

-- name: declare_actor
-- Who makes this transaction's changes of rights: the rights trail's triggers read it.
SELECT set_config('flowyard.actor', %(actor)s, true)

-- name: grant_server
-- The right to use a server's commands.
INSERT INTO server_grants (user_name, server) VALUES (%(name)s, %(server)s)
ON CONFLICT DO NOTHING

-- name: revoke_grant
-- Take a right away, everywhere (flow NULL) or on one flow.
DELETE FROM grants
WHERE user_name = %(name)s AND "right" = %(right)s AND flow_id IS NOT DISTINCT FROM %(flow_id)s::bigint
RETURNING user_name

-- name: revoke_server
-- Take the right to use a server away.
DELETE FROM server_grants WHERE user_name = %(name)s AND server = %(server)s
RETURNING user_name

-- name: remove_user
-- Remove a user; grants, groups, tokens and sessions go with it (each revocation on the rights trail).
-- When it held a name that younger users share in other capitals (from before names were one name), the
-- oldest of them holds it now (users_name_folded): a further spelling stays refused.
WITH gone AS (
    DELETE FROM users WHERE name = %(name)s RETURNING name, name_case_duplicate
), heir AS (
    UPDATE users SET name_case_duplicate = false
    WHERE name = (SELECT u.name FROM users AS u JOIN gone AS g ON lower(u.name) = lower(g.name)
                  WHERE u.name <> g.name AND u.name_case_duplicate AND NOT g.name_case_duplicate
                  ORDER BY u.created_at, u.name LIMIT 1)
)
SELECT name FROM gone

-- name: user_exists
-- Whether a user exists.
SELECT EXISTS (SELECT 1 FROM users WHERE name = %(name)s)

-- name: list_users
-- Users after a name (or the one named), with their rights (use_server:NAME among them) and groups.
SELECT u.name, u.created_at,
       ARRAY(SELECT g."right" || coalesce(':' || g.flow_id, '') FROM grants AS g
             WHERE g.user_name = u.name ORDER BY 1)
       || ARRAY(SELECT 'use_server:' || s.server FROM server_grants AS s
                WHERE s.user_name = u.name ORDER BY 1) AS rights,
       ARRAY(SELECT m.group_name FROM group_members AS m WHERE m.user_name = u.name ORDER BY 1) AS groups
FROM users AS u
WHERE u.name > coalesce(%(after)s::text, '') AND (%(only)s::text IS NULL OR u.name = %(only)s::text)
ORDER BY u.name
LIMIT %(limit)s

-- name: list_tokens
-- Tokens after an id (of one user, or all), never their hashes.
SELECT id, user_name AS "user", created_at, expires_at, last_used_at, revoked_at FROM tokens
WHERE id > coalesce(%(after_id)s::bigint, 0) AND (%(user)s::text IS NULL OR user_name = %(user)s::text)
ORDER BY id
LIMIT %(limit)s

-- name: revoke_token
-- Revoke a token; a revoked token is refused from the next request on.
UPDATE tokens SET revoked_at = now() WHERE id = %(id)s AND revoked_at IS NULL
RETURNING user_name

-- name: rights_trail
-- The rights trail after an id, oldest first: every change of a right, user or token.
SELECT id, at, actor, change, user_name AS "user", "right", flow_id, server, token_id, value, delegate
FROM rights_trail
WHERE id > coalesce(%(after_id)s::bigint, 0) AND (%(user)s::text IS NULL OR user_name = %(user)s::text)
ORDER BY id
LIMIT %(limit)s

-- name: rights_trail_newest
-- The rights trail before an id (from the newest when none), newest first: the People page's view.
SELECT id, at, actor, change, user_name AS "user", "right", flow_id, server, token_id, value, delegate
FROM rights_trail
WHERE id < coalesce(%(before_id)s::bigint, 9223372036854775807)
  AND (%(user)s::text IS NULL OR user_name = %(user)s::text)
ORDER BY id DESC
LIMIT %(limit)s

-- name: token_id_of
-- The id of a token, by its hash: an admin may not revoke the token the request carries.
SELECT id FROM tokens WHERE token_hash = %(token_hash)s

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
