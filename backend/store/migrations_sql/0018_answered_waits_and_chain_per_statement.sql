-- A wait someone answered (an approval decided, an event delivered) is claimed before the backlog of waits
-- due by time: a decision makes its wait due now, and ordered by wake_at alone it would queue behind every
-- wait due before it, however long that backlog (issue 18: under a thousand other resumes a second no
-- decision resumed within minutes). `answered_at` is when the answer made the wait due; the claim takes
-- those first (oldest answer first) and clears it; NULL for every wait due by time. Written by whatever
-- answers (the queue's wake_for_decision and wake_pauses, wait_event's deliver and take_early).
ALTER TABLE waits ADD COLUMN answered_at timestamptz;

-- The claim's first question: few rows, usually none, so the index stays small and cheap to ask.
CREATE INDEX waits_answered ON waits (answered_at) WHERE status = 'waiting' AND answered_at IS NOT NULL;

-- The audit chain's appends for approvals decided by an UPDATE (a person's decision, a time-out, a close,
-- a cancel), once per statement instead of once per row. A claim round times out its approvals in one
-- statement (the queue's time_out_claimed_approvals), and the row trigger made that four statements per
-- approval under the chain head's lock, with the record's content built by a SQL function planned again on
-- every call: in a profile of the invoice drain, most of that statement's time and the biggest single cost
-- of the drain. Now the decided rows are read from the statement's transition tables, each chain's head is
-- locked once (chains in name order, so two statements lock them in the same order), the hashes are linked
-- in memory, and the records go in with one INSERT. The same records, contents and hashes as before: rows
-- of one chain in id order, each hash = sha256(prev_hash || '\n' || content). An approval inserted decided
-- keeps the row trigger, under its name (what disables it by name for a bulk insert still does).
CREATE FUNCTION audit_chain_decided() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    d record;
    head audit_chain_heads;
    chains text[] := '{}';
    seqs bigint[] := '{}';
    refs bigint[] := '{}';
    contents text[] := '{}';
    prevs text[] := '{}';
    hashes text[] := '{}';
BEGIN
    FOR d IN
        SELECT 'flow:' || n.flow_id AS chain, n.id, audit_decision_content(n) AS content
        FROM new_approvals AS n JOIN old_approvals AS o ON o.id = n.id
        WHERE n.outcome IS NOT NULL AND o.outcome IS NULL
        ORDER BY 1, n.id
    LOOP
        IF head.chain IS DISTINCT FROM d.chain THEN
            IF head.chain IS NOT NULL THEN
                UPDATE audit_chain_heads SET seq = head.seq, hash = head.hash WHERE chain = head.chain;
            END IF;
            INSERT INTO audit_chain_heads (chain, seq, hash) VALUES (d.chain, 0, repeat('0', 64))
            ON CONFLICT (chain) DO NOTHING;
            SELECT * INTO head FROM audit_chain_heads WHERE chain = d.chain FOR UPDATE;
        END IF;
        chains := chains || d.chain;
        seqs := seqs || (head.seq + 1);
        refs := refs || d.id;
        contents := contents || d.content;
        prevs := prevs || head.hash;
        head.seq := head.seq + 1;
        head.hash := encode(sha256(convert_to(head.hash || E'\n' || d.content, 'UTF8')), 'hex');
        hashes := hashes || head.hash;
    END LOOP;
    IF head.chain IS NOT NULL THEN
        UPDATE audit_chain_heads SET seq = head.seq, hash = head.hash WHERE chain = head.chain;
        INSERT INTO audit_chain (chain, seq, kind, ref_id, content, prev_hash, hash)
        SELECT c, s, 'decision', r, t, p, h FROM unnest(chains, seqs, refs, contents, prevs, hashes) AS x (c, s, r, t, p, h);
    END IF;
    RETURN NULL;
END
$$;

DROP TRIGGER approvals_chained ON approvals;
CREATE TRIGGER approvals_chained AFTER INSERT ON approvals
    FOR EACH ROW WHEN (NEW.outcome IS NOT NULL) EXECUTE FUNCTION audit_chain_decision();
-- A trigger with transition tables can name neither columns nor a WHEN: it fires for every UPDATE of
-- approvals and picks the rows whose outcome it set.
CREATE TRIGGER approvals_chained_decided AFTER UPDATE ON approvals
    REFERENCING OLD TABLE AS old_approvals NEW TABLE AS new_approvals
    FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_decided();
