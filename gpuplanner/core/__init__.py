"""Units, typed ids, a tiny synchronous event emitter and the error classes shared by every layer."""
