-- Approvals' own retention (FLOWYARD_APPROVAL_RETENTION_DAYS, off unless set). The trail stays immutable:
-- a decided approval may be deleted only in a transaction that declares itself the retention sweep with
-- `set_config('flowyard.approval_retention', 'on', true)`, and never changed at all.

CREATE OR REPLACE FUNCTION approvals_decided_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.outcome IS NOT NULL THEN
        IF TG_OP = 'DELETE' AND current_setting('flowyard.approval_retention', true) = 'on' THEN
            RETURN OLD;
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
