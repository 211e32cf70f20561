"""Mechanics: the waits table, the claim-then-run worker, backoff, LISTEN/NOTIFY and stale claims."""
