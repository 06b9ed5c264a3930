"""Java source intelligence: a tree-sitter index of a repository, callers and scan rules."""
