#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r7
timeout 200 .vx/bench-filter set --log2n 24 --cases clustered,sparse --reps 10 --pass-times > $OUT/r7/passes.txt 2>&1
grep -E "^(and|or|andnot|xor)|pass \|" $OUT/r7/passes.txt | head -120
