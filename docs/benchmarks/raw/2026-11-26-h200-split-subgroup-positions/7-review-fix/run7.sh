#!/usr/bin/env bash
# 7: which commit made keys alone into 2-5 buckets 2% slower than 0a55350: 9bfe394 (one write
# helper after all shuffles) or this session's change; `fix` stores right after each shuffle.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r7; rm -rf $R; mkdir -p $R
for r in 1 2; do
  for b in 0a55350 9bfe394 head fix; do
    timeout 100 .vx/bench-$b multisplit --sizes 24,26 --ms 2,3,5,7 --types keys --fns glsl --paths auto --reps 20 > $R/k-$b-$r.txt 2>&1
    timeout 100 .vx/bench-$b multisplit --sizes 24,26 --ms 2 --types pairs --fns glsl --paths auto --reps 20 > $R/p-$b-$r.txt 2>&1
  done
done
tar -czf $OUT/r7.tar.gz -C /tmp r7
for f in $R/*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| glsl" $f | awk -F'|' '{printf "%s%s%s %s; ", $4, $5, $6, $7}'; echo; done
