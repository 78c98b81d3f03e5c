"""The designs: power, sample size, detectable effect and tables for each statistical design."""
