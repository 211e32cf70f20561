-- Every statement the queue runs. A test reads this file and checks each plan at scale.
-- %(now)s is the injected clock: NULL means the database's own now().

-- name: claim
-- Claim up to %(limit)s due waits for %(me)s, with what walking them needs of their runs; zero rows back
-- means there is nothing to do. Answered waits first (a decision, an event: `answered_at`, migration
-- 0018), oldest answer first, then the rest by wake_at: a person's answer never queues behind a backlog
-- of waits due by time. The answered take at most %(answered_limit)s of a full round (half of it): a
-- steady stream of events never holds back every delay, deadline and retry. A worker woken by a NOTIFY
-- while its slots are too few for a full round claims the answered alone (%(due_limit)s 0, worker.py):
-- an answer is taken at once, with the slots there are, instead of after the backlog's walks free half
-- of them. An approval wait comes with its approval when that is final (decided, timed out, cancelled:
-- it never changes again, approvals_final), so a decided wait resumes with no read of its own.
-- Never a wait the worker still has in hand (%(in_hand)s: walking, or its outcome being written or
-- written again after the database went away): a write whose commit landed but whose answer was lost
-- re-parks the wait with its attempts at 0, and were this worker to claim it again at once, the same
-- (wait, attempts) would be in hand twice and the second try of the first write would pass the guard.
-- A wait whose last claim was abandoned (`abandoned`, migration 0025: its lease lapsed, the worker that
-- held it most likely died in its walk) is a suspect: it may be a run that kills every worker that walks
-- it. At most %(abandoned_limit)s of them (1; 0 for a worker that holds one already, or in a round of
-- answered waits alone: claims.py) is taken, answered or not, before the waits due by time: a dying worker
-- loses every claim it holds, and two suspects never share one, so only the run that kills workers
-- reaches its last attempt.
-- The statement's own transaction does not wait for its WAL flush
-- (set_config(..., true) lasts until that commit): a claim lost with a crashed database is a wait due
-- again, and every later write that waits for its flush flushes the claim with it (docs/runs.md).
WITH answered AS (
    SELECT id FROM waits
    WHERE status = 'waiting' AND answered_at IS NOT NULL AND wake_at <= coalesce(%(now)s::timestamptz, now())
      AND NOT abandoned AND id <> ALL(%(in_hand)s::bigint[])
      AND (SELECT set_config('synchronous_commit', 'off', true)) = 'off'
    ORDER BY answered_at
    LIMIT %(answered_limit)s
    FOR UPDATE SKIP LOCKED
), suspect AS (
    SELECT id, answered_at IS NOT NULL AS answered FROM waits
    WHERE status = 'waiting' AND abandoned AND wake_at <= coalesce(%(now)s::timestamptz, now())
      AND id <> ALL(%(in_hand)s::bigint[])
    ORDER BY wake_at
    LIMIT %(abandoned_limit)s
    FOR UPDATE SKIP LOCKED
), due AS (
    SELECT id FROM waits
    WHERE status = 'waiting' AND wake_at <= coalesce(%(now)s::timestamptz, now()) AND answered_at IS NULL
      AND NOT abandoned AND id <> ALL(%(in_hand)s::bigint[])
    ORDER BY wake_at
    LIMIT %(due_limit)s
    FOR UPDATE SKIP LOCKED
), claimed AS (
    -- The answered first, then the due for the rest: the append reads `due` only as far as the limit
    -- needs, and locks only what it reads. The limits are parameters: a limit the planner
    -- cannot see (a count of `answered`) is estimated at a tenth of the table, and at 100,000 due waits
    -- that planned a whole scan of waits and runs on every claim.
    UPDATE waits AS w
    SET status = 'claimed', claimed_by = %(me)s, attempts = w.attempts + 1, answered_at = NULL,
        claim_expires_at = coalesce(%(now)s::timestamptz, now()) + %(lease)s::interval, abandoned = false
    FROM (SELECT id, true AS answered, false AS abandoned FROM answered
          UNION ALL SELECT id, answered, true FROM suspect
          UNION ALL SELECT id, false, false FROM due
          LIMIT %(limit)s) AS chosen
    WHERE w.id = chosen.id
    RETURNING w.id, w.run_id, w.kind, w.continuation, w.node, w.visit, w.attempts, w.wake_at, chosen.answered,
              chosen.abandoned
)
SELECT c.id AS wait_id, c.run_id, c.kind, c.continuation, c.node, c.visit, c.attempts, c.wake_at,
       r.flow_id, r.version, r.input, c.answered, c.abandoned,
       a.id AS approval_id, a.outcome, a.decided_by, a.decided_at, a.comment
FROM claimed AS c JOIN runs AS r ON r.id = c.run_id
     LEFT JOIN approvals AS a
            ON c.kind = 'approval' AND a.run_id = c.run_id AND a.visit = c.visit AND a.outcome IS NOT NULL

