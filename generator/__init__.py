"""generator (see the README)."""
