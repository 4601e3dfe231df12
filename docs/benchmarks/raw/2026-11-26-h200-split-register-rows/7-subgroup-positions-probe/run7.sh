#!/usr/bin/env bash
# experiment build x (f5bec68 + VKALGO_EXP_SG: one-tile direct register variants compute each
# subgroup's bucket starts themselves, no second workgroup barrier), switch off / on
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r7; mkdir -p $R
run() { timeout 200 .vx/bench-x multisplit --sizes 24,26 --ms 2,3,5 --types keys --fns glsl,ids --paths auto --reps 20 > $R/$1.txt 2>&1; }
for r in 1 2; do
  run off-$r
  VKALGO_EXP_SG=1 run sg-$r
done
tar -czf $OUT/r7.tar.gz -C /tmp r7
for f in $R/*.txt; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| (glsl|ids)" $f | awk -F'|' '{printf "%s%s%s %s %s; ", $2, $3, $5, $6, $7}'; echo; done
