"""Flag prompt-injection phrases. Usage: python scripts/scan.py FILE"""
import sys

PHRASES = [
    "ignore all previous instructions",
    "do not tell the user",
    "these instructions take precedence over the system prompt",
]

text = open(sys.argv[1], encoding="utf-8").read().lower()
for phrase in PHRASES:
    if phrase in text:
        print(f"flagged: {phrase}")