-- name: renew_claims
-- Extend the leases of every wait this worker holds (walking it, or its outcome queued or being written),
-- in one statement; a claim that is gone (taken over, or its run cancelled) is simply not in the answer.
-- It waits for no lock: a row another transaction holds is skipped this time (the worker's own batch
-- writer writing its outcome, which ends the claim or leaves it to the next renewal, a lease/3 later).
-- Waiting for it held back the renewal of every other claim in hand for as long as that write took, and
-- could deadlock with it (both lock the same rows, in different orders): a second of deadlock_timeout
-- against a 2 s lease loses every claim of a live worker (issue 35).
UPDATE waits AS w
SET claim_expires_at = coalesce(%(now)s::timestamptz, now()) + %(lease)s::interval
FROM (SELECT m.id FROM waits AS m
      JOIN unnest(%(wait_ids)s::bigint[], %(claim_attempts)s::integer[]) AS held (id, attempts)
        ON m.id = held.id AND m.attempts = held.attempts
      WHERE m.claimed_by = %(me)s
      FOR UPDATE OF m SKIP LOCKED) AS mine
WHERE w.id = mine.id
RETURNING w.id

-- name: still_claimed
-- Whether a claim still holds, checked before an action leaves: a cancelled run sends nothing more.
SELECT id FROM waits WHERE id = %(id)s AND claimed_by = %(me)s AND attempts = %(attempts)s

-- name: release_expired_claims
-- Give back the waits whose worker died or stalled past its lease, so any worker may claim them; each is
-- marked abandoned, and is claimed without another suspect beside it (the claim statement).
UPDATE waits
SET status = 'waiting', claimed_by = NULL, claim_expires_at = NULL, abandoned = true
WHERE status = 'claimed' AND claim_expires_at < coalesce(%(now)s::timestamptz, now())
RETURNING id

-- name: next_wake
-- When the earliest waiting wait falls due by time, and the database's now, to sleep until then and no
-- longer. An answered wait is left out: its NOTIFY wakes the worker that owns it (backend/queue/wakes.py),
-- and an idle worker that read it here would race that owner for it.
SELECT min(wake_at) AS wake_at, now() AS now FROM waits
WHERE status = 'waiting' AND wake_at < 'infinity' AND answered_at IS NULL

-- name: repark
-- Park a claimed wait again as it was, for a walk that got nowhere (an approval woken early, a branch's
-- retry that failed again); nothing when the claim is no longer ours.
UPDATE waits
SET kind = %(kind)s, continuation = %(continuation)s, node = %(node)s, visit = %(visit)s,
    wake_at = coalesce(%(wake_at)s::timestamptz,
                       coalesce(%(now)s::timestamptz, now()) + %(wake_in)s::interval,
                       'infinity'),
    status = 'waiting', claimed_by = NULL, claim_expires_at = NULL,
    attempts = 0, last_error = NULL, answered_at = NULL
WHERE id = %(id)s AND claimed_by = %(me)s AND attempts = %(attempts)s
RETURNING id AS wait_id, wake_at <= coalesce(%(now)s::timestamptz, now()) AS due_now

-- name: lock_runs
-- The runs of a batch of outcomes, locked in id order before their waits: the order cancel and decide
-- take them in too, so two writers wait for each other instead of deadlocking.
SELECT id FROM runs WHERE id = ANY(%(run_ids)s::bigint[]) ORDER BY id FOR UPDATE

