-- Side effects (http, notify, command), and the servers and command templates a command node names.

-- One row per action visit, written before the request leaves and completed with its outcome after.
-- A retried walk finds its row by (run, visit) and either gets the recorded outcome back or sends again
-- under the same key. See docs/actions.md for when a recorded error is sent again.
CREATE TABLE effects (
    run_id        bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    visit         integer NOT NULL,
    node          text NOT NULL,
    type          text NOT NULL CHECK (type IN ('http', 'notify', 'command')),
    -- made once, with the row, and sent on every try: Idempotency-Key, or an email's Message-ID
    key           text NOT NULL UNIQUE,
    -- SHA-256 of the rendered request: a retried walk that asks something else under this key is a bug
    digest        text NOT NULL,
    -- the rendered request with credentials redacted: what was asked, for people
    request       jsonb NOT NULL,
    -- tries under this key, each committed before its request could leave (a try refused before
    -- sending, such as a forbidden destination, counts too: its output says so)
    attempts      integer NOT NULL DEFAULT 0,
    outcome       text CHECK (outcome IN ('out', 'error')),
    output        jsonb,
    created_at    timestamptz NOT NULL DEFAULT now(),
    attempted_at  timestamptz,
    completed_at  timestamptz,
    PRIMARY KEY (run_id, visit),
    CHECK ((outcome IS NULL) = (completed_at IS NULL)),
    CHECK ((outcome IS NULL) = (output IS NULL))
);

-- A registered server's agent. The token is stored as given (the worker must present it), and no
-- statement that lists or shows servers selects it: see docs/actions.md.
CREATE TABLE servers (
    name        text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$'),
    agent_url   text NOT NULL CHECK (agent_url ~* '^https?://'),
    token       text NOT NULL CHECK (token <> ''),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text
);

-- A command an admin vetted, by name: a flow's command node may run it without writing a command line.
CREATE TABLE command_templates (
    name        text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$'),
    command     text NOT NULL CHECK (command <> ''),
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text
);
