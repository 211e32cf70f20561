-- The signed heads' outbox (heads_mail.py): a line queued as it is signed, claimed for a lease, sent.

-- name: heads_mail_queued
-- A signed line, to be mailed to the auditors; queued once.
INSERT INTO signed_heads_mails (key, line) VALUES (%(key)s, %(line)s)
ON CONFLICT (key) DO NOTHING

-- name: heads_mails_claimed
-- Up to %(limit)s due lines, each held for %(lease)s (a sender that dies lets it fall due again).
WITH due AS (
    SELECT key FROM signed_heads_mails
    WHERE status = 'pending' AND next_try_at <= now()
    ORDER BY next_try_at
    LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
)
UPDATE signed_heads_mails AS m
SET attempts = m.attempts + 1, next_try_at = now() + %(lease)s::interval
FROM due
WHERE m.key = due.key
RETURNING m.key, m.line, m.attempts

-- name: heads_mail_sent
-- A claimed line the SMTP server took; only by the try that claimed it.
UPDATE signed_heads_mails SET status = 'sent', sent_at = now(), error = NULL
WHERE key = %(key)s AND attempts = %(attempts)s AND status = 'pending'

-- name: heads_mail_failed
-- A try that failed: again after the backoff, or, at the last attempt, failed for good, with why.
UPDATE signed_heads_mails
SET error = %(error)s, next_try_at = now() + %(backoff)s::interval,
    status = CASE WHEN attempts >= %(max_attempts)s THEN 'failed' ELSE 'pending' END
WHERE key = %(key)s AND attempts = %(attempts)s AND status = 'pending'
