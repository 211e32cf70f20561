-- A user's own settings.

-- name: set_locale
UPDATE users SET locale = %(locale)s WHERE name = %(name)s
RETURNING locale
