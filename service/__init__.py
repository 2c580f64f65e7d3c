"""dragonroll HTTP service: a thin FastAPI layer over the rules engine."""
