-- Login sessions for the editor: a cookie holds the session id, the table holds its SHA-256 and the CSRF
-- token every write with the cookie must echo in a header.

CREATE TABLE sessions (
    id_hash     text PRIMARY KEY,
    user_name   text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    csrf_token  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL
);
CREATE INDEX sessions_expired ON sessions (expires_at);

-- Failed logins, by the name tried (whether or not such a user exists): a name with too many recent
-- failures is refused before its password is checked.
CREATE TABLE login_failures (
    user_name  text NOT NULL,
    at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_by_name ON login_failures (user_name, at);
CREATE INDEX login_failures_by_age ON login_failures (at);
