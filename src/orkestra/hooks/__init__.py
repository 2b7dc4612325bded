"""Claude Code hook handlers. Standard library only: imported without the rest of the package."""
