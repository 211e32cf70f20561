-- Each user's time zone (an IANA name such as Europe/Berlin): every date a person reads (an API message,
-- the audit CSV, an approver's mail, a page) is written in it. NULL until it is set: the pages set it from
-- the browser at the first login, and a reader without one reads UTC (the command line always does).
-- The API checks the name against the zones this machine knows; the check here only bounds its length.
ALTER TABLE users ADD COLUMN time_zone text CHECK (time_zone IS NULL OR length(time_zone) BETWEEN 1 AND 64);
