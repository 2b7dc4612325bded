"""Rendering: registries -> the files each agent client loads (PRODUCT.md §4)."""
