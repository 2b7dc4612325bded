"""Skill intake and trust review (PRODUCT.md §9): read third-party Agent Skills, never run them."""
