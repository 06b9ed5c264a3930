"""The verbs that chain build → measure → compare → render."""
