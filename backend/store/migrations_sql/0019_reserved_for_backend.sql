-- A placeholder on the sec-b branch only: number 19 is the "backend" helper's migration (issue 32). The
-- lead deletes this file when merging that branch and this one.
SELECT 1;
