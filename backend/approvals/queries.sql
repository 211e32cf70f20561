-- Approval requests and decisions.

-- name: approval_of_visit
-- The approval a run's pause is for, locked against a decision landing at the same moment.
SELECT id, outcome, decided_by, decided_at, comment,
       deadline_at <= coalesce(%(now)s::timestamptz, now()) AS past_deadline
FROM approvals WHERE run_id = %(run_id)s AND visit = %(visit)s
FOR UPDATE

-- name: approval_of_visit_read
-- The approval a run's pause is for, read without a lock: an outcome, once there, never changes (the
-- approvals_final trigger), and an undecided one is read again under its lock before anything is owed.
SELECT id, outcome, decided_by, decided_at, comment,
       deadline_at <= coalesce(%(now)s::timestamptz, now()) AS past_deadline
FROM approvals WHERE run_id = %(run_id)s AND visit = %(visit)s

-- name: time_out
-- The deadline passed with no decision: the outcome on_timeout names; nothing if one was decided (or the
-- run cancelled) since it was read. A statement of its own, in autocommit, whose commit does not wait for
-- its WAL flush (set_config(..., true) lasts until that commit): it writes the flow's hash-chained trail,
-- whose head every decision of the flow takes in turn, so it holds that head for no round trip at all;
-- the walk's outcome, which waits for its flush, flushes the time-out with it (docs/runs.md).
UPDATE approvals
SET outcome = CASE on_timeout WHEN 'approve' THEN 'timed_out_approved'
                              WHEN 'reject' THEN 'timed_out_rejected'
                              ELSE 'skipped' END,
    decided_at = coalesce(%(now)s::timestamptz, now())
WHERE id = %(id)s AND outcome IS NULL
  AND (SELECT set_config('synchronous_commit', 'off', true)) = 'off'
RETURNING outcome, decided_at

-- name: decision_awaiting_resume
-- A decision the run has not gone on with yet: its approval wait is still there, untried, and the
-- approval decided (with several pauses pending, any of them). A wait whose resume threw (it sits out its
-- backoff) can be cancelled.
SELECT a.id, a.outcome, a.decided_by, a.decided_at
FROM waits AS w JOIN approvals AS a ON a.run_id = w.run_id
WHERE w.run_id = %(run_id)s AND w.last_error IS NULL
  AND CASE WHEN w.pauses IS NULL THEN w.kind = 'approval' AND a.visit = w.visit
           ELSE w.pauses ? (a.node || '@' || a.visit) END
  AND a.outcome IS NOT NULL AND a.outcome <> 'cancelled'
ORDER BY a.visit

