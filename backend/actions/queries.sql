-- Every statement of the actions package: the effects log, servers and command templates.
-- A test reads this file and checks each plan at scale (tests/actions/test_plans.py).

-- name: open_effect
-- Write an action visit's row before anything leaves; nothing when a try of this visit wrote it already.
INSERT INTO effects (run_id, visit, node, type, key, digest, request)
VALUES (%(run_id)s, %(visit)s, %(node)s, %(type)s, %(key)s, %(digest)s, %(request)s)
ON CONFLICT (run_id, visit) DO NOTHING

-- name: lock_effect
-- The row of an action visit, locked for this try, and whether the run has an effect after it.
SELECT e.node, e.digest, e.key, e.outcome, e.output,
       EXISTS (SELECT 1 FROM effects AS later
               WHERE later.run_id = e.run_id AND later.visit > e.visit) AS superseded
FROM effects AS e
WHERE e.run_id = %(run_id)s AND e.visit = %(visit)s
FOR UPDATE OF e

-- name: start_attempt
-- A new try under the row's key: the outcome of an earlier try (an error nothing built on) is cleared.
UPDATE effects
SET attempts = attempts + 1, attempted_at = now(), outcome = NULL, output = NULL, completed_at = NULL
WHERE run_id = %(run_id)s AND visit = %(visit)s
RETURNING attempts

-- name: complete_effect
-- First result wins: the outcome of this try, unless another try's outcome was written first.
UPDATE effects
SET outcome = %(outcome)s, output = %(output)s, completed_at = now()
WHERE run_id = %(run_id)s AND visit = %(visit)s AND attempts = %(attempt)s AND outcome IS NULL
RETURNING outcome, output

-- name: effect_outcome
-- The outcome that stands on an action visit, if any.
SELECT outcome, output FROM effects WHERE run_id = %(run_id)s AND visit = %(visit)s

-- name: save_server
-- Register a server's agent, or replace the URL and token of one registered under that name.
INSERT INTO servers (name, agent_url, token, created_by)
VALUES (%(name)s, %(agent_url)s, %(token)s, %(by)s)
ON CONFLICT (name) DO UPDATE SET agent_url = excluded.agent_url, token = excluded.token, updated_at = now()
RETURNING (xmax = 0) AS created

-- name: list_servers
-- The registered servers, without their tokens.
SELECT name, agent_url, created_at, updated_at, created_by FROM servers ORDER BY name

-- name: remove_server
-- Forget a server; a command node that names it then fails with action_server_missing.
DELETE FROM servers WHERE name = %(name)s
RETURNING name

-- name: server_agent
-- The one statement that reads a token: the agent a command is sent to.
SELECT agent_url, token FROM servers WHERE name = %(name)s

-- name: save_template
-- Store a command template, or replace the command of one stored under that name.
INSERT INTO command_templates (name, command, created_by)
VALUES (%(name)s, %(command)s, %(by)s)
ON CONFLICT (name) DO UPDATE SET command = excluded.command
RETURNING (xmax = 0) AS created

-- name: list_templates
-- The stored command templates.
SELECT name, command, created_at, created_by FROM command_templates ORDER BY name

-- name: remove_template
-- Forget a command template; a command node that names it then fails with action_template_missing.
DELETE FROM command_templates WHERE name = %(name)s
RETURNING name

-- name: template_command
-- The command a template stands for.
SELECT command FROM command_templates WHERE name = %(name)s

-- name: effects_of_run
-- A run's actions with their state and key, for the run page; never the response body it kept.
SELECT visit, node, type, key, attempts, outcome, request, output -> 'status', output ->> 'code',
       created_at, completed_at
FROM effects WHERE run_id = %(run_id)s
ORDER BY visit
