"""Score matrices in and out: the matrix, its readers and writers, run files, evaluation."""
