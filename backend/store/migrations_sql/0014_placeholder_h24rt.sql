-- Placeholder on branch h24ev only: h24rt's migration 0014 takes this number. Delete this file when merging.
SELECT 1;
