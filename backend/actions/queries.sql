-- Every statement of the actions package: the effects log, servers and command templates.
-- A test reads this file and checks each plan at scale (tests/actions/test_plans.py).

-- name: open_effect
-- Write an action visit's row before anything leaves; nothing when a try of this visit wrote it already.
INSERT INTO effects (run_id, visit, node, type, key, digest, request)
VALUES (%(run_id)s, %(visit)s, %(node)s, %(type)s, %(key)s, %(digest)s, %(request)s)
ON CONFLICT (run_id, visit) DO NOTHING

-- name: lock_effect
-- The row of an action visit, locked for this try, and whether the run has an effect after it (an undo's
-- row, at the negative visit, never counts as built on).
SELECT e.node, e.digest, e.key, e.outcome, e.output,
       e.visit > 0 AND EXISTS (SELECT 1 FROM effects AS later
                               WHERE later.run_id = e.run_id AND later.visit > e.visit) AS superseded,
       e.rebased, e.attempts, e.deadline_at, now() AS now
FROM effects AS e
WHERE e.run_id = %(run_id)s AND e.visit = %(visit)s
FOR UPDATE OF e

-- name: start_attempt
-- A new try under the row's key, with its deadline: the outcome of an earlier try (an error nothing built
-- on) is cleared. A row rebased onto a newer version takes this try's request as what the key asks.
UPDATE effects
SET attempts = attempts + 1, attempted_at = now(), outcome = NULL, output = NULL, completed_at = NULL,
    deadline_at = now() + make_interval(secs => %(allow_s)s),
    digest = %(digest)s, request = %(request)s, rebased = false
WHERE run_id = %(run_id)s AND visit = %(visit)s
RETURNING attempts, deadline_at

-- name: keep_late_result
-- The answer of an attempt that came back after it was given up (a later one had started, or its timeout
-- had passed): kept for people, used by nothing. Nothing when the effect is gone (its run swept).
INSERT INTO late_results (run_id, visit, attempt, outcome, output, deadline_at)
SELECT run_id, visit, %(attempt)s, %(outcome)s, %(output)s, %(deadline_at)s
FROM effects WHERE run_id = %(run_id)s AND visit = %(visit)s
ON CONFLICT DO NOTHING
RETURNING (SELECT node FROM effects WHERE run_id = %(run_id)s AND visit = %(visit)s)

-- name: keep_answer_after_timeout
-- The answer of an attempt given up at its timeout, come while it was still listened to: kept as late, as
-- above, while that attempt is the visit's last (a later attempt's worker keeps its own answers).
INSERT INTO late_results (run_id, visit, attempt, outcome, output, deadline_at)
SELECT run_id, visit, %(attempt)s, %(outcome)s, %(output)s, %(deadline_at)s
FROM effects WHERE run_id = %(run_id)s AND visit = %(visit)s AND attempts = %(attempt)s
ON CONFLICT DO NOTHING
RETURNING (SELECT node FROM effects WHERE run_id = %(run_id)s AND visit = %(visit)s)

-- name: complete_effect
-- First result wins: the outcome of this try, unless another try's outcome was written first.
UPDATE effects
SET outcome = %(outcome)s, output = %(output)s, completed_at = now()
WHERE run_id = %(run_id)s AND visit = %(visit)s AND attempts = %(attempt)s AND outcome IS NULL
RETURNING outcome, output

-- name: effect_outcome
-- The outcome that stands on an action visit, if any, and the attempt now under way.
SELECT outcome, output, attempts FROM effects WHERE run_id = %(run_id)s AND visit = %(visit)s

-- name: save_server
-- Register a server's agent, or give a registered one a new URL (its token is the secret server:NAME).
INSERT INTO servers (name, agent_url, created_by)
VALUES (%(name)s, %(agent_url)s, %(by)s)
ON CONFLICT (name) DO UPDATE SET agent_url = excluded.agent_url, updated_at = now()
RETURNING (xmax = 0) AS created

-- name: list_servers
-- The registered servers (tokens live in the secret store).
SELECT name, agent_url, created_at, updated_at, created_by FROM servers ORDER BY name

-- name: remove_server
-- Forget a server, its templates (cascade) and its token.
WITH gone AS (DELETE FROM servers WHERE name = %(name)s RETURNING name),
     token AS (DELETE FROM secrets WHERE name = 'server:' || %(name)s AND EXISTS (SELECT 1 FROM gone))
