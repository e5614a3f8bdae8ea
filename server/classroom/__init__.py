"""Class rooms: a teacher drives a demo the whole class watches (models and service)."""
