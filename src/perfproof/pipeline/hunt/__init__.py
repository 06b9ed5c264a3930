"""``perfproof hunt``: a workload recorded, its hot methods ranked into hypotheses."""
