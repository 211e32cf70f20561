-- A user's own settings.

-- name: set_locale
UPDATE users SET locale = %(locale)s WHERE name = %(name)s
RETURNING locale

-- name: set_time_zone
UPDATE users SET time_zone = %(time_zone)s WHERE name = %(name)s
RETURNING time_zone

-- name: settings_of
SELECT locale, time_zone FROM users WHERE name = %(name)s