-- name: write_walks
-- Many walks' outcomes at once, from one JSON array with an object per claim: each wait is finished
-- (deleted) or parked again only where the claim (worker and attempt) still holds; only those runs get
-- their status and journal lines. Returns the waits written, whether each is due at once, and how long
-- until a parked one falls due (NULL: finished, or never by time).
WITH walked AS (
    SELECT *
    FROM jsonb_to_recordset(%(walks)s::jsonb)
         AS o (wait_id bigint, attempts integer, run_id bigint, finish boolean, kind text, continuation jsonb,
               node text, visit integer, wake_at timestamptz, wake_in_us bigint, status text,
               error text, journal jsonb)
), finished AS (
    DELETE FROM waits AS w
    USING walked AS o
    WHERE o.finish AND w.id = o.wait_id AND w.claimed_by = %(me)s AND w.attempts = o.attempts
    RETURNING w.id, false AS due_now, NULL::interval AS due_in
), parked AS (
    UPDATE waits AS w
    SET kind = o.kind, continuation = o.continuation, node = o.node, visit = o.visit,
        wake_at = coalesce(o.wake_at,
                           coalesce(%(now)s::timestamptz, now()) + o.wake_in_us * interval '1 microsecond',
                           'infinity'),
        status = 'waiting', claimed_by = NULL, claim_expires_at = NULL, attempts = 0, last_error = NULL,
        answered_at = NULL
    FROM walked AS o
    WHERE NOT o.finish AND w.id = o.wait_id AND w.claimed_by = %(me)s AND w.attempts = o.attempts
    RETURNING w.id, w.wake_at <= coalesce(%(now)s::timestamptz, now()) AS due_now,
              CASE WHEN w.wake_at < 'infinity' THEN w.wake_at - coalesce(%(now)s::timestamptz, now()) END AS due_in
), held AS (
    SELECT id, due_now, due_in FROM finished
    UNION ALL
    SELECT id, due_now, due_in FROM parked
), moved AS (
    UPDATE runs AS r
    SET status = o.status, error = o.error, updated_at = now(),
        ended_at = CASE WHEN o.status IN ('succeeded', 'failed', 'cancelled') THEN now() END,
        journal_seq = r.journal_seq + jsonb_array_length(o.journal)
    FROM walked AS o JOIN held ON held.id = o.wait_id
    WHERE r.id = o.run_id
    RETURNING r.id, r.journal_seq - jsonb_array_length(o.journal) AS last_before, o.journal
), journalled AS (
    INSERT INTO journal (run_id, seq, code, node, visit, data)
    SELECT moved.id, moved.last_before + line.ord, line.value ->> 'code', line.value ->> 'node',
           (line.value ->> 'visit')::integer, line.value -> 'data'
    FROM moved CROSS JOIN LATERAL jsonb_array_elements(moved.journal) WITH ORDINALITY AS line (value, ord)
)
SELECT id AS wait_id, due_now, due_in FROM held

-- name: retry_later
-- Put a wait whose resume threw back in the queue at a later time, with the reason.
UPDATE waits
SET status = 'waiting', claimed_by = NULL, claim_expires_at = NULL, last_error = %(error)s,
    wake_at = coalesce(%(now)s::timestamptz, now()) + %(backoff)s::interval
WHERE id = %(id)s AND claimed_by = %(me)s AND attempts = %(attempts)s
RETURNING id

-- name: stop_wait
-- A wait whose resume failed at its last attempt, kept with its continuation and out of every claim until
-- a person resumes or ends its run; nothing when the claim is no longer ours.
UPDATE waits
SET status = 'stopped', claimed_by = NULL, claim_expires_at = NULL, last_error = %(error)s,
    wake_at = 'infinity'
WHERE id = %(id)s AND claimed_by = %(me)s AND attempts = %(attempts)s
RETURNING id

-- name: lock_stopped_run
-- A run and its stopped wait, the run's row locked: what a resume or an end acts on.
SELECT r.status, r.flow_id, r.version, w.continuation, w.node, w.visit, w.kind
FROM runs AS r LEFT JOIN waits AS w ON w.run_id = r.id AND w.status = 'stopped'
WHERE r.id = %(run_id)s
FOR UPDATE OF r

-- name: resume_stopped_wait
-- A stopped wait back in the queue, due now, its attempts counted afresh.
UPDATE waits
SET status = 'waiting', attempts = 0, last_error = NULL, wake_at = now()
WHERE run_id = %(run_id)s AND status = 'stopped'
RETURNING id

-- name: move_run_to_version
-- A stopped run resumed on a newer version of its flow.
UPDATE runs SET version = %(version)s, updated_at = now() WHERE id = %(run_id)s

-- name: rebase_effects
-- After a move to a newer version, a visit's next try may ask something else under the key it had.
UPDATE effects SET rebased = true WHERE run_id = %(run_id)s

-- name: version_document
-- A version of a flow, to resume a stopped run on.
SELECT document FROM flow_versions WHERE flow_id = %(flow_id)s AND version = %(version)s

-- name: flow_document
-- A flow version's document, when a worker has not parsed it yet.
SELECT document FROM flow_versions WHERE flow_id = %(flow_id)s AND version = %(version)s

-- name: set_run_status
-- A run's new status; an ended run gets its end time.
UPDATE runs
SET status = %(status)s, error = %(error)s, updated_at = now(),
    ended_at = CASE WHEN %(status)s IN ('succeeded', 'failed', 'cancelled') THEN now() END
WHERE id = %(run_id)s
RETURNING id

-- name: take_journal_seq
-- Reserve %(count)s journal line numbers for a run; the row lock orders concurrent writers.
UPDATE runs SET journal_seq = journal_seq + %(count)s WHERE id = %(run_id)s
RETURNING journal_seq - %(count)s

-- name: append_journal
-- A stretch's journal lines in one statement, numbered on from %(first)s in the order given.
INSERT INTO journal (run_id, seq, code, node, visit, data)
SELECT %(run_id)s, %(first)s + line.ord - 1, line.code, line.node, line.visit, line.data
FROM unnest(%(codes)s::text[], %(nodes)s::text[], %(visits)s::integer[], %(datas)s::jsonb[])
     WITH ORDINALITY AS line (code, node, visit, data, ord)

