-- Schedule triggers: one row per flow whose latest version has a schedule trigger.
-- A fire is claimed like a wait (FOR UPDATE SKIP LOCKED) and moves next_fire_at past now in the same
-- transaction that starts the run, so each fire happens once however many workers run, and fires
-- missed while everything was down collapse into one.

CREATE TABLE schedules (
    flow_id       bigint PRIMARY KEY REFERENCES flows (id),
    cron          text NOT NULL,
    timezone      text NOT NULL,
    next_fire_at  timestamptz NOT NULL
) WITH (fillfactor = 70);
CREATE INDEX schedules_due ON schedules (next_fire_at);
