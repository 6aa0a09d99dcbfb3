"""media rules."""