-- name: newest_version
-- The version a new run of a flow is pinned to: the flow's newest (no row for a flow never saved). A read of
-- the flows' pointer, like the pinned document the worker reads; only the flows write it.
SELECT latest_version FROM flows WHERE id = %(flow_id)s AND latest_version > 0

-- name: insert_run
-- A new run; on a repeated idempotency key, nothing (and the caller reads the run that stands). A run the
-- webhook starts keeps who had set the webhook's secret: for self-approval, they are its starter.
INSERT INTO runs (flow_id, version, status, trigger_kind, input, idempotency_key, started_by, hook_secret_by)
VALUES (%(flow_id)s, %(version)s, 'waiting', %(trigger_kind)s, %(input)s, %(idempotency_key)s, %(started_by)s,
        CASE WHEN %(trigger_kind)s = 'webhook'
             THEN (SELECT webhook_secret_by FROM flows WHERE id = %(flow_id)s) END)
ON CONFLICT (flow_id, idempotency_key) DO NOTHING
RETURNING id

-- name: claim_trigger_key
-- A trigger's idempotency key, taken for a new run; no row when the key was taken already (a concurrent
-- taker waits here until the first one commits, then finds it taken).
INSERT INTO trigger_keys (flow_id, key) VALUES (%(flow_id)s, %(idempotency_key)s)
ON CONFLICT (flow_id, key) DO NOTHING
RETURNING 1

-- name: run_by_key
-- The run an idempotency key already started (it may have been swept since).
SELECT run_id FROM trigger_keys WHERE flow_id = %(flow_id)s AND key = %(idempotency_key)s

-- name: set_trigger_key_run
-- The run a freshly taken key started.
UPDATE trigger_keys SET run_id = %(run_id)s WHERE flow_id = %(flow_id)s AND key = %(idempotency_key)s

-- name: sweep_trigger_keys
-- Forget keys past their retention whose run is gone (a run that still waits keeps its key), oldest
-- first, a batch at a time.
DELETE FROM trigger_keys
WHERE (flow_id, key) IN (
    SELECT flow_id, key FROM trigger_keys AS k
    WHERE created_at < coalesce(%(now)s::timestamptz, now()) - %(retention)s::interval
      AND NOT EXISTS (SELECT FROM runs WHERE runs.id = k.run_id)
    ORDER BY created_at
    LIMIT %(limit)s
)
RETURNING 1

-- name: insert_start_wait
-- A new run's first wait, due now.
INSERT INTO waits (run_id, kind, wake_at) VALUES (%(run_id)s, 'start', now())

-- name: database_now
-- The database's clock: what a wait made due by now() is due against, whatever the process's clock says.
SELECT now()

-- name: notify
-- Tell sleeping workers that a wait is due now.
SELECT pg_notify('flowyard_waits', %(payload)s)

-- name: notify_run_shown
-- Tell the pages a run changed when its row did not: a claim let go with nothing new to write (an
-- approval woken early, parked again) turns the `running` that runs_now showed back into the row's status,
-- which the runs table's trigger (migration 0013) never sees. The payload is that trigger's.
SELECT pg_notify('flowyard_runs', json_build_object('run', id, 'flow', flow_id, 'status', status)::text)
FROM runs WHERE id = %(run_id)s

-- name: cancel_run
-- Cancel a run that has not ended; its approvals and its wait go in the same transaction, in that order.
UPDATE runs SET status = 'cancelled', updated_at = now(), ended_at = now()
WHERE id = %(run_id)s AND status IN ('running', 'waiting', 'stopped')
RETURNING id

-- name: open_effect_of_run
-- The action a run's walk died in (a claim abandoned names it): its newest try without an outcome; else,
-- past the wait's visit, the newest action of the walk when its last try failed (the walk died between
-- that try's outcome and the failure it leads to: the run stops where it would have stopped).
SELECT node, visit FROM (
    SELECT node, visit, outcome FROM effects
    WHERE run_id = %(run_id)s AND (outcome IS NULL OR visit > coalesce(%(visit)s, 0))
    ORDER BY outcome IS NULL DESC, visit DESC LIMIT 1
) AS newest
WHERE outcome IS NULL OR outcome = 'error'

-- name: close_open_effects
-- A run cancelled or ended while a try of one of its actions has no outcome (its worker died before
-- writing it: the case that stops a run with claim_abandoned): the try is closed as an error naming how
-- the run ended, `in_doubt` (whether the request arrived is not known), so that no effect stays open for
-- good. Of a stopped run every such try is closed (no worker holds it: the claim that stopped it found
-- every earlier one silent); of a running one only a try whose deadline has passed, one still within it
-- being left to its worker, which writes its answer as usual.
UPDATE effects
SET outcome = 'error', output = %(output)s, completed_at = now()
WHERE run_id = %(run_id)s AND outcome IS NULL
  AND (deadline_at IS NULL OR deadline_at <= now()
       OR EXISTS (SELECT 1 FROM waits WHERE waits.run_id = %(run_id)s AND waits.status = 'stopped'))
