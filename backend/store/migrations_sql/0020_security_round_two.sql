-- Issue 32, security round two.

-- Four eyes around a webhook: whoever set the flow's current webhook secret can start its runs
-- anonymously, so for self-approval they count as those runs' starter. The flow keeps who set the secret;
-- a run started by the webhook keeps who had set it then (a later rotation by someone else does not
-- clear the poster); an approval keeps it like started_by, after the run is swept.
ALTER TABLE flows ADD COLUMN webhook_secret_by text;
ALTER TABLE runs ADD COLUMN hook_secret_by text;
ALTER TABLE approvals ADD COLUMN hook_secret_by text;
