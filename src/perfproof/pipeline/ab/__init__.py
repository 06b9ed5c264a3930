"""``perfproof ab``: options, the interleaved rounds and their looks, reach of the change."""
