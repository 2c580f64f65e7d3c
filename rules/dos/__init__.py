"""Dragons of Shadows: d10 pools, tests and combat (rules/dos.md)."""
