"""fonts rules."""