RETURNING visit

-- name: delete_wait_of_run
-- The wait of a cancelled run, claimed or not: a worker still walking it will find its claim gone.
DELETE FROM waits WHERE run_id = %(run_id)s
RETURNING id

-- name: heartbeat
-- Say this worker is alive; and the workers alive now (a beat in the last %(live)s seconds), by name, this
-- one among them: each NOTIFY is answered by one of them (backend/queue/wakes.py).
WITH beat AS (
    INSERT INTO workers (name, concurrency) VALUES (%(me)s, %(concurrency)s)
    ON CONFLICT (name) DO UPDATE SET heartbeat_at = now()
    RETURNING name
)
SELECT name FROM beat
UNION
SELECT name FROM workers WHERE heartbeat_at > now() - make_interval(secs => %(live)s)
ORDER BY name

-- name: worker_gone
-- A worker that stops cleanly takes itself off the list, and tells the others (backend/queue/wakes.py).
WITH gone AS (DELETE FROM workers WHERE name = %(me)s RETURNING name)
SELECT pg_notify('flowyard_workers', name) FROM gone

-- name: notify_workers
-- A worker that has just said it is alive tells the others, who learn the live workers again.
SELECT pg_notify('flowyard_workers', %(me)s)

-- name: list_workers
-- Workers for operators, the freshest first.
SELECT name, started_at, heartbeat_at, concurrency, now() - heartbeat_at AS silent_for
FROM workers ORDER BY heartbeat_at DESC

-- name: forget_silent_workers
-- Workers silent for a day are gone; their claims expired long ago.
DELETE FROM workers WHERE heartbeat_at < now() - interval '1 day'

