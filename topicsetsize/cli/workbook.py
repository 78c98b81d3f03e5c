"""`topicsetsize` sub-commands of this module (filled in by its issue)."""

from __future__ import annotations


def register(sub) -> None:
    """Add this module's sub-commands to the parser."""
