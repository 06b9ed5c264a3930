"""The embedded sample project behind ``perfproof demo``, and the demo run itself."""
