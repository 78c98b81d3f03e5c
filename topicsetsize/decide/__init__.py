"""Deciding n: guarantees, recommendations across requirements, budget and pool depth."""
