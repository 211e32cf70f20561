-- The audit search's text filter (issue 38) by an index: a decided approval's title, explanation and
-- comment, lowered, as the set of their two-character pieces, in a GIN index. A searched text's pieces
-- must all be in that set (`@>`), then the text itself is looked for as before (strpos). Two characters
-- rather than words, because Japanese and Chinese write no spaces between words and every language's
-- text is searched the same way; no extension (pg_trgm's trigrams skip characters the database's ctype
-- does not call letters, which under the C locale is every Japanese one).
CREATE FUNCTION audit_grams(body text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT substr(body, i, 2)), '{}')
    FROM generate_series(1, length(body) - 1) AS i
$$;

CREATE FUNCTION audit_text(title text, explanation text, comment text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT lower(title || E'\n' || explanation || E'\n' || coalesce(comment, ''))
$$;

CREATE INDEX approvals_text_grams ON approvals
    USING gin (audit_grams(audit_text(title, explanation, comment)))
    WHERE outcome IS NOT NULL;

-- Verifying the chain makes every record's row again (chain.sql, chain_rows_differing): these functions
-- read nothing but their argument, so the server may share that work among parallel workers.
ALTER FUNCTION audit_utc(timestamptz) PARALLEL SAFE;
ALTER FUNCTION audit_decision_content(approvals) PARALLEL SAFE;
ALTER FUNCTION audit_vote_content(approval_votes) PARALLEL SAFE;
ALTER FUNCTION audit_rights_content(rights_trail) PARALLEL SAFE;
