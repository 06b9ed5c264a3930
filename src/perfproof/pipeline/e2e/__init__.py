"""``perfproof e2e``: whole commands run on both sides, interleaved."""
