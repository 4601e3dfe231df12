#!/usr/bin/env bash
# one-tile scatter order: head (status barrier, loads, 2 barriers), v2 (zero under the status
# barrier, then loads), v3 (loads, then zero under the status barrier); keys substaged items
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r2; mkdir -p $R
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms $3 --types $4 --fns glsl --paths auto --reps 20 --pass-times $5 > $R/ab-$1$6-$2.txt 2>&1; }
for r in 1 2; do
  for b in head v2 v3; do run $b $r 2,3,8,16,32 keys,pairs "" ""; done
  for i in 10 12 14; do run v3 $r 8,16,32 keys "--tile-items $i" -i$i; done
  run t8 $r 8,16,32 keys "--tile-items 12" -i12
  run v3 $r 16,32 pairs "--tile-items 12" -i12
  run v3 $r 16,32 pairs "--tile-items 6" -i6
done
tar -czf $OUT/r2.tar.gz -C /tmp r2
for f in $R/ab-*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| glsl" $f | awk -F'|' '{printf "%s%s %s %s; ", $2, $5, $6, $7}'; echo; done
