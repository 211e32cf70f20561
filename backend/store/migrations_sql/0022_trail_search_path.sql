-- The approvals' trail triggers resolve nothing through the session's search path: a role that may create
-- in some schema (public, on a database from before PostgreSQL 15) could otherwise put a function named
-- recorded_approval_retention, or an operator, before the schema's own and delete any decision. Each
-- trigger reads the recorded retention from its own table's schema by name, and runs with pg_catalog
-- alone on its path.
CREATE OR REPLACE FUNCTION approvals_decided_are_final() RETURNS trigger LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    retention interval;
BEGIN
    IF OLD.outcome IS NOT NULL THEN
        IF TG_OP = 'DELETE' THEN
            EXECUTE format('SELECT retention FROM %I.approval_retention', TG_TABLE_SCHEMA) INTO retention;
            IF retention > interval '0' AND OLD.decided_at < now() - retention THEN
                RETURN OLD;
            END IF;
        END IF;
        RAISE EXCEPTION 'approval % was decided (%) and cannot change', OLD.id, OLD.outcome
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION approval_votes_are_final() RETURNS trigger LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    retention interval;
BEGIN
    IF TG_OP = 'DELETE' THEN
        EXECUTE format('SELECT retention FROM %I.approval_retention', TG_TABLE_SCHEMA) INTO retention;
        IF retention > interval '0' AND OLD.cast_at < now() - retention THEN
            RETURN OLD;
        END IF;
    END IF;
    RAISE EXCEPTION 'vote % on approval % is final', OLD.id, OLD.approval_id
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;
