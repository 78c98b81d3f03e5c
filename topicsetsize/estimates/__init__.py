"""What a past matrix tells: variances, std-AB, summaries, rankings, G-theory, run differences."""
