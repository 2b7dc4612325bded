"""rapidfuzz's `fuzz.ratio` and `fuzz.token_set_ratio` in plain Python, for small inputs.

A one-off `search` on a small project compares a few words with a few hundred names; importing
rapidfuzz costs more (~8 ms) than the comparisons. The callers (`search.scoring.fuzzy_terms`,
`retrieval.names.rank`) use these below a size limit and rapidfuzz above it; the tests show both
give the same scores, bit for bit.
"""

from __future__ import annotations

import sys


def preferred(count: int, limit: int) -> bool:
    """Whether `count` comparisons are better done here: at most `limit`, and rapidfuzz not loaded
    already (a warm process such as the MCP server has it, and it is faster per comparison)."""
    return count <= limit and "rapidfuzz" not in sys.modules


def lcs(a: str, b: str) -> int:
    """The length of the longest common subsequence: the bit-parallel count (Allison-Dix), one
    add, one subtract and three masks per character of `b`."""
    masks: dict[str, int] = {}
    for bit, char in enumerate(a):
        masks[char] = masks.get(char, 0) | (1 << bit)
    full = (1 << len(a)) - 1
    row = full
    for char in b:
        match = masks.get(char)
        if match:
            kept = row & match
            row = ((row + kept) | (row - kept)) & full
    return len(a) - row.bit_count()


def ratio(a: str, b: str) -> float:
    """`fuzz.ratio`: 100 · (1 - indel distance / (len(a) + len(b))), where the indel distance is
    len(a) + len(b) - 2 · LCS."""
    total = len(a) + len(b)
    if not total:
        return 100.0
    return 100.0 * (1.0 - (total - 2 * lcs(a, b)) / total)


def default_process(text: str) -> str:
    """`utils.default_process` for ASCII text: lower case, every character that is not a letter
    or digit (the underscore too) a space, then stripped."""
    return "".join(c if c.isalnum() else " " for c in text.lower()).strip(" ")


def _score(dist: int, total: int, cutoff: float) -> float:
    value = (100 - 100 * dist / total) if total else 100
    return value if value >= cutoff else 0


def token_set_ratio(a: str, b: str, cutoff: float = 0.0) -> float:
    """`fuzz.token_set_ratio` of two processed strings (0 below `cutoff`)."""
    tokens_a, tokens_b = set(a.split()), set(b.split())
    if not tokens_a or not tokens_b:
        return 0
    common = tokens_a & tokens_b
    only_a, only_b = tokens_a - tokens_b, tokens_b - tokens_a
    if common and (not only_a or not only_b):
        return 100
    joined_a, joined_b = " ".join(sorted(only_a)), " ".join(sorted(only_b))
    common_len = len(" ".join(common))
    sep = 1 if common_len else 0
    with_a, with_b = common_len + sep + len(joined_a), common_len + sep + len(joined_b)
    total = len(joined_a) + len(joined_b)
    dist = total - 2 * lcs(joined_a, joined_b)
    result = _score(dist, with_a + with_b, cutoff)
    if not common_len:
        return result
    ratio_a = _score(sep + len(joined_a), common_len + with_a, cutoff)
    ratio_b = _score(sep + len(joined_b), common_len + with_b, cutoff)
    return max(result, ratio_a, ratio_b)
