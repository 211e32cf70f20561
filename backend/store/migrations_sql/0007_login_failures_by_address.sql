-- Failed logins are counted by client address too: failures from one address no longer lock a name out
-- for every other address (docs/logins.md). Rows from before have no address; they count for the name.
ALTER TABLE login_failures ADD COLUMN address text;
CREATE INDEX login_failures_by_address ON login_failures (address, at);
