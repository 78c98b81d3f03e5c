"""The saved values: the formula evaluator, its sheet functions and the cached answers written
into the file."""
