#!/usr/bin/env bash
# the first tile's order as a specialization bit (bench-x, VKALGO_X_ORDER 0/1/2 for every
# variant) against head; pipeline statistics per order
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r3; mkdir -p $R
for o in 0 1 2; do VKALGO_X_ORDER=$o VKALGO_PIPELINE_STATS=1 timeout 60 .vx/bench-x multisplit --sizes 24 --ms 2,3,8,16,32 --types keys,pairs --fns glsl --reps 2 2>&1 | grep -i "pipeline statistics" | grep tile_scatter | sort -u > $R/stats-o$o.txt; done
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms $3 --types $4 --fns $5 --paths auto --reps 20 --pass-times > $R/ab-$1$6-$2.txt 2>&1; }
for r in 1 2; do
  run head $r 2,8,16,32 pairs glsl ""
  for o in 0 1 2; do
    export VKALGO_X_ORDER=$o
    run x $r 2,3,5 keys glsl -o$o-k
    run x $r 5,8,12,16,24,32 pairs glsl -o$o-p
    run x $r 8,16,32 pairs bits,ids -o$o-pb
  done
  unset VKALGO_X_ORDER
done
tar -czf $OUT/r3.tar.gz -C /tmp r3
for o in 0 1 2; do echo "== o$o"; cut -c1-120 $R/stats-o$o.txt; done
for f in $R/ab-*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| (glsl|bits|ids)" $f | awk -F'|' '{printf "%s%s%s %s %s; ", $2, $3, $5, $6, $7}'; echo; done
