"""Numerical building blocks: distributions, root finding, the search for n, shapes."""
