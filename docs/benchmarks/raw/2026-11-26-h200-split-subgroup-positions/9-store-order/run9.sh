#!/usr/bin/env bash
# 9: the direct path's store order per bucket count: `helper` (24af701: every shuffle, then every
# store) against `new` (each store right after its shuffle), keys into 2-10 buckets.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r9; rm -rf $R; mkdir -p $R
for r in 1 2; do
  for b in helper new; do
    timeout 100 .vx/bench-$b multisplit --sizes 24,26 --ms 2,5,6,7,8,9,10 --types keys --fns glsl --paths auto --reps 20 > $R/k-$b-$r.txt 2>&1
  done
done
tar -czf $OUT/r9.tar.gz -C /tmp r9
for f in $R/k-*; do echo "== $(basename $f)"; grep -E "^\| keys +\| glsl" $f | awk -F'|' '{printf "%s%s %s; ", $5, $6, $7}'; echo; done
