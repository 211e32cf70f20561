-- wait_event (issue 24): events sent to `POST /api/events/{name}`, the pauses of runs waiting for them,
-- the per-name secrets a sender may post with instead of a token, and the right to send them.

ALTER TABLE waits DROP CONSTRAINT waits_kind_check;
ALTER TABLE waits ADD CONSTRAINT waits_kind_check
    CHECK (kind IN ('start', 'approval', 'delay', 'undo', 'event'));

ALTER TABLE grants DROP CONSTRAINT grants_right_check;
ALTER TABLE grants ADD CONSTRAINT grants_right_check
    CHECK ("right" IN ('edit', 'run', 'decide', 'audit', 'admin', 'send_events'));

-- Every event received. One that found a waiting pause is consumed at once (consumed_run, consumed_visit);
-- one that did not is kept, unconsumed, until expires_at, for a run that reaches a node waiting for it.
-- Swept at expires_at, consumed or not: the pause that consumed one holds its name and payload itself.
CREATE TABLE events (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name           text NOT NULL CHECK (name ~ '^[a-z][a-z0-9_]{0,63}$' AND name <> 'timeout'),
    key            text NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
    payload        jsonb NOT NULL,
    sent_by        text,
    received_at    timestamptz NOT NULL,
    expires_at     timestamptz NOT NULL,
    consumed_run   bigint,
    consumed_visit integer,
    consumed_at    timestamptz,
    CHECK ((consumed_run IS NULL) = (consumed_visit IS NULL))
);
-- The early events a pause may take: by name and key, oldest first.
CREATE INDEX events_kept ON events (name, key, received_at) WHERE consumed_run IS NULL;
CREATE INDEX events_expiry ON events (expires_at);
-- An event is consumed by one pause, and a pause consumes one event.
CREATE UNIQUE INDEX events_one_per_pause ON events (consumed_run, consumed_visit)
    WHERE consumed_run IS NOT NULL;

-- The pauses of runs at wait_event nodes. Open while neither an event nor the timeout has answered it;
-- then final (the `event_waits_final` trigger): the resume reads its answer, on every retry the same.
CREATE TABLE event_waits (
    run_id      bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    visit       integer NOT NULL,
    node        text NOT NULL,
    names       text[] NOT NULL CHECK (cardinality(names) >= 1),
    key         text NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
    keep_early  interval NOT NULL,
    timeout_at  timestamptz,
    created_at  timestamptz NOT NULL,
    -- the answer: an event (its id, name and payload) or the timeout
    event_id    bigint,
    event_name  text,
    payload     jsonb,
    timed_out   boolean NOT NULL DEFAULT false,
    answered_at timestamptz,
    PRIMARY KEY (run_id, visit),
    CHECK (NOT (timed_out AND event_name IS NOT NULL))
);
-- The lookup an event makes: the open pauses under its key (its name is then one of `names`), oldest first.
CREATE INDEX event_waits_open ON event_waits (key, created_at) WHERE event_name IS NULL AND NOT timed_out;

CREATE FUNCTION event_waits_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.event_name IS NOT NULL OR OLD.timed_out THEN
        RAISE EXCEPTION 'an answered event wait is final (run %, visit %)', OLD.run_id, OLD.visit;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER event_waits_final BEFORE UPDATE ON event_waits
    FOR EACH ROW EXECUTE FUNCTION event_waits_final();

-- A secret per event name, as a SHA-256 hex digest (shown once): `POST /hooks/events/{name}/{secret}`.
CREATE TABLE event_secrets (
    name        text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]{0,63}$' AND name <> 'timeout'),
    digest      text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text
);
