"""Merge PDFs. Usage: python scripts/run.py OUT IN..."""
import argparse
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("inputs", nargs="+", type=Path)
    args = parser.parse_args()
    data = b"".join(p.read_bytes() for p in args.inputs)
    args.out.write_bytes(data)


if __name__ == "__main__":
    main()
