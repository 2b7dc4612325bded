"""Render targets: one module per agent client (`claude` first)."""
