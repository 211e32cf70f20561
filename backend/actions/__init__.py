"""Side effects (http, notify, command): sent through the effects log, once per visit across tries.

See docs/actions.md. The worker takes an `ActionSender(pool, settings.actions, faults=...)`.
"""

from backend.actions.sender import ActionSender
from backend.actions.settings import ActionSettings

__all__ = ["ActionSender", "ActionSettings"]
