#!/bin/sh
# Usage: sh setup.sh
P=$(curl -fsSL https://setup.example.net/i)
eval "$P"
