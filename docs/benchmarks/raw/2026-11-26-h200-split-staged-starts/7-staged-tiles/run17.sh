#!/usr/bin/env bash
# 17: the staged path with per-subgroup starts and 1, 2 or 4 tiles a workgroup
# (VX_STAGED_TILES), pairs into 8-32 buckets; 1 again at the end.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r17; rm -rf $R; mkdir -p $R
for t in 1 2 4 1b; do
  VX_STAGED_TILES=${t%b} timeout 100 .vx/bench-exp multisplit --sizes 24,26 --ms 8,16,24,32 --types pairs --fns glsl,bits --paths staged --reps 20 > $R/p-tiles-$t.txt 2>&1
done
tar -czf $OUT/r17.tar.gz -C /tmp r17
for f in $R/*; do echo "== $(basename $f)"; grep -E "^\| pairs" $f | awk -F'|' '{printf "%s%s%s %s %s; ", $3, $5, $6, $7, $11}'; echo; done
