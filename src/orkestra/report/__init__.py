"""Reports that compose several capabilities: `system status` (registry, ledger, render).

This layer sits above the domain packages (render, mining, knowledge, ...) and below the CLI, so
a report may ask each of them without any of them depending on another (see the import-linter
contracts in pyproject.toml).
"""
