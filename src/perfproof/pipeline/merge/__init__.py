"""``perfproof merge``: shard run folders joined into one run."""
