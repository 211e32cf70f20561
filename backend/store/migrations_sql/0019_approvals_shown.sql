-- What an approval showed its approvers (issue 31): the values its node's `show` names (default: the
-- run's input), rendered when it was requested, credential-like values masked. Kept with the approval so
-- the approver decides on, and the audit reads, exactly what was shown, whatever the run's variables
-- became or were swept to since; the approval's digest (backend/approvals/records.py) covers it, and a
-- decision that names another digest is refused. Written once, with the row; never changed.
ALTER TABLE approvals ADD COLUMN shown jsonb NOT NULL DEFAULT '[]';
