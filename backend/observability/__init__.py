"""Seeing inside a running Flowyard: Prometheus metrics and one structured log line per event.

The rest of the backend calls the small hooks in `events` where something happens (a claim, a walk, an
action, a decision, a request); this package decides what is counted and what is logged, so those modules
carry a line or two each and never a metric's name.
"""
