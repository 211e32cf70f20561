-- The auditor's year (issue 38), measured on 5,000,000 decisions (bench/audit_year.py --year).

-- The chain's content functions (0012, 0021, 0023) are declared STABLE, as what they call is: `to_char`
-- is STABLE (some of its patterns read the locale; the one audit_utc uses reads none, so the text is the
-- same as before, byte for byte). Declared IMMUTABLE over a STABLE body, PostgreSQL would not put their
-- body into the statement that calls them, and ran each call through the SQL-function executor: making
-- a decision's content took 47 microseconds of the server's CPU, a vote's 21; inlined, 14 and 4. A full
-- `audit verify` makes every record's content again. No index or constraint holds these functions (that
-- would need IMMUTABLE): the triggers and the verify statements call them.
ALTER FUNCTION audit_utc(timestamptz) STABLE;
ALTER FUNCTION audit_decision_content(approvals) STABLE;
ALTER FUNCTION audit_vote_content(approval_votes) STABLE;
ALTER FUNCTION audit_rights_content(rights_trail) STABLE;

-- A searched text's two-character pieces that are not in half the decisions or more, as the text index's
-- statistics (ANALYZE) count them; every piece when all are that common (or nothing was counted yet).
-- "Pay invoice 123" asked for all its pieces read the whole of the lists of "in", "nv", "vo", ... (every
-- decision's title holds them): 17,948 pages of the index for one search at 5,000,000 decisions. The
-- common pieces rule out almost nothing and the text itself is checked after the index (strpos): asked
-- for " 1", "12", "23", "3 " alone, the index read 952 pages and named the same 6,193 decisions.
CREATE FUNCTION audit_search_grams(body text) RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
    WITH seen AS (
        SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS shares
        FROM pg_stats AS s
        WHERE s.schemaname = current_schema() AND s.tablename = 'approvals_text_grams'
    ), grams AS (
        SELECT g.gram, coalesce((SELECT seen.shares[array_position(seen.elems, g.gram)] FROM seen), 0) AS share
        FROM unnest(audit_grams(body)) AS g (gram)
    )
    SELECT coalesce(array_agg(gram ORDER BY gram) FILTER (WHERE share < 0.5), audit_grams(body))
    FROM grams
$$;
