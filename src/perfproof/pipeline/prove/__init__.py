"""``perfproof prove``: the chain from the changed methods to a measured, explained verdict."""
