"""perfproof: turn a claimed JVM performance change into evidence a reviewer can trust."""

__version__ = "0.1.0"
