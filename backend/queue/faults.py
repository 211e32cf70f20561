"""The fault points live in `backend.faults` (outside queue/, so that actions/ needs nothing of the queue
for them); this name stays for the queue's modules that import it from here."""

from backend.faults import POINTS, Faults

__all__ = ["POINTS", "Faults"]
