"""project rules."""
