#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r20
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 100 .vx/bench-main set --log2n 24 --cases clustered,sparse --reps 10 --pass-times > $OUT/r20/main.txt 2>&1
grep -v "^RESULT" $OUT/r20/main.txt | grep -B1 -A12 "and_card\|_and_reserved\|set_and \|or_card" | head -150
