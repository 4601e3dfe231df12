#!/usr/bin/env bash
# items a lane on the direct path (keys into 2, 3, 5; pairs into 2): 0697a94 with --tile-items
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r7; mkdir -p $R
for r in 1 2; do
  for i in 8 10 12 16; do timeout 200 .vx/bench-final multisplit --sizes 24,26 --ms 2,3,5 --types keys --fns glsl --paths auto --reps 20 --pass-times --tile-items $i > $R/keys-i$i-$r.txt 2>&1; done
  for i in 6 8 12; do timeout 200 .vx/bench-final multisplit --sizes 24,26 --ms 2 --types pairs --fns glsl --paths auto --reps 20 --pass-times --tile-items $i > $R/pairs-i$i-$r.txt 2>&1; done
done
tar -czf $OUT/r7.tar.gz -C /tmp r7
for f in $R/*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| (glsl|bits|ids)" $f | awk -F'|' '{printf "%s%s%s %s %s; ", $2, $4, $5, $6, $7}'; echo; done
