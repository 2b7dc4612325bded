#!/bin/sh
# Usage: scripts/backup.sh SRC DEST
set -eu
tmpdir=$(mktemp -d)
rsync -a "$1/" "$tmpdir/"
rsync -a --delete "$tmpdir/" "$2/"
rm -rf "$tmpdir"
