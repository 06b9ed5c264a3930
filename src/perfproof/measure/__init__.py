"""Running an A/B comparison: the plan, the scheduler, the run store, environment capture."""
