-- A person's decision in one statement (issue 36). A decision used to be some fifteen statements and two
-- commits from the application: the rights, the seat, the four eyes, then the locks, the vote, the tally,
-- the outcome, the journal line, the wake and the NOTIFY, each a round trip while the run's and the
-- approval's locks were held. `decide_approval` does the same work, in the same order and under the same
-- locks (runs < approvals < waits), inside the server: one round trip and one commit, and the locks are
-- held for the time the statements take, not for the network's.
--
-- The vote's journal line has the code the caller names (`line_code`): codes are written where the
-- catalogs' extractor reads them, in the application. It never raises a refusal: it returns the reason
-- code (and the person it concerns) and writes nothing, so the caller reports it in the person's
-- language. `closed`: the approval has an outcome already or its deadline has passed (the caller reads
-- which, off the decision's path). The chain's triggers on approvals and approval_votes append the vote
-- and the decision at commit, as for any write.

-- `user:<name>` and `group:<g>` for each of the user's groups: what an approval's approvers name.
CREATE FUNCTION principals_of(person text) RETURNS text[] LANGUAGE sql STABLE AS $$
    SELECT array_prepend('user:' || person, coalesce(array_agg('group:' || m.group_name), '{}'))
    FROM group_members AS m WHERE m.user_name = person
$$;

-- Whether a user holds the decide right on a flow, or everywhere.
CREATE FUNCTION may_decide(person text, flow bigint) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM grants AS g
                   WHERE g.user_name = person AND g."right" = 'decide'
                     AND (g.flow_id IS NULL OR g.flow_id = flow))
$$;

