"""Flask blueprints and Socket.IO handlers: thin translators around the engine and the game."""
