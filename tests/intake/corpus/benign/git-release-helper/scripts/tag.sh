#!/bin/sh
# Usage: scripts/tag.sh VERSION
set -eu
version="$1"
mkdir -p build
git log --oneline -20 > build/recent.txt
git tag -a "v$version" -m "release $version"
echo "tagged v$version"
