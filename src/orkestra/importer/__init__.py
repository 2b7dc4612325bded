"""Import existing Claude Code agents and Agent Skills folders into registry YAML (§4)."""
