-- Placeholder on branch h24ev only: h18's migration 0013 takes this number. Delete this file when merging.
SELECT 1;