-- name: decide
-- A vote and, when it settles the approval, the decision, the journal line, the run's wake and the NOTIFY:
-- one statement, one commit (migration 0028's decide_approval). A refusal writes nothing and is returned
-- as its reason code and the person it concerns.
SELECT refusal, refused, outcome, run_id, decided_at
FROM decide_approval(%(id)s, %(vote)s, %(voter)s, %(comment)s, %(now)s::timestamptz, %(line_code)s)

-- name: approval
-- One approval, as the inbox and the audit show it.
SELECT id, run_id, flow_id, version, node, visit, title, explanation, approvers, deadline_at, on_timeout,
       requested_at, outcome, decided_by, decided_at, comment, started_by, quorum, reject_rule,
       allow_self_approval, author, on_behalf_of, shown
FROM approvals WHERE id = %(id)s

-- name: cancel_open_approvals
-- A cancelled run's open approval stays readable, marked cancelled.
UPDATE approvals SET outcome = 'cancelled', decided_by = %(by)s, decided_at = now()
WHERE run_id = %(run_id)s AND outcome IS NULL

-- name: inbox
-- The open approvals a user may decide now (the decide right on the flow; named, or standing in for
-- someone named, or nobody named; not their own run, flow version or webhook secret's run unless the node
-- allows it; not voted on yet), oldest first, a page after the cursor (requested_at, id). Without
-- with_values, what each shows is left unread (a count, such as the header's badge, needs none of it).
SELECT id, run_id, flow_id, version, node, visit, title, explanation, approvers, deadline_at, on_timeout,
       requested_at, outcome, decided_by, decided_at, comment, started_by, quorum, reject_rule,
       allow_self_approval, author, on_behalf_of,
       CASE WHEN %(with_values)s::boolean THEN shown ELSE '[]'::jsonb END AS shown
FROM approvals AS a
WHERE a.outcome IS NULL
  AND EXISTS (SELECT 1 FROM grants AS g
              WHERE g.user_name = %(name)s AND g."right" = 'decide'
                AND (g.flow_id IS NULL OR g.flow_id = a.flow_id))
  AND (cardinality(a.approvers) = 0 OR a.approvers && %(principals)s::text[])
  AND (self_approval_allowed(a.allow_self_approval)
       OR (a.started_by IS DISTINCT FROM %(name)s AND a.author IS DISTINCT FROM %(name)s
           AND a.hook_secret_by IS DISTINCT FROM %(name)s))
  AND NOT EXISTS (SELECT 1 FROM approval_votes AS v WHERE v.approval_id = a.id AND v.voter = %(name)s)
  AND (a.requested_at, a.id) > (coalesce(%(after_at)s::timestamptz, '-infinity'),
                                coalesce(%(after_id)s::bigint, 0))
ORDER BY a.requested_at, a.id
LIMIT %(limit)s

-- name: audit
-- Decisions, filtered, in a stable order, one page after the cursor (decided_at, id). A text (in the
-- title, the explanation or the comment, ignoring case) is looked for two ways, so that neither a common
-- nor a rare one reads the whole trail: first in the next `scan` decisions in order (a common text
-- fills the page there); only when those hold less than a page, after them through the text index
-- approvals_text_pieces (a rare text: the index names the few that hold its three-character pieces,
-- asked for the pieces that are not in most decisions: audit_search_pieces). The page starts after the key
-- `after_at`, `after_id`: the cursor's, or `since` (audit.py makes it the later of the two). A `since`
-- beside it as a condition of its own would let the index scan start at the first decision ever
-- (PostgreSQL does not tell which of the two bounds is higher), a year of them for the last week.
WITH ordered AS MATERIALIZED (
    SELECT id, run_id, flow_id, version, node, visit, title, explanation, approvers, deadline_at, on_timeout,
           requested_at, outcome, decided_by, decided_at, comment, started_by, quorum, reject_rule,
           allow_self_approval, author, on_behalf_of, shown
    FROM approvals
    WHERE outcome IS NOT NULL
      AND (%(flow_id)s::bigint IS NULL OR flow_id = %(flow_id)s::bigint)
      AND (%(decider)s::text IS NULL OR decided_by = %(decider)s::text)
      AND (%(outcome)s::text IS NULL OR outcome = %(outcome)s::text)
      AND decided_at < coalesce(%(until)s::timestamptz, 'infinity')
      AND (decided_at, id) > (coalesce(%(after_at)s::timestamptz, '-infinity'),
                              coalesce(%(after_id)s::bigint, 0))
    ORDER BY decided_at, id
    LIMIT CASE WHEN %(text)s::text IS NULL THEN %(limit)s ELSE %(scan)s END
), hits AS MATERIALIZED (
    SELECT * FROM ordered
    WHERE %(text)s::text IS NULL
       OR strpos(lower(title), lower(%(text)s::text)) > 0
       OR strpos(lower(explanation), lower(%(text)s::text)) > 0
       OR strpos(lower(coalesce(comment, '')), lower(%(text)s::text)) > 0
)
SELECT * FROM hits
UNION ALL
SELECT id, run_id, flow_id, version, node, visit, title, explanation, approvers, deadline_at, on_timeout,
       requested_at, outcome, decided_by, decided_at, comment, started_by, quorum, reject_rule,
       allow_self_approval, author, on_behalf_of, shown
FROM approvals
WHERE %(text)s::text IS NOT NULL
  AND (SELECT count(*) FROM ordered) = %(scan)s
  AND (SELECT count(*) FROM hits) < %(limit)s
  AND outcome IS NOT NULL
  AND audit_pieces(audit_text(title, explanation, comment)) @> audit_search_pieces(lower(%(text)s::text))
  AND (strpos(lower(title), lower(%(text)s::text)) > 0
       OR strpos(lower(explanation), lower(%(text)s::text)) > 0
       OR strpos(lower(coalesce(comment, '')), lower(%(text)s::text)) > 0)
  AND (%(flow_id)s::bigint IS NULL OR flow_id = %(flow_id)s::bigint)
  AND (%(decider)s::text IS NULL OR decided_by = %(decider)s::text)
  AND (%(outcome)s::text IS NULL OR outcome = %(outcome)s::text)
  AND decided_at >= coalesce(%(since)s::timestamptz, '-infinity')
  AND decided_at < coalesce(%(until)s::timestamptz, 'infinity')
  AND (decided_at, id) > (SELECT decided_at, id FROM ordered ORDER BY decided_at DESC, id DESC LIMIT 1)
ORDER BY decided_at, id
LIMIT %(limit)s

-- name: audit_export
-- The decisions `audit` finds, filtered, ordered and paged as it does them (tests/approvals/test_audit.py
-- holds the two to the same decisions), with only the columns an export writes: neither the values a
-- question showed nor its approvers, which an export of a year would read and decode for nothing.
WITH ordered AS MATERIALIZED (
    SELECT id, run_id, flow_id, version, node, title, explanation, outcome, decided_by, decided_at, comment,
           requested_at, deadline_at, on_timeout, started_by
    FROM approvals
    WHERE outcome IS NOT NULL
      AND (%(flow_id)s::bigint IS NULL OR flow_id = %(flow_id)s::bigint)
      AND (%(decider)s::text IS NULL OR decided_by = %(decider)s::text)
      AND (%(outcome)s::text IS NULL OR outcome = %(outcome)s::text)
      AND decided_at < coalesce(%(until)s::timestamptz, 'infinity')
      AND (decided_at, id) > (coalesce(%(after_at)s::timestamptz, '-infinity'),
                              coalesce(%(after_id)s::bigint, 0))
    ORDER BY decided_at, id
    LIMIT CASE WHEN %(text)s::text IS NULL THEN %(limit)s ELSE %(scan)s END
), hits AS MATERIALIZED (
    SELECT * FROM ordered
    WHERE %(text)s::text IS NULL
       OR strpos(lower(title), lower(%(text)s::text)) > 0
       OR strpos(lower(explanation), lower(%(text)s::text)) > 0
       OR strpos(lower(coalesce(comment, '')), lower(%(text)s::text)) > 0
)
SELECT id, run_id, flow_id, version, node, title, outcome, decided_by, decided_at, comment, requested_at,
       deadline_at, on_timeout, started_by
FROM hits
UNION ALL
SELECT id, run_id, flow_id, version, node, title, outcome, decided_by, decided_at, comment, requested_at,
       deadline_at, on_timeout, started_by
FROM approvals
WHERE %(text)s::text IS NOT NULL
  AND (SELECT count(*) FROM ordered) = %(scan)s
  AND (SELECT count(*) FROM hits) < %(limit)s
  AND outcome IS NOT NULL
  AND audit_pieces(audit_text(title, explanation, comment)) @> audit_search_pieces(lower(%(text)s::text))
  AND (strpos(lower(title), lower(%(text)s::text)) > 0
       OR strpos(lower(explanation), lower(%(text)s::text)) > 0
       OR strpos(lower(coalesce(comment, '')), lower(%(text)s::text)) > 0)
  AND (%(flow_id)s::bigint IS NULL OR flow_id = %(flow_id)s::bigint)
  AND (%(decider)s::text IS NULL OR decided_by = %(decider)s::text)
  AND (%(outcome)s::text IS NULL OR outcome = %(outcome)s::text)
  AND decided_at >= coalesce(%(since)s::timestamptz, '-infinity')
  AND decided_at < coalesce(%(until)s::timestamptz, 'infinity')
  AND (decided_at, id) > (SELECT decided_at, id FROM ordered ORDER BY decided_at DESC, id DESC LIMIT 1)
ORDER BY decided_at, id
LIMIT %(limit)s

-- name: sweep_decided_approvals
-- Decided approvals past their own retention, oldest first, a batch at a time; and past the retention the
-- schema's owner recorded, the only one the trail's trigger lets a decision go by (none: nothing goes).
DELETE FROM approvals
WHERE id IN (
    SELECT id FROM approvals
    WHERE outcome IS NOT NULL AND decided_at < coalesce(%(now)s::timestamptz, now()) - %(retention)s::interval
      AND decided_at < now() - (SELECT retention FROM approval_retention)
    ORDER BY decided_at, id
    LIMIT %(limit)s
)
RETURNING id

-- name: close_open_approvals
-- A run that failed while it waited at an approval: the approval can no longer be decided.
UPDATE approvals SET outcome = 'run_failed', decided_at = now()
WHERE run_id = %(run_id)s AND outcome IS NULL

-- name: open_approvals
-- Every open approval, whoever may decide it (the terminal's view without --as), oldest first, a page
-- after the cursor (requested_at, id).
SELECT id, run_id, flow_id, version, node, visit, title, explanation, approvers, deadline_at, on_timeout,
       requested_at, outcome, decided_by, decided_at, comment, started_by, quorum, reject_rule,
       allow_self_approval, author, on_behalf_of,
       CASE WHEN %(with_values)s::boolean THEN shown ELSE '[]'::jsonb END AS shown
FROM approvals
WHERE outcome IS NULL
  AND (requested_at, id) > (coalesce(%(after_at)s::timestamptz, '-infinity'),
                            coalesce(%(after_id)s::bigint, 0))
ORDER BY requested_at, id
LIMIT %(limit)s

-- name: approval_of_wait
-- The approval a run's wait is for (one per visit), open or decided.
SELECT id, outcome FROM approvals WHERE run_id = %(run_id)s AND visit = %(visit)s

-- name: claim_approval_mails
-- Up to %(limit)s due mails, each held for %(lease)s (a sender that dies lets it fall due again), with
-- what writing them needs: the approval, its flow's name, the recipient's address and language, and the
-- round (0: the request, n: the n-th reminder).
WITH due AS (
    SELECT approval_id, user_name, round FROM approval_mails
    WHERE status = 'pending' AND next_try_at <= now()
    ORDER BY next_try_at
    LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
), claimed AS (
    UPDATE approval_mails AS m
    SET attempts = m.attempts + 1, next_try_at = now() + %(lease)s::interval
    FROM due
    WHERE m.approval_id = due.approval_id AND m.user_name = due.user_name AND m.round = due.round
    RETURNING m.approval_id, m.user_name, m.key, m.attempts, m.round
)
SELECT c.approval_id, c.user_name, c.key, c.attempts, u.email AS address, u.locale,
       a.run_id, a.title, a.explanation, a.deadline_at, a.on_timeout, a.outcome, f.name AS flow_name,
       u.time_zone AS timezone, c.round
FROM claimed AS c
JOIN approvals AS a ON a.id = c.approval_id
JOIN flows AS f ON f.id = a.flow_id
LEFT JOIN users AS u ON u.name = c.user_name

-- name: approval_mail_done
-- A claimed mail's end: sent, or skipped (the approval was decided, or the address is gone); only by the
-- try that claimed it.
UPDATE approval_mails
SET status = %(status)s, sent_at = CASE WHEN %(status)s = 'sent' THEN now() END, error = %(error)s
WHERE approval_id = %(approval_id)s AND user_name = %(name)s AND round = %(round)s
  AND attempts = %(attempts)s AND status = 'pending'

-- name: approval_mail_failed
-- A try that failed: again after the backoff, or, at the last attempt, failed for good, with why.
UPDATE approval_mails
SET error = %(error)s, next_try_at = now() + %(backoff)s::interval,
    status = CASE WHEN attempts >= %(max_attempts)s THEN 'failed' ELSE 'pending' END
WHERE approval_id = %(approval_id)s AND user_name = %(name)s AND round = %(round)s
  AND attempts = %(attempts)s AND status = 'pending'

-- name: approvals_of_run
-- A run's approvals, decided or not, for its page: who may decide, the deadline, who decided what.
SELECT id, run_id, flow_id, version, node, visit, title, explanation, approvers, deadline_at, on_timeout,
       requested_at, outcome, decided_by, decided_at, comment, started_by, quorum, reject_rule,
       allow_self_approval, author, on_behalf_of, shown
FROM approvals WHERE run_id = %(run_id)s
ORDER BY visit

-- name: votes_of_approvals
-- The votes of approvals (one, or a page of the inbox or the audit), in the order they were cast.
SELECT approval_id, id, voter, on_behalf_of, vote, comment, cast_at
FROM approval_votes WHERE approval_id = ANY(%(ids)s::bigint[])
ORDER BY approval_id, id

-- name: delegators_of
-- Who has delegated their approvals to %(name)s now (a delegation that has started, not ended, not
-- revoked), by name.
SELECT from_user FROM delegations
WHERE to_user = %(name)s AND revoked_at IS NULL
  AND starts_at <= coalesce(%(now)s::timestamptz, now()) AND ends_at > coalesce(%(now)s::timestamptz, now())
ORDER BY from_user

-- name: insert_delegation
-- A delegation of %(from_user)s's approvals to %(to_user)s for a period.
INSERT INTO delegations (from_user, to_user, starts_at, ends_at, created_by)
VALUES (%(from_user)s, %(to_user)s, %(starts_at)s, %(ends_at)s, %(by)s)
RETURNING id, from_user, to_user, starts_at, ends_at, revoked_at

-- name: delegations_of
-- A user's delegations, given and received, that have not ended, newest first.
SELECT id, from_user, to_user, starts_at, ends_at, revoked_at FROM delegations
WHERE (from_user = %(name)s OR to_user = %(name)s) AND revoked_at IS NULL AND ends_at > now()
ORDER BY id DESC
LIMIT 200

-- name: end_delegation
-- A delegation ended by the user who gave it; nothing when it is not theirs or has ended already.
UPDATE delegations SET revoked_at = now()
WHERE id = %(id)s AND from_user = %(name)s AND revoked_at IS NULL
RETURNING id, from_user, to_user, starts_at, ends_at, revoked_at

-- name: lock_run
-- A run's row, taken before its approval's (runs < approvals < waits) when a woken approval may write
-- to the run's journal.
SELECT status FROM runs WHERE id = %(run_id)s FOR UPDATE

-- name: approval_schedule
-- What a woken, undecided approval owes now: its reminders and escalation, from its request time.
SELECT requested_at, remind_after, reminders_sent, escalate_after, escalate_to, escalated_at, deadline_at,
       node, visit
FROM approvals WHERE id = %(id)s

-- name: queue_reminder_mails
-- Reminder %(round)s of an approval to each approver who has an address and the decide right and has
-- not voted; keyed (approval, user, round), so a retried walk writes each once.
INSERT INTO approval_mails (approval_id, user_name, key, round)
SELECT a.id, u.name, 'fy-mail-' || a.id || '-r' || %(round)s::int || '-' || md5(u.name || random()::text),
       %(round)s::int
FROM approvals AS a
JOIN users AS u ON u.email IS NOT NULL
WHERE a.id = %(id)s
  AND (('user:' || u.name) = ANY(a.approvers)
       OR EXISTS (SELECT 1 FROM group_members AS m
                  WHERE m.user_name = u.name AND ('group:' || m.group_name) = ANY(a.approvers)))
  AND EXISTS (SELECT 1 FROM grants AS g
              WHERE g.user_name = u.name AND g."right" = 'decide'
                AND (g.flow_id IS NULL OR g.flow_id = a.flow_id))
  AND NOT EXISTS (SELECT 1 FROM approval_votes AS v WHERE v.approval_id = a.id AND v.seat = u.name)
ON CONFLICT DO NOTHING
RETURNING user_name

-- name: reminders_sent
-- How many reminders an approval has written; only ever up.
UPDATE approvals SET reminders_sent = %(sent)s WHERE id = %(id)s AND reminders_sent < %(sent)s

-- name: escalate
-- The escalation: escalate_to joins the approvers, once.
UPDATE approvals
SET approvers = ARRAY(SELECT DISTINCT p FROM unnest(approvers || escalate_to) AS p ORDER BY p),
    escalated_at = coalesce(%(now)s::timestamptz, now())
WHERE id = %(id)s AND escalated_at IS NULL AND outcome IS NULL
RETURNING id

-- name: insert_approvals
-- The requests of a batch of paused runs, and the mails each calls for, in one statement (the outcome
-- batch's, after its walks are written): one JSON document, an array with an object per approval (its
-- durations in microseconds): the one way an approval is asked (a batch of one when the batch fails).
WITH asked AS (
    SELECT *
    FROM jsonb_to_recordset(%(document)s::jsonb)
         AS a (run_id bigint, flow_id bigint, version integer, node text, visit integer, title text,
               explanation text, approvers text[], deadline_us bigint, on_timeout text, quorum integer,
               reject text, allow_self_approval boolean, remind_after_us bigint[], escalate_after_us bigint,
               escalate_to text[], shown jsonb)
), inserted AS (
    INSERT INTO approvals (run_id, flow_id, version, node, visit, title, explanation, approvers, deadline,
                           deadline_at, on_timeout, requested_at, started_by, quorum, reject_rule,
                           allow_self_approval, author, remind_after, escalate_after, escalate_to, shown,
                           hook_secret_by)
    SELECT a.run_id, a.flow_id, a.version, a.node, a.visit, a.title, a.explanation, a.approvers,
           a.deadline_us * interval '1 microsecond',
           coalesce(%(now)s::timestamptz, now()) + a.deadline_us * interval '1 microsecond', a.on_timeout,
           coalesce(%(now)s::timestamptz, now()),
           (SELECT started_by FROM runs WHERE id = a.run_id), a.quorum, a.reject, a.allow_self_approval,
           (SELECT created_by FROM flow_versions WHERE flow_id = a.flow_id AND version = a.version),
           ARRAY(SELECT after * interval '1 microsecond' FROM unnest(a.remind_after_us) AS after),
           a.escalate_after_us * interval '1 microsecond', a.escalate_to, a.shown,
           (SELECT hook_secret_by FROM runs WHERE id = a.run_id)
    FROM asked AS a
    RETURNING id, flow_id, approvers
)
INSERT INTO approval_mails (approval_id, user_name, key)
SELECT i.id, u.name, 'fy-mail-' || i.id || '-' || md5(u.name || random()::text)
FROM inserted AS i
CROSS JOIN LATERAL (
    SELECT substr(p, 6) AS name FROM unnest(i.approvers) AS p WHERE starts_with(p, 'user:')
    UNION
    SELECT m.user_name FROM group_members AS m
    WHERE m.group_name IN (SELECT substr(p, 7) FROM unnest(i.approvers) AS p WHERE starts_with(p, 'group:'))
) AS named
JOIN users AS u ON u.name = named.name
WHERE u.email IS NOT NULL
  AND EXISTS (SELECT 1 FROM grants AS g
              WHERE g.user_name = u.name AND g."right" = 'decide' AND (g.flow_id IS NULL OR g.flow_id = i.flow_id))
ON CONFLICT DO NOTHING

-- name: close_other_approvals
-- A run's open approvals other than those still pending (the `keep` visits), closed in the transaction
-- that writes its walk: `run_failed` when a branch failed the run, `branch_cancelled` when a parallel's
-- wait rule cancelled their branch. No one can decide them any more; their mails are skipped.
UPDATE approvals SET outcome = %(outcome)s, decided_at = coalesce(%(now)s::timestamptz, now())
WHERE run_id = %(run_id)s AND outcome IS NULL AND visit <> ALL(%(keep)s::integer[])
RETURNING id

-- name: decided_pauses
-- Of waits with several pauses, just parked, the approval pauses whose approval is decided: the queue's
-- wake_pauses makes those not due yet due now (a decision that landed while the wait was claimed had its
-- wake-up written over by the park).
SELECT w.id AS wait_id, p.key
FROM waits AS w
     CROSS JOIN LATERAL jsonb_each(w.pauses) AS p (key, value)
     JOIN approvals AS a ON a.run_id = w.run_id AND a.visit = (p.value ->> 'visit')::integer
WHERE w.id = ANY(%(ids)s::bigint[]) AND p.value ->> 'kind' = 'approval' AND a.outcome IS NOT NULL

-- name: decisions_of_runs
-- Each of these runs' latest decision (by decided_at): an approval approved, rejected, or settled by its
-- deadline; not one closed with its run or its branch (nobody decided those). For the runs list and page.
SELECT DISTINCT ON (run_id) run_id, id AS approval, node, title, outcome, decided_by, decided_at
FROM approvals
WHERE run_id = ANY(%(run_ids)s::bigint[])
  AND outcome IN ('approved', 'rejected', 'timed_out_approved', 'timed_out_rejected', 'skipped')
ORDER BY run_id, decided_at DESC, id DESC

-- name: policy
-- A policy's value and who set it when; no row: its default.
SELECT value, set_by, set_at FROM policies WHERE name = %(name)s

-- name: declare_policy_actor
-- Who sets a policy, for the transaction: the trigger of migration 0023 writes it on the rights trail.
SELECT set_config('flowyard.actor', %(actor)s, true)

-- name: set_policy
-- An admin sets a policy (on the rights trail, by the trigger of migration 0023).
INSERT INTO policies (name, value, set_by) VALUES (%(name)s, %(value)s, %(by)s)
ON CONFLICT (name) DO UPDATE SET value = excluded.value, set_by = excluded.set_by, set_at = now()

-- name: recorded_retention
-- The approvals' retention the schema's owner recorded; no row: decided approvals are kept forever.
SELECT retention FROM approval_retention

-- name: record_retention
-- The owner records the approvals' retention (the table's trigger refuses any other role).
INSERT INTO approval_retention (retention) VALUES (%(retention)s)
ON CONFLICT (only_row) DO UPDATE SET retention = excluded.retention, set_at = now()

-- name: forget_retention
-- The owner records that decided approvals are kept forever.
DELETE FROM approval_retention

-- name: database_now
-- The database's clock: a decision's time when the service was given none.
SELECT now()
