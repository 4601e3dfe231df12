#!/usr/bin/env bash
# 6: the review helper (9bfe394) and this session's change against 0a55350 for keys alone into
# 2-7 buckets (the direct path with per-subgroup starts), the head build being the final one.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r6; rm -rf $R; mkdir -p $R
for r in 1 2; do
  for b in 0a55350 head; do
    timeout 100 .vx/bench-$b multisplit --sizes 24,26 --ms 2,3,5,7 --types keys --fns glsl --paths auto --reps 20 > $R/k-$b-$r.txt 2>&1
  done
done
tar -czf $OUT/r6.tar.gz -C /tmp r6
for f in $R/k-*; do echo "== $(basename $f)"; grep -E "^\| keys +\| glsl" $f | awk -F'|' '{printf "%s%s%s %s; ", $4, $5, $6, $7}'; echo; done
