#!/usr/bin/env bash
# experiment (bench-x2 = 2c27f61 + env switches): VKALGO_X_MULTI=1 loads the multi-tile scatter's
# first tile before the status barrier and zeroes its counters under it; VKALGO_X_CMAX=4 counts
# m = 5..8 in shared memory instead of registers
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r6; mkdir -p $R
run() { timeout 200 .vx/bench-x2 multisplit --sizes 24,26 --ms $3 --types $4 --fns glsl --paths auto --reps 20 --pass-times > $R/ab-$1-$2.txt 2>&1; }
for r in 1 2; do
  run base $r 2,3,4,8,16,32 keys,pairs
  VKALGO_X_MULTI=1 run multi $r 2,3,4,8,16,32 keys,pairs
  VKALGO_X_CMAX=4 run cmax4 $r 5,8 keys,pairs
done
tar -czf $OUT/r6.tar.gz -C /tmp r6
for f in $R/ab-*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| (glsl|bits|ids)" $f | awk -F'|' '{printf "%s%s %s %s; ", $2, $5, $6, $7}'; echo; done
