"""xladdin (see the README)."""
