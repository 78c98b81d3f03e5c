"""`topicsetsize n ...` and `topicsetsize table ...` (filled in with the engine)."""

from __future__ import annotations


def register(sub) -> None:
    """Add this module's sub-commands to the parser."""
