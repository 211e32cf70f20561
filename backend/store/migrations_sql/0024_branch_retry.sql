-- Issue 35, item 2: an action that fails with no `error` port in a branch of a parallel no longer fails
-- the whole claim. It becomes a pause of its own, `retry`, kept in `waits.pauses` beside the other
-- branches' pauses with its attempt count, its due time (the queue's backoff) and the action request to
-- send again; the wait's kind is its earliest pause's, so a wait may now be of kind `retry`.
ALTER TABLE waits DROP CONSTRAINT waits_kind_check;
ALTER TABLE waits ADD CONSTRAINT waits_kind_check
    CHECK (kind IN ('start', 'approval', 'delay', 'undo', 'event', 'retry'));
