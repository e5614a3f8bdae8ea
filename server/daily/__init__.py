"""The daily puzzle: one solvable shape per UTC date, the same for everyone (docs/daily.md)."""
