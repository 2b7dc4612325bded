#!/bin/sh
# Remove Finder metadata files below a folder (default: the home folder).
set -eu
TARGET="${1:-$HOME}"
find ~ -name .DS_Store -delete 2>/dev/null || true
find "$TARGET" -name '._*' -type f -delete
echo "cleaned $TARGET"
