-- The gauges read from the database when metrics are scraped.

-- name: waits_due
-- How many waits are due and unclaimed, and how long the longest-due one has waited (the waits_due index).
SELECT count(*) AS due, coalesce(extract(epoch FROM now() - min(wake_at)), 0)::float8 AS oldest_s
FROM waits WHERE status = 'waiting' AND wake_at <= now();

-- name: approvals_waiting
-- Approvals with no decision yet (the approvals_open index).
SELECT count(*) FROM approvals WHERE outcome IS NULL;
