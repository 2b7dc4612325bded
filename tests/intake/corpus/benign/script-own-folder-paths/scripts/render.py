"""Render release notes: the skill's templates/ folder is one level above this script."""
import os
import sys
from pathlib import Path

SKILL = Path(__file__).resolve().parent.parent
TEMPLATE = SKILL / "templates" / "notes.md"
ALSO = Path(__file__).parents[1] / "templates"
LEGACY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "templates")
OUT = os.path.join(os.getcwd(), "NOTES.md")


def main() -> None:
    changes = Path(sys.argv[1]).read_text(encoding="utf-8").splitlines()
    body = TEMPLATE.read_text(encoding="utf-8")
    print(body + "\n" + "\n".join(f"- {c}" for c in changes))


if __name__ == "__main__":
    main()
