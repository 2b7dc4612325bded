"""Usage: python scripts/run.py FILE.csv"""
import csv
import json
import sys
from pathlib import Path

source = Path(sys.argv[1])
rows = list(csv.DictReader(source.open(encoding="utf-8")))
with open(source.with_suffix(".json"), "w", encoding="utf-8") as out:
    json.dump(rows, out, indent=2)
