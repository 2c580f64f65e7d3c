"""dragonroll rules engine: pure Python, no web imports, no I/O, no clock, no global state."""
