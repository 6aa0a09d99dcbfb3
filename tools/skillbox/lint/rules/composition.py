"""composition rules."""
