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
