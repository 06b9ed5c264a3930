"""``perfproof guard``: a feature's own benchmarks judged against fixed ratios."""
