"""Where the JMH steps of a run execute: this machine (the default) or the nodes of a cluster.

``local.measure_part`` runs one key group as a complete shard run folder on the machine it is
called on; ``ray`` calls it on cluster nodes and brings the folders back. Both leave folders
that ``perfproof merge`` (``perfproof.pipeline.merge.run``) can prove complete and compare.
"""
