"""captions rules."""
