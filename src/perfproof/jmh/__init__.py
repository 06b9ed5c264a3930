"""Reading JMH results (``-rf json``, JMH 1.12–1.37) into perfproof's shared model.

``names`` normalises secondary metric names, ``units`` converts scores to one canonical unit
per dimension, ``reader`` turns files, globs and folders of rounds into ``Samples``.
"""