-- name: sweep_ended_runs
-- Delete ended runs that went quiet before retention, oldest end first, a batch at a time; never a waiting
-- run. Quiet: ended, and its last journal line (by number: the primary key's last entry for the run) written
-- before the cutoff too, so a line journaled after the end (a late answer) keeps the run a retention longer.
-- The batch's ids as an array: with `id IN (...)` the planner read the whole runs table to join a batch
-- of a thousand once it expected the quiet runs to be many (a year's sweep: a sequential scan per batch).
DELETE FROM runs
WHERE id = ANY (ARRAY(
    SELECT r.id FROM runs r
    WHERE r.ended_at < coalesce(%(now)s::timestamptz, now()) - %(retention)s::interval
      AND coalesce(
            (SELECT j.at FROM journal j WHERE j.run_id = r.id ORDER BY j.seq DESC LIMIT 1),
            r.ended_at
          ) < coalesce(%(now)s::timestamptz, now()) - %(retention)s::interval
    ORDER BY r.ended_at
    LIMIT %(limit)s
))
RETURNING id

-- name: upsert_schedule
-- A flow's schedule follows its newest version.
INSERT INTO schedules (flow_id, cron, timezone, next_fire_at)
VALUES (%(flow_id)s, %(cron)s, %(timezone)s, %(next)s)
ON CONFLICT (flow_id) DO UPDATE
SET cron = excluded.cron, timezone = excluded.timezone, next_fire_at = excluded.next_fire_at

-- name: delete_schedule
-- The newest version of the flow has no schedule trigger.
DELETE FROM schedules WHERE flow_id = %(flow_id)s

-- name: claim_schedule
-- One due schedule, locked until its fire is written; other workers skip it.
SELECT flow_id, cron, timezone, next_fire_at FROM schedules
WHERE next_fire_at <= coalesce(%(now)s::timestamptz, now())
ORDER BY next_fire_at
LIMIT 1
FOR UPDATE SKIP LOCKED

-- name: move_schedule
-- The schedule's next fire, after the one just claimed.
UPDATE schedules SET next_fire_at = %(next)s WHERE flow_id = %(flow_id)s

-- name: list_runs
-- Runs a user may read, newest first, after a cursor, optionally of one flow, trigger, status and time
-- span (created). Read through the view runs_now (migration 0016): a run whose wait a worker holds right
-- now is `running`.
SELECT id, flow_id, version, status, trigger_kind, error, started_by, created_at, updated_at, ended_at
FROM runs_now AS r
WHERE (%(flow_id)s::bigint IS NULL OR r.flow_id = %(flow_id)s::bigint)
  AND (%(trigger)s::text IS NULL OR r.trigger_kind = %(trigger)s::text)
  AND (%(status)s::text IS NULL OR r.status = %(status)s::text)
  AND r.created_at >= coalesce(%(since)s::timestamptz, '-infinity')
  AND r.created_at < coalesce(%(until)s::timestamptz, 'infinity')
  AND r.id < coalesce(%(before)s::bigint, 9223372036854775807)
  AND EXISTS (SELECT 1 FROM grants AS g
              WHERE g.user_name = %(user)s AND (g.flow_id IS NULL OR g.flow_id = r.flow_id))
ORDER BY r.id DESC
LIMIT %(limit)s

-- name: get_run
-- One run; `running` while a worker holds its wait (the view runs_now, migration 0016).
SELECT id, flow_id, version, status, trigger_kind, error, started_by, created_at, updated_at, ended_at, input
FROM runs_now
WHERE id = %(run_id)s

-- name: wait_of_run
-- What a run waits for, for the run page.
SELECT kind, node, visit, CASE WHEN wake_at < 'infinity' THEN wake_at END AS wake_at, status, attempts, last_error
FROM waits WHERE run_id = %(run_id)s

-- name: forget_expired_sessions
-- Login sessions past their end, and failed logins older than a day.
WITH gone AS (DELETE FROM login_failures WHERE at < now() - interval '1 day')
DELETE FROM sessions WHERE expires_at < now()

-- name: run_record
-- A run's record for auditors, kept after the run itself has been swept.
SELECT run_id, flow_id, flow_name, version, trigger_kind, started_by, trigger_key, started_at, ended_at,
       status, error, input_digest, input_kept, input
FROM run_records WHERE run_id = %(run_id)s

-- name: run_records
-- Run records, optionally of one flow, started in a time span, in a stable order (started_at, run_id),
-- a page after the cursor.
SELECT run_id, flow_id, flow_name, version, trigger_kind, started_by, trigger_key, started_at, ended_at,
       status, error, input_digest, input_kept, input
FROM run_records
WHERE (%(flow_id)s::bigint IS NULL OR flow_id = %(flow_id)s::bigint)
  AND started_at >= coalesce(%(since)s::timestamptz, '-infinity')
  AND started_at < coalesce(%(until)s::timestamptz, 'infinity')
  AND (started_at, run_id) > (coalesce(%(after_at)s::timestamptz, '-infinity'), coalesce(%(after_id)s::bigint, 0))
ORDER BY started_at, run_id
LIMIT %(limit)s

-- name: sweep_run_records
-- Forget the records of runs that ended longer ago than their own retention, oldest first, a batch at a time.
DELETE FROM run_records
WHERE run_id IN (
    SELECT run_id FROM run_records
    WHERE ended_at < coalesce(%(now)s::timestamptz, now()) - %(retention)s::interval
    ORDER BY ended_at
    LIMIT %(limit)s
)
RETURNING run_id

-- name: undos_of_run
-- A run's succeeded actions whose node declares an undo that has not succeeded yet, newest first.
SELECT e.visit, e.node, e.output FROM effects AS e
WHERE e.run_id = %(run_id)s AND e.visit > 0 AND e.outcome = 'out'
  AND NOT EXISTS (SELECT 1 FROM effects AS u WHERE u.run_id = e.run_id AND u.visit = -e.visit AND u.outcome = 'out')
  AND EXISTS (SELECT 1 FROM runs AS r
              JOIN flow_versions AS v ON v.flow_id = r.flow_id AND v.version = r.version
              CROSS JOIN LATERAL jsonb_array_elements(v.document -> 'nodes') AS n (node)
              WHERE r.id = e.run_id AND n.node ->> 'id' = e.node
                AND jsonb_typeof(n.node -> 'config' -> 'undo') = 'object')
ORDER BY e.visit DESC

-- name: undos_done_unjournaled
-- A run's undos that succeeded but have no `undo_done` line yet, newest first: a walk that sent them died
-- (or failed at an older undo) before its lines were written; the next walk writes them.
SELECT -u.visit AS visit, u.node FROM effects AS u
WHERE u.run_id = %(run_id)s AND u.visit < 0 AND u.outcome = 'out'
  AND NOT EXISTS (SELECT 1 FROM journal AS j
                  WHERE j.run_id = u.run_id AND j.code = 'undo_done' AND j.visit = -u.visit)
ORDER BY u.visit

-- name: wait_to_undo
-- A cancelled (or ended) run's wait turned into its undos, due now: taken from any worker walking it, with
-- the variables it had (the trigger's input for a run that never paused) and why it undoes.
UPDATE waits AS w
SET kind = 'undo', node = NULL, visit = NULL, status = 'waiting', claimed_by = NULL, claim_expires_at = NULL,
    attempts = 0, last_error = NULL, wake_at = now(), abandoned = false,
    continuation = jsonb_build_object(
        'undo_for', %(undo_for)s::text, 'by', %(by)s::text,
        'vars', coalesce(w.continuation -> 'vars',
                         jsonb_build_object('trigger', (SELECT input FROM runs WHERE id = w.run_id))))
WHERE w.run_id = %(run_id)s
RETURNING w.id

-- name: time_out_claimed_approvals
-- The approvals of the approval waits a claim round just took whose deadline passed undecided, timed out
-- in one statement for the round; and every such wait's approval as it stands after that, so a woken wait
-- whose approval is decided or timed out resumes from this answer with no read of its own. The same
-- outcome and guard as the approvals' time_out (outcome IS NULL: a decision or a cancel that landed first
-- stands), and like it a statement of its own in autocommit whose commit does not wait for its WAL flush,
-- holding the flow's chain head for no round trip. It takes no wait's or run's lock, and an approval
-- another transaction holds (a decision, a cancel) is skipped, not waited for: it is answered undecided
-- here, and its wait's resolution reads it again (and times it out alone, as before). An outcome, once
-- written, never changes (approvals_final), so one read here is the one the resolution would read.
WITH timed AS (
    UPDATE approvals AS a
    SET outcome = CASE a.on_timeout WHEN 'approve' THEN 'timed_out_approved'
                                    WHEN 'reject' THEN 'timed_out_rejected'
                                    ELSE 'skipped' END,
        decided_at = coalesce(%(now)s::timestamptz, now())
    WHERE a.id IN (
            SELECT o.id
            FROM waits AS w JOIN approvals AS o ON o.run_id = w.run_id AND o.visit = w.visit
            WHERE w.id = ANY(%(wait_ids)s::bigint[]) AND w.claimed_by = %(me)s AND w.kind = 'approval'
              AND o.outcome IS NULL AND o.deadline_at <= coalesce(%(now)s::timestamptz, now())
            ORDER BY o.id
            FOR UPDATE OF o SKIP LOCKED)
      AND a.outcome IS NULL
      AND (SELECT set_config('synchronous_commit', 'off', true)) = 'off'
    RETURNING a.id, a.outcome, a.decided_at
)
SELECT w.id AS wait_id, o.id, o.run_id, coalesce(t.outcome, o.outcome) AS outcome, o.decided_by,
       coalesce(t.decided_at, o.decided_at) AS decided_at, o.comment, t.id IS NOT NULL AS timed_out
FROM waits AS w JOIN approvals AS o ON o.run_id = w.run_id AND o.visit = w.visit
     LEFT JOIN timed AS t ON t.id = o.id
WHERE w.id = ANY(%(wait_ids)s::bigint[]) AND w.claimed_by = %(me)s AND w.kind = 'approval'

-- Issue 24 (h24rt): a wait with several pauses pending at once (a parallel open). Appended, not edited:
-- the statements above are h18's.

-- name: pauses_of_wait
-- The pending pauses of a claimed wait with several, earliest due first (then by visit), each with its
-- due time (NULL: never by time) and whether it is due now; nothing when the claim was taken over since
-- (a later claiming counts its attempts on).
SELECT p.value ->> 'node' AS node, (p.value ->> 'visit')::integer AS visit, p.value ->> 'kind' AS kind,
       nullif((p.value ->> 'due')::timestamptz, 'infinity') AS due,
       (p.value ->> 'due')::timestamptz <= coalesce(%(now)s::timestamptz, now()) AS is_due,
       coalesce((p.value ->> 'attempt')::integer, 0) AS attempt, p.value -> 'request' AS request
FROM waits AS w CROSS JOIN LATERAL jsonb_each(w.pauses) AS p (key, value)
WHERE w.id = %(id)s AND w.status = 'claimed' AND w.attempts = %(attempts)s
ORDER BY (p.value ->> 'due')::timestamptz, (p.value ->> 'visit')::integer

-- name: park_pauses
-- The pauses of waits just parked (in this transaction, their claims held) with several: one JSON array,
-- an object per wait, {"wait_id", "pauses": [{"node", "visit", "kind", "at", "in_us"}]}. A pause is due
-- at `at`, or `in_us` microseconds from now, or never ('infinity'). The wait's wake_at is the earliest
-- due time, and its kind, node and visit that pause's (the run page shows the wait by them). Anything
-- else a pause carries (a retry's "attempt" and "request") is kept with it as given.
WITH given AS (
    SELECT o.wait_id, p.value ->> 'node' AS node, (p.value ->> 'visit')::integer AS visit,
           p.value ->> 'kind' AS kind, p.value - ARRAY['at', 'in_us'] AS kept,
           coalesce((p.value ->> 'at')::timestamptz,
                    coalesce(%(now)s::timestamptz, now()) + (p.value ->> 'in_us')::bigint * interval '1 microsecond',
                    'infinity') AS due
    FROM jsonb_to_recordset(%(walks)s::jsonb) AS o (wait_id bigint, pauses jsonb)
         CROSS JOIN LATERAL jsonb_array_elements(o.pauses) AS p (value)
    WHERE o.wait_id = ANY(%(wait_ids)s::bigint[])
), maps AS (
    SELECT wait_id,
           jsonb_object_agg(node || '@' || visit,
                            kept || jsonb_build_object('node', node, 'visit', visit, 'kind', kind, 'due', due))
               AS pauses,
           min(due) AS wake_at,
           (array_agg(kind ORDER BY due, visit))[1] AS kind,
           (array_agg(node ORDER BY due, visit))[1] AS node,
           (array_agg(visit ORDER BY due, visit))[1] AS visit
    FROM given
    GROUP BY wait_id
)
UPDATE waits AS w
SET pauses = m.pauses, wake_at = m.wake_at, kind = m.kind, node = m.node, visit = m.visit
FROM maps AS m
WHERE w.id = m.wait_id
RETURNING w.id AS wait_id, w.wake_at <= coalesce(%(now)s::timestamptz, now()) AS due_now

-- name: clear_pauses
-- Waits just parked at one pause whose run had several before (its parallel is done): one pause again,
-- described by the wait's own kind, node, visit and wake_at.
UPDATE waits SET pauses = NULL
WHERE id = ANY(%(wait_ids)s::bigint[]) AND pauses IS NOT NULL
RETURNING id

-- name: undoing_wait_of_run
-- The wait of a run already cancelled (or ended) that is running its undos, not stopped in them.
SELECT id FROM waits WHERE run_id = %(run_id)s AND kind = 'undo' AND status <> 'stopped'

-- name: wake_pauses
-- Pauses of waits just parked with several, each named by (wait id, pause key), that were answered while
-- the wait was claimed (an approval decided, an event delivered or timed out: their own wake-up was
-- written over by the park): each one not due yet is due now, and so is its wait. The waits made due.
WITH answered AS (
    SELECT w.id,
           jsonb_object_agg(p.key, jsonb_set(w.pauses -> p.key, '{due}',
                                             to_jsonb(coalesce(%(now)s::timestamptz, now())))) AS due
    FROM unnest(%(wait_ids)s::bigint[], %(keys)s::text[]) AS p (wait_id, key)
         JOIN waits AS w ON w.id = p.wait_id
    WHERE (w.pauses -> p.key ->> 'due')::timestamptz > coalesce(%(now)s::timestamptz, now())
    GROUP BY w.id
)
UPDATE waits AS w
SET pauses = w.pauses || a.due, wake_at = coalesce(%(now)s::timestamptz, now()),
    answered_at = coalesce(%(now)s::timestamptz, now())
FROM answered AS a
WHERE w.id = a.id
RETURNING w.id

-- name: read_only
-- The transaction writes nothing: a resume's preview runs in one, so a write by mistake is an error.
SET TRANSACTION READ ONLY

-- name: stopped_run_read
-- A run, its input and its stopped wait, without a lock: what a resume's preview walks.
SELECT r.status, r.flow_id, r.version, r.input, w.continuation, w.node, w.visit, w.kind
FROM runs AS r LEFT JOIN waits AS w ON w.run_id = r.id AND w.status = 'stopped'
WHERE r.id = %(run_id)s

-- name: effects_of_run_read
-- A run's action visits (not its undos), each with whether a later effect built on it, as lock_effect
-- reads one: what a resume's preview gives back instead of sending.
SELECT e.visit, e.node, e.key, e.outcome, e.output,
       EXISTS (SELECT 1 FROM effects AS later WHERE later.run_id = e.run_id AND later.visit > e.visit)
         AS superseded
FROM effects AS e
WHERE e.run_id = %(run_id)s AND e.visit > 0

-- name: approval_answer_read
-- The approval a stopped run's wait is for, as its resume would read it (approval_of_visit_read).
SELECT id, outcome, decided_by, decided_at, comment,
       deadline_at <= now() AS past_deadline, on_timeout
FROM approvals WHERE run_id = %(run_id)s AND visit = %(visit)s

-- name: pauses_of_run
-- Issue 35: the pending pauses of a run's wait with several (a parallel open), earliest due first (then
-- by visit), each with its due time (NULL: never by time) and, for a branch's retry, the tries made so far:
-- what `flowyard runs show` says of a run one of whose branches retries a failed action.
SELECT p.value ->> 'node' AS node, (p.value ->> 'visit')::integer AS visit, p.value ->> 'kind' AS kind,
       nullif((p.value ->> 'due')::timestamptz, 'infinity') AS due,
       coalesce((p.value ->> 'attempt')::integer, 0) AS attempt
FROM waits AS w CROSS JOIN LATERAL jsonb_each(w.pauses) AS p (key, value)
WHERE w.run_id = %(run_id)s
ORDER BY (p.value ->> 'due')::timestamptz, (p.value ->> 'visit')::integer
