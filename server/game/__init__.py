"""Rules, state, persistence and JSON of a game of play (no HTTP here)."""
