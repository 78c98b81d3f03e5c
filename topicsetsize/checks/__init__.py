"""Empirical checks of a design: split-half reliability, resampled power, Tukey HSD."""
