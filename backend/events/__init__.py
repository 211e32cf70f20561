"""wait_event: events sent from outside (`POST /api/events/{name}`), kept or delivered to the runs
waiting for them, and the worker's side of a run paused at a `wait_event` node. See docs/events.md."""
