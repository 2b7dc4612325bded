"""Usage: python scripts/get.py NAME  (writes data/NAME.csv)"""
import sys
from pathlib import Path

import requests

name = sys.argv[1]
response = requests.get(f"https://datasets.example.org/{name}.csv", timeout=30)
response.raise_for_status()
Path("data").mkdir(exist_ok=True)
Path("data", f"{name}.csv").write_bytes(response.content)
