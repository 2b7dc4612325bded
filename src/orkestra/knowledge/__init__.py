"""The knowledge base (PRODUCT.md §8): atomic notes checked against code, claims, INDEX.md."""
