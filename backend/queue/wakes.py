"""Why a worker looks for due waits: what woke it, and which NOTIFYs are its own to answer.

Every worker LISTENs on one channel, and a decision, an event or a started run NOTIFYs it with the run's
id. When every worker answered every NOTIFY, and the claim loop looked again whenever a walk ended, a
stream of decisions cost about 3.3 claim statements per decision with one worker, most of them finding
nothing, and with four workers each decision woke all four to compete for one wait (four were slower than
one). Two rules keep a claim round for when it can find something:

- A NOTIFY is answered at once by one worker: the run's owner among the live workers (the run's id modulo
  their number, in the order of their names; each worker learns the list from its heartbeat, and again at
  once when one comes or goes, on WORKERS_CHANNEL). The others
  let it be. Any claim round takes every answered wait, whoever owns it, first: an owner that is busy
  takes it when a slot frees, and one that died costs at most the others' next round (idle workers look
  every second; a dead worker leaves the list within three heartbeats).
- A full round looks only for a reason: its own NOTIFY, a wait it parked falling due, its sleep running
  out, BUSY_SLEEP_S since the last full round (timed waits are never later than that while it is busy),
  or the last round filling all it asked for (more may be due). A walk's end alone is not one.
"""

from __future__ import annotations

from dataclasses import dataclass

# Where a worker says it came (its first heartbeat) or went (its last word): the others learn the live
# workers again at once, so that between them every run has one owner.
WORKERS_CHANNEL = "flowyard_workers"


@dataclass(slots=True)
class Wakes:
    """One worker's reasons to claim, and the live workers it shares the NOTIFYs with."""

    me: str
    heard: bool = False  # an owned NOTIFY came since the last round that looked at answered waits
    look: bool = True  # a reason for a full round (the first round always looks)
    peers: tuple[str, ...] = ()  # the live workers by name, this one among them once it has beaten

    def notified(self, payload: str) -> bool:
        """Note a NOTIFY; whether it is this worker's to answer now."""
        if self.owns(payload):
            self.heard = True
            return True
        return False

    def owns(self, payload: str) -> bool:
        """Whether the run a NOTIFY names is this worker's to answer: every run while it knows of no other
        live worker (or not yet of itself), and any NOTIFY that names no run.

        >>> wakes = Wakes("b", peers=("a", "b", "c"))
        >>> [wakes.owns(str(run)) for run in range(6)]
        [False, True, False, False, True, False]
        >>> Wakes("b", peers=("a",)).owns("1"), wakes.owns("not a run")
        (True, True)
        """
        if len(self.peers) <= 1 or self.me not in self.peers:
            return True
        try:
            run_id = int(payload)
        except ValueError:
            return True
        return self.peers[run_id % len(self.peers)] == self.me

    def rounded(self, claimed: int, limit: int, *, answered_only: bool) -> None:
        """A claim round took `claimed` of the `limit` it asked for: one that filled it may have left more."""
        full = claimed >= limit
        if answered_only:
            self.heard = self.heard or full
        else:
            self.look = full
