"""The retrieval core: retrievers, weighted reciprocal rank fusion, boosts (standard library only).

One implementation of fusion, used by the code map (`orkestra code search`) and by registry search.
"""