CREATE FUNCTION decide_approval(
    approval_id bigint, vote text, voter text, comment text, at timestamptz, line_code text
)
RETURNS TABLE (refusal text, refused text, outcome text, run_id bigint, decided_at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
    a approvals%ROWTYPE;
    at_now timestamptz := coalesce(at, now());
    seat text;  -- the approver the voter stands in for by a delegation; NULL: their own seat
    person text;
    vote_id bigint;
    approves integer;
    could_still integer;
    own_allowed boolean;  -- whether the approval's own people may decide it
    settled text;
    decided timestamptz;
    seq bigint;
BEGIN
    SELECT * INTO a FROM approvals WHERE id = approval_id;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'approval_not_found', NULL::text, NULL::text, NULL::bigint, NULL::timestamptz;
        RETURN;
    END IF;
    IF NOT may_decide(voter, a.flow_id) THEN
        RETURN QUERY SELECT 'decide_right_missing', voter, NULL::text, a.run_id, NULL::timestamptz;
        RETURN;
    END IF;
    -- Named (or nobody named), or standing in for someone named who may decide it themselves.
    IF cardinality(a.approvers) > 0 AND NOT a.approvers && principals_of(voter) THEN
        SELECT d.from_user INTO seat FROM delegations AS d
        WHERE d.to_user = voter AND d.revoked_at IS NULL AND d.starts_at <= at_now AND d.ends_at > at_now
          AND a.approvers && principals_of(d.from_user) AND may_decide(d.from_user, a.flow_id)
        ORDER BY d.from_user LIMIT 1;
        IF seat IS NULL THEN
            RETURN QUERY SELECT 'approver_not_named', voter, NULL::text, a.run_id, NULL::timestamptz;
            RETURN;
        END IF;
    END IF;
    -- Four eyes: neither the voter nor whoever they stand in for is the approval's own.
    own_allowed := self_approval_allowed(a.allow_self_approval);
    IF NOT own_allowed THEN
        FOREACH person IN ARRAY ARRAY[voter, seat] LOOP
            IF person IN (a.started_by, a.author, a.hook_secret_by) THEN
                RETURN QUERY SELECT 'self_approval_refused', person, NULL::text, a.run_id, NULL::timestamptz;
                RETURN;
            END IF;
        END LOOP;
    END IF;

    -- The run first, as a cancel takes it: one of the two lands first, and the other sees it. Then the
    -- approval: votes on it take turns, so none is counted twice.
    PERFORM 1 FROM runs WHERE id = a.run_id FOR UPDATE;
    SELECT * INTO a FROM approvals WHERE id = approval_id FOR UPDATE;
    IF NOT FOUND THEN  -- swept between the read and the lock: nothing is left to decide
        RETURN QUERY SELECT 'approval_not_found', NULL::text, NULL::text, NULL::bigint, NULL::timestamptz;
        RETURN;
    END IF;
    IF a.outcome IS NOT NULL OR coalesce(a.deadline_at <= at_now, false) THEN
        RETURN QUERY SELECT 'closed', NULL::text, NULL::text, a.run_id, NULL::timestamptz;
        RETURN;
    END IF;
    INSERT INTO approval_votes AS v (approval_id, flow_id, voter, on_behalf_of, vote, comment, cast_at)
    VALUES (a.id, a.flow_id, voter, seat, vote, comment, at_now)
    ON CONFLICT DO NOTHING
    RETURNING v.id INTO vote_id;
    IF vote_id IS NULL THEN  -- this person, or this seat, has voted already
        RETURN QUERY SELECT 'approval_vote_already_cast', voter, NULL::text, a.run_id, NULL::timestamptz;
        RETURN;
    END IF;

    -- The approving votes so far, and the seats that could still approve: the users who may decide it
    -- (the right; named, or in a named group, or anyone when nobody is named; not its own people unless
    -- self-approval is allowed) who have not voted. Read from the grants, set-based: one pass over those
    -- who hold the decide right, not a function call per user of the installation.
    SELECT count(*) FILTER (WHERE v.vote = 'approve') INTO approves
    FROM approval_votes AS v WHERE v.approval_id = a.id;
    SELECT count(DISTINCT g.user_name) INTO could_still FROM grants AS g
    WHERE g."right" = 'decide' AND (g.flow_id IS NULL OR g.flow_id = a.flow_id)
      AND (cardinality(a.approvers) = 0
           OR ('user:' || g.user_name) = ANY(a.approvers)
           OR EXISTS (SELECT 1 FROM group_members AS m
                      WHERE m.user_name = g.user_name AND ('group:' || m.group_name) = ANY(a.approvers)))
      AND (own_allowed
           OR (g.user_name IS DISTINCT FROM a.started_by AND g.user_name IS DISTINCT FROM a.author
               AND g.user_name IS DISTINCT FROM a.hook_secret_by))
      AND NOT EXISTS (SELECT 1 FROM approval_votes AS w WHERE w.approval_id = a.id AND w.seat = g.user_name);
    settled := CASE
        WHEN approves >= a.quorum THEN 'approved'
        WHEN vote = 'reject' AND a.reject_rule = 'any' THEN 'rejected'
        WHEN approves + could_still < a.quorum THEN 'rejected'  -- the quorum can no longer be reached
    END;

    IF settled IS NOT NULL THEN
        UPDATE approvals SET outcome = settled, decided_by = voter, on_behalf_of = seat,
                             comment = decide_approval.comment, decided_at = at_now
        WHERE id = a.id;
    END IF;
    UPDATE runs SET journal_seq = journal_seq + 1 WHERE id = a.run_id RETURNING journal_seq INTO seq;
    INSERT INTO journal (run_id, seq, code, node, visit, data)
    VALUES (a.run_id, seq, line_code, a.node, a.visit,
            jsonb_build_object('approval', a.id, 'voter', voter, 'on_behalf_of', seat,
                               'approves', approves, 'quorum', a.quorum));
    IF settled IS NULL THEN
        RETURN QUERY SELECT NULL::text, NULL::text, NULL::text, a.run_id, at_now;
        RETURN;
    END IF;
    -- The run's wait is due now, and so is the approval's pause when the wait holds several (a parallel
    -- open): the one way a decision resumes a run. Then the workers are told, at commit.
    UPDATE waits AS w
    SET wake_at = at_now, answered_at = at_now,
        pauses = CASE WHEN w.pauses IS NULL THEN NULL
                      ELSE jsonb_set(w.pauses, ARRAY[a.node || '@' || a.visit, 'due'], to_jsonb(at_now)) END
    WHERE w.run_id = a.run_id
      AND CASE WHEN w.pauses IS NULL THEN w.kind = 'approval' AND w.visit = a.visit
               ELSE w.pauses ? (a.node || '@' || a.visit) END;
    PERFORM pg_notify('flowyard_waits', a.run_id::text);
    RETURN QUERY SELECT NULL::text, NULL::text, settled, a.run_id, at_now;
END
$$;
