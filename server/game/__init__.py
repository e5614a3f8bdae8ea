"""Rules, state and persistence of a game of play (no HTTP here)."""
