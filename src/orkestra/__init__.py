"""Orkestra: one git-tracked source of truth for AI coding agents."""

__version__ = "0.1.0"
