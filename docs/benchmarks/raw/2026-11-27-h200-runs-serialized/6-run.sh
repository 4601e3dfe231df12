#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r6
timeout 400 .vx/bench set --cases full --reps 10 > $OUT/r6/full.txt 2>&1; echo "rc $?"
grep -E "copy|^(and|or|andnot|xor)" $OUT/r6/full.txt
