"""Unified weighted search across every registry (PRODUCT.md §7)."""
