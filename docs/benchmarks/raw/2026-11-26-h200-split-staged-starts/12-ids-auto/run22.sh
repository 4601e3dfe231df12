#!/usr/bin/env bash
# 22: the final build (caa9f6f): pairs by IDS into 2-5 buckets with Auto (direct to 3, staged
# from 4).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r22; rm -rf $R; mkdir -p $R
timeout 100 .vx/bench-new multisplit --sizes 24,26 --ms 2,3,4,5 --types pairs --fns ids --paths auto --reps 20 > $R/ids-auto.txt 2>&1
tar -czf $OUT/r22.tar.gz -C /tmp r22
grep -E "^\| pairs" $R/ids-auto.txt | awk -F'|' '{printf "%s%s%s%s %s %s; ", $3, $4, $5, $6, $7, $11}'; echo