SELECT name FROM gone

-- name: server_agent
-- The agent a command is sent to.
SELECT agent_url FROM servers WHERE name = %(name)s

-- name: save_template
-- Store a server's command template, or replace the argv and parameters of one stored under that name.
INSERT INTO command_templates (server, name, argv, params, created_by)
VALUES (%(server)s, %(name)s, %(argv)s, %(params)s, %(by)s)
ON CONFLICT (server, name) DO UPDATE SET argv = excluded.argv, params = excluded.params
RETURNING (xmax = 0) AS created

-- name: list_templates
-- The command templates, of one server or of all.
SELECT server, name, argv, params, created_at, created_by FROM command_templates
WHERE %(server)s::text IS NULL OR server = %(server)s::text
ORDER BY server, name

-- name: remove_template
-- Forget a server's command template; a command node that names it then fails with action_template_missing.
DELETE FROM command_templates WHERE server = %(server)s AND name = %(name)s
RETURNING name

-- name: template
-- A server's template: its argv and the types of its parameters.
SELECT argv, params FROM command_templates WHERE server = %(server)s AND name = %(name)s

-- name: may_use_server
-- Whether a user holds use_server on a server.
SELECT EXISTS (SELECT 1 FROM server_grants WHERE user_name = %(user)s AND server = %(server)s)

-- name: flow_version_author
-- Who saved the version a run walks: the one whose use_server rights its command nodes use.
SELECT v.created_by FROM runs AS r
JOIN flow_versions AS v ON v.flow_id = r.flow_id AND v.version = r.version
WHERE r.id = %(run_id)s

-- name: set_secret
-- Store a sealed secret, or replace one's value.
INSERT INTO secrets (name, sealed, updated_by) VALUES (%(name)s, %(sealed)s, %(by)s)
ON CONFLICT (name) DO UPDATE
SET sealed = excluded.sealed, legacy_plain = NULL, updated_at = now(), updated_by = excluded.updated_by
RETURNING (xmax = 0) AS created

-- name: list_secrets
-- The names flows can reference, and when they changed; never a value. Server tokens are the servers'.
SELECT name, created_at, updated_at, updated_by FROM secrets WHERE left(name, 7) <> 'server:' ORDER BY name

-- name: remove_secret
-- Forget a secret; an action that references it then fails with secret_missing.
DELETE FROM secrets WHERE name = %(name)s RETURNING name

-- name: open_secrets
-- The sealed values of the named secrets (a token moved by migration 0008 may still be in the clear).
SELECT name, sealed, legacy_plain FROM secrets WHERE name = ANY(%(names)s::text[])

-- name: unsealed_secrets
-- Tokens migration 0008 moved here in the clear, to be sealed.
SELECT name, legacy_plain FROM secrets WHERE legacy_plain IS NOT NULL FOR UPDATE

-- name: all_sealed_secrets
-- Every sealed value, to seal again under the newest key.
SELECT name, sealed FROM secrets WHERE sealed IS NOT NULL FOR UPDATE

-- name: reseal_secret
-- A secret's value sealed again (a moved token sealed, or a rotation), its value unchanged.
UPDATE secrets SET sealed = %(sealed)s, legacy_plain = NULL WHERE name = %(name)s

-- name: effects_of_run
-- A run's actions with their state and key, for the run page; never the response body it kept. With each,
-- the last answer kept as late (its attempt given up before it came), if any: its status and when it came.
SELECT e.visit, e.node, e.type, e.key, e.attempts, e.outcome, e.request, e.output -> 'status' AS status,
       e.output ->> 'code' AS code, e.created_at, e.completed_at,
       late.output -> 'status' AS late_status, late.at AS late_at
FROM effects AS e
LEFT JOIN LATERAL (
    SELECT l.output, l.at FROM late_results AS l
    WHERE l.run_id = e.run_id AND l.visit = e.visit
    ORDER BY l.attempt DESC LIMIT 1
) AS late ON true
WHERE e.run_id = %(run_id)s
ORDER BY e.visit

-- name: late_answers_of_run
-- The answers a run's actions gave after their attempts were given up, in the order they came.
SELECT e.node, l.attempt, l.output -> 'status' AS status, l.at
FROM late_results AS l JOIN effects AS e USING (run_id, visit)
WHERE l.run_id = %(run_id)s
ORDER BY l.at, l.visit, l.attempt
