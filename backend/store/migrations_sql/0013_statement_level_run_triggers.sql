-- Placeholder on branch h24rt only: h18's migration 0013 (this same file name) takes this number.
-- Take h18's file when merging (the two branches add the same path, so git asks).
SELECT 1;
