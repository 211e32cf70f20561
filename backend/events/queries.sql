-- The statements of wait_event (backend/events). %(now)s is the injected clock: NULL means now().
-- Every statement that looks for or answers an open pause runs after `lock_keys` in its transaction:
-- an event and a pause of the same (name, key) never pass each other unseen.

-- name: lock_keys
-- Serialize everything about these (name, key) pairs until the transaction ends; taken in sorted order.
SELECT pg_advisory_xact_lock(hashtextextended(pair, 24))
FROM unnest(%(pairs)s::text[]) AS pair
ORDER BY pair

-- name: insert_event
INSERT INTO events (name, key, payload, payload_bytes, sent_by, received_at, expires_at)
VALUES (%(name)s, %(key)s, %(payload)s, %(payload_bytes)s, %(sent_by)s, coalesce(%(now)s::timestamptz, now()),
        coalesce(%(now)s::timestamptz, now()) + %(keep)s::interval)
RETURNING id AS event_id, received_at, expires_at

-- name: lock_sender
-- Serialize a sender's posts until the transaction ends: its quota is counted one post after the other.
SELECT pg_advisory_xact_lock(hashtextextended('event sender ' || %(sent_by)s, 24))

-- name: kept_by_sender
-- The events kept for a sender (not consumed, not expired), and their payloads' bytes.
SELECT count(*) AS events, coalesce(sum(coalesce(payload_bytes, octet_length(payload::text))), 0) AS bytes
FROM events
WHERE sent_by = %(sent_by)s AND consumed_run IS NULL AND expires_at > coalesce(%(now)s::timestamptz, now())

-- name: claim_event_key
-- A sender's Idempotency-Key for an event name, taken for a new event; no row when it was taken already
-- (a concurrent taker waits here until the first one commits, then finds it taken).
INSERT INTO event_keys (sender, name, key, created_at)
VALUES (%(sent_by)s, %(name)s, %(idempotency_key)s, coalesce(%(now)s::timestamptz, now()))
ON CONFLICT DO NOTHING
RETURNING 1

-- name: event_of_key
-- What the first post under a key got: its event, whether it was delivered, until when it was kept.
SELECT event_id, delivered, expires_at FROM event_keys
WHERE sender = %(sent_by)s AND name = %(name)s AND key = %(idempotency_key)s

-- name: answer_event_key
-- The answer the first post under a key got, for its retries.
UPDATE event_keys SET event_id = %(event_id)s, delivered = %(delivered)s, expires_at = %(expires_at)s
WHERE sender = %(sent_by)s AND name = %(name)s AND key = %(idempotency_key)s

-- name: deliver
-- Give a new event to the oldest open pause waiting for its name under its key, of a run still waiting:
-- answer that pause, consume the event, make the run's wait due now. No row: nobody waits, it is kept.
WITH pause AS (
    SELECT p.run_id, p.visit
    FROM event_waits AS p JOIN runs AS r ON r.id = p.run_id
    WHERE p.key = %(key)s AND %(name)s = ANY (p.names) AND p.event_name IS NULL AND NOT p.timed_out
      AND r.status = 'waiting'
    ORDER BY p.created_at, p.run_id, p.visit
    LIMIT 1
    FOR UPDATE OF p
), answered AS (
    UPDATE event_waits AS p
    SET event_id = %(event_id)s, event_name = %(name)s, payload = %(payload)s,
        answered_at = coalesce(%(now)s::timestamptz, now())
    FROM pause
    WHERE p.run_id = pause.run_id AND p.visit = pause.visit
    RETURNING p.run_id, p.visit, p.node
), consumed AS (
    UPDATE events AS e
    SET consumed_run = answered.run_id, consumed_visit = answered.visit,
        consumed_at = coalesce(%(now)s::timestamptz, now())
    FROM answered
    WHERE e.id = %(event_id)s
    RETURNING e.id
), woken AS (
    UPDATE waits AS w
    SET wake_at = least(w.wake_at, coalesce(%(now)s::timestamptz, now())),
        -- Answered: claimed before the waits due by time (migration 0018).
        answered_at = coalesce(%(now)s::timestamptz, now()),
        -- With several pauses pending (a parallel open), this pause is the one due now.
        pauses = CASE WHEN w.pauses ? (answered.node || '@' || answered.visit)
                      THEN jsonb_set(w.pauses, ARRAY[answered.node || '@' || answered.visit, 'due'],
                                     to_jsonb(coalesce(%(now)s::timestamptz, now())))
                      ELSE w.pauses END
    FROM answered
    WHERE w.run_id = answered.run_id AND w.status = 'waiting'
    RETURNING w.run_id
)
SELECT answered.run_id, answered.visit, (SELECT count(*) FROM consumed) AS consumed,
       (SELECT count(*) FROM woken) AS woken
FROM answered

-- name: register
-- A run parks at a wait_event node: its open pause. A retried park of the same visit changes nothing.
INSERT INTO event_waits (run_id, visit, node, names, key, keep_early, timeout_at, created_at)
VALUES (%(run_id)s, %(visit)s, %(node)s, %(names)s, %(key)s, %(keep_early)s::interval,
        coalesce(%(now)s::timestamptz, now()) + %(timeout)s::interval, coalesce(%(now)s::timestamptz, now()))
ON CONFLICT (run_id, visit) DO NOTHING

