"""Rule modules, one per group; importing a module registers its rules (see `registry.all_rules`)."""
