#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r68; mkdir -p $R
timeout 100 .vx/bench-and set --log2n 24 --reps 10 --cases clustered --pass-times > $R/passes.txt 2>&1
grep -A14 "^and \|^and_reserved\|^or_reserved" $R/passes.txt | grep -v RESULT | head -60
