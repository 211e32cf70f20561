-- The auditor's year (issue 38), measured on 5,000,000 decisions (bench/audit_year.py --year).

-- The chain's content functions (0012, 0021, 0023) are declared STABLE, as what they call is: `to_char`
-- is STABLE (some of its patterns read the locale; the one audit_utc uses reads none, so the text is the
-- same as before, byte for byte). Declared IMMUTABLE over a STABLE body, PostgreSQL would not put their
-- body into the statement that calls them, and ran each call through the SQL-function executor: making
-- a decision's content took 47 microseconds of the server's CPU, a vote's 21; inlined, 14 and 4. A full
-- `audit verify` makes every record's content again. No index or constraint holds these functions (that
-- would need IMMUTABLE): the triggers and the verify statements call them. One thing inlining cannot do
-- in PostgreSQL 15 and 16: take a whole row of an outer query inside a branch of a UNION (a LATERAL
-- subquery's `UNION ALL SELECT audit_decision_content(a)` with `a` outside it fails with "variable not
-- found in subplan target list"); make the content outside the UNION (bench/audit_year.py, CHAIN_ROWS).
ALTER FUNCTION audit_utc(timestamptz) STABLE;
ALTER FUNCTION audit_decision_content(approvals) STABLE;
ALTER FUNCTION audit_vote_content(approval_votes) STABLE;
ALTER FUNCTION audit_rights_content(rights_trail) STABLE;

-- The text index holds each decided approval's text as its two- and three-character pieces (0026 held
-- two): a text of three characters or more is looked up by its three-character pieces, which are rarer.
-- "invoice 77 " asked for its two-character pieces named 13,823 decisions to read on 5,000,000, and the
-- search took 284 ms; by its three-character ones, 124 decisions and 14 ms. The index is 657 MB for
-- them instead of 388 (131 bytes a decision instead of 78). Building it reads every decided approval
-- once: on 5,000,000 of them, 17 minutes on a loaded two-core machine, in which decisions wait.
CREATE FUNCTION audit_pieces(body text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT substr(body, i, n)), '{}')
    FROM generate_series(2, 3) AS n, generate_series(1, length(body) - n + 1) AS i
$$;

CREATE INDEX approvals_text_pieces ON approvals
    USING gin (audit_pieces(audit_text(title, explanation, comment)))
    WHERE outcome IS NOT NULL;

-- The two-character index goes; its function stays, since the previous release's audit statement calls it
-- while old processes still serve during an upgrade (docs/deploy.md): there it finds the same decisions,
-- without an index to go by, until those processes stop.
DROP INDEX approvals_text_grams;

-- The pieces of the text index in half the decisions or more, as its statistics (ANALYZE) count them.
-- The statistics of an index are shown only to its owner (pg_stats), and the app may run as a role that
-- owns nothing (docs/security.md): the function runs as its owner, on this schema, and reads nothing but
-- pg_catalog's view, named in full.
CREATE FUNCTION audit_common_pieces() RETURNS TABLE (piece text) LANGUAGE sql STABLE PARALLEL SAFE
SECURITY DEFINER SET search_path FROM CURRENT AS $$
    SELECT e.piece
    FROM pg_catalog.pg_stats AS s,
         unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e (piece, share)
    WHERE s.schemaname = pg_catalog.current_schema() AND s.tablename = 'approvals_text_pieces'
      AND e.piece IS NOT NULL AND e.share >= 0.5
$$;

-- The pieces a searched text is looked up by: its three-character pieces (its one two-character piece
-- when it has two characters; none for one: every decision is a candidate), less the common ones, since
-- those rule out almost nothing and reading their lists costs more than the rest of the search; every
-- piece when all are common or nothing was counted yet. The text itself is checked after the index
-- (strpos). The audit statement asks for them as the text index's key, once per statement. Not as a
-- scalar subquery: with the pieces unknown when it plans, PostgreSQL read the decisions in order for a
-- text no decision holds, 12 to 20 s on 5,000,000 instead of 17 ms.
CREATE FUNCTION audit_search_pieces(body text) RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
    WITH pieces AS (
        SELECT DISTINCT substr(body, i, least(length(body), 3)) AS piece
        FROM generate_series(1, length(body) - least(length(body), 3) + 1) AS i
        WHERE length(body) >= 2
    )
    SELECT coalesce(
        array_agg(piece ORDER BY piece) FILTER (WHERE piece NOT IN (SELECT piece FROM audit_common_pieces())),
        (SELECT coalesce(array_agg(piece ORDER BY piece), '{}') FROM pieces))
    FROM pieces
$$;