-- name: take_early
-- The oldest kept event the new pause may take: one of its names, its key, not consumed, not expired, and
-- received no longer than the node's keep_early ago. It is consumed and answers the pause at once.
WITH early AS (
    SELECT e.id, e.name, e.payload
    FROM events AS e JOIN event_waits AS p ON p.run_id = %(run_id)s AND p.visit = %(visit)s
    WHERE e.name = ANY (p.names) AND e.key = p.key AND e.consumed_run IS NULL
      AND e.expires_at > coalesce(%(now)s::timestamptz, now())
      AND e.received_at >= coalesce(%(now)s::timestamptz, now()) - p.keep_early
      AND p.event_name IS NULL AND NOT p.timed_out
    ORDER BY e.received_at, e.id
    LIMIT 1
    FOR UPDATE OF e
), consumed AS (
    UPDATE events AS e
    SET consumed_run = %(run_id)s, consumed_visit = %(visit)s, consumed_at = coalesce(%(now)s::timestamptz, now())
    FROM early
    WHERE e.id = early.id
    RETURNING e.id
), answered AS (
    UPDATE event_waits AS p
    SET event_id = early.id, event_name = early.name, payload = early.payload,
        answered_at = coalesce(%(now)s::timestamptz, now())
    FROM early
    WHERE p.run_id = %(run_id)s AND p.visit = %(visit)s
    RETURNING p.run_id, p.visit, p.node
), woken AS (
    -- deliver's `woken` again: a CTE is its statement's alone, and a shared function needs a migration.
    UPDATE waits AS w
    SET wake_at = least(w.wake_at, coalesce(%(now)s::timestamptz, now())),
        -- Answered: claimed before the waits due by time (migration 0018).
        answered_at = coalesce(%(now)s::timestamptz, now()),
        -- With several pauses pending (a parallel open), this pause is the one due now.
        pauses = CASE WHEN w.pauses ? (answered.node || '@' || answered.visit)
                      THEN jsonb_set(w.pauses, ARRAY[answered.node || '@' || answered.visit, 'due'],
                                     to_jsonb(coalesce(%(now)s::timestamptz, now())))
                      ELSE w.pauses END
    FROM answered
    WHERE w.run_id = answered.run_id AND w.status = 'waiting'
    RETURNING w.run_id
)
SELECT early.id AS event_id, (SELECT count(*) FROM consumed) AS consumed, (SELECT count(*) FROM woken) AS woken
FROM early

-- name: pause_of_visit
-- A woken event wait's pause: its answer if it has one, its keys, its timeout.
SELECT event_name, payload, timed_out, timeout_at, names, key,
       timeout_at <= coalesce(%(now)s::timestamptz, now()) AS due
FROM event_waits WHERE run_id = %(run_id)s AND visit = %(visit)s

-- name: time_out
-- The timeout answers the pause, unless an event answered it first (then no row: read it again).
UPDATE event_waits
SET timed_out = true, answered_at = coalesce(%(now)s::timestamptz, now())
WHERE run_id = %(run_id)s AND visit = %(visit)s AND event_name IS NULL AND NOT timed_out
RETURNING run_id

-- name: sweep_events
-- Events past their keep, consumed or not (a consumed one's pause holds its name and payload itself),
-- the pauses of runs that have ended, and senders' Idempotency-Keys past the keys' retention.
WITH keys AS (
    DELETE FROM event_keys WHERE (sender, name, key) IN (
        SELECT sender, name, key FROM event_keys
        WHERE created_at < coalesce(%(now)s::timestamptz, now()) - %(key_retention)s::interval
        ORDER BY created_at LIMIT 1000
    )
), gone AS (
    DELETE FROM events WHERE id IN (
        SELECT id FROM events WHERE expires_at <= coalesce(%(now)s::timestamptz, now()) LIMIT 1000
    )
    RETURNING id
), pauses AS (
    DELETE FROM event_waits AS p USING runs AS r
    WHERE r.id = p.run_id AND r.ended_at IS NOT NULL
    RETURNING p.run_id
)
SELECT (SELECT count(*) FROM gone) AS events, (SELECT count(*) FROM pauses) AS pauses

-- name: secret_of
SELECT digest FROM event_secrets WHERE name = %(name)s

-- name: set_secret
INSERT INTO event_secrets (name, digest, created_by) VALUES (%(name)s, %(digest)s, %(by)s)
ON CONFLICT (name) DO UPDATE SET digest = excluded.digest, created_at = now(), created_by = excluded.created_by

-- name: answered_pauses
-- Of waits with several pauses, just parked, the event pauses answered (an event, or the timeout): the
-- queue's wake_pauses makes those not due yet due now (the delivery could not make a claimed wait due,
-- and the park wrote the pause's timeout as its due time). The event side of the approvals' decided_pauses.
SELECT w.id AS wait_id, p.key
FROM waits AS w
     CROSS JOIN LATERAL jsonb_each(w.pauses) AS p (key, value)
     JOIN event_waits AS e ON e.run_id = w.run_id AND e.visit = (p.value ->> 'visit')::integer
WHERE w.id = ANY(%(ids)s::bigint[]) AND p.value ->> 'kind' = 'event'
  AND (e.event_name IS NOT NULL OR e.timed_out)

-- name: close_pauses
-- A run's open event pauses other than those still pending (the `keep` visits), closed with the walk that
-- cancelled their branch or ended the run: an event posted later is kept for someone else, not given to a
-- branch that no longer waits. An answered pause is history and stays.
DELETE FROM event_waits
WHERE run_id = %(run_id)s AND event_name IS NULL AND NOT timed_out AND visit <> ALL(%(keep)s::integer[])

-- name: notify_answered
-- Tell sleeping workers a run's wait is answered (WAKE_CHANNEL, the channel they LISTEN on).
SELECT pg_notify(%(channel)s, %(run_id)s::text)
