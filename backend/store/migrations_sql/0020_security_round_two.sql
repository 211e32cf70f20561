-- Issue 32, security round two.

-- Four eyes around a webhook: whoever set the flow's current webhook secret can start its runs
-- anonymously, so for self-approval they count as those runs' starter. The flow keeps who set the secret;
-- a run started by the webhook keeps who had set it then (a later rotation by someone else does not
-- clear the poster); an approval keeps it like started_by, after the run is swept.
ALTER TABLE flows ADD COLUMN webhook_secret_by text;
ALTER TABLE runs ADD COLUMN hook_secret_by text;
ALTER TABLE approvals ADD COLUMN hook_secret_by text;

-- Four eyes an admin can require: policies are the installation's rules above a flow's own settings,
-- set by an admin (API or `flowyard policy`). `self_approval`: `per_node` (each approval node's
-- allow_self_approval decides) or `never` (no one decides an approval that is their own, whatever the
-- node says, the approvals of versions saved before the policy included). No row: `per_node`.
CREATE TABLE policies (
    name    text PRIMARY KEY CHECK (name IN ('self_approval')),
    value   text NOT NULL CHECK (name <> 'self_approval' OR value IN ('per_node', 'never')),
    set_by  text NOT NULL,
    set_at  timestamptz NOT NULL DEFAULT now()
);

-- Whether an approval's own people may decide it: the node allows it and the policy does not forbid it.
-- Every check reads this one function: the decision, the inbox, the tally of who could still approve.
CREATE FUNCTION self_approval_allowed(node_allows boolean) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT node_allows
       AND NOT EXISTS (SELECT 1 FROM policies WHERE name = 'self_approval' AND value = 'never')
$$;
