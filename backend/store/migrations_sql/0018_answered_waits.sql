-- A wait someone answered (an approval decided, an event delivered) is claimed before the backlog of waits
-- due by time: a decision makes its wait due now, and ordered by wake_at alone it would queue behind every
-- wait due before it, however long that backlog (issue 18: under a thousand other resumes a second no
-- decision resumed within minutes). `answered_at` is when the answer made the wait due; the claim takes
-- those first (oldest answer first) and clears it; NULL for every wait due by time. Written by whatever
-- answers (the queue's wake_for_decision and wake_pauses, wait_event's deliver and take_early).
ALTER TABLE waits ADD COLUMN answered_at timestamptz;

-- The claim's first question: few rows, usually none, so the index stays small and cheap to ask.
CREATE INDEX waits_answered ON waits (answered_at) WHERE status = 'waiting' AND answered_at IS NOT NULL;
