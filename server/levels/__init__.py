"""The path of levels: data, difficulty and the players' progress (docs/levels.md)."""
