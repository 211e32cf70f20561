-- The chained trail covers what an approver decided on (issue 31) and who counted as the run's own for
-- four eyes around a webhook (issue 32): a decision's record also holds the values the approval showed
-- and who had set the webhook secret that started its run. Each is added only when there is one, so the
-- records of decisions from before (shown '[]', no webhook secret's setter) read as they were written and
-- still verify.
CREATE OR REPLACE FUNCTION audit_decision_content(a approvals) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT (jsonb_build_object(
        'approval', a.id, 'run', a.run_id, 'flow', a.flow_id, 'version', a.version, 'node', a.node,
        'visit', a.visit, 'title', a.title, 'explanation', a.explanation, 'approvers', a.approvers,
        'requested_at', audit_utc(a.requested_at), 'deadline_at', audit_utc(a.deadline_at),
        'on_timeout', a.on_timeout, 'quorum', a.quorum, 'reject', a.reject_rule,
        'allow_self_approval', a.allow_self_approval, 'started_by', a.started_by, 'author', a.author,
        'outcome', a.outcome, 'decided_by', a.decided_by, 'on_behalf_of', a.on_behalf_of,
        'decided_at', audit_utc(a.decided_at), 'comment', a.comment)
        || CASE WHEN a.shown <> '[]'::jsonb THEN jsonb_build_object('shown', a.shown) ELSE '{}'::jsonb END
        || CASE WHEN a.hook_secret_by IS NOT NULL THEN jsonb_build_object('hook_secret_by', a.hook_secret_by)
                ELSE '{}'::jsonb END)::text
$$;
