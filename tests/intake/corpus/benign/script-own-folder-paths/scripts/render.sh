#!/usr/bin/env bash
# Render release notes: the skill's templates/ folder is one level above this script.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cat "$HERE/../templates/notes.md"
sed 's/^/- /' "$1"
