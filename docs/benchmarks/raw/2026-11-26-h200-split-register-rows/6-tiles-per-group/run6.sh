#!/usr/bin/env bash
# 06248f2 + environment overrides of the scatter's tiles a workgroup (experiment build x)
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r6; mkdir -p $R
run() { timeout 200 .vx/bench-x multisplit --sizes 24,26 --ms $2 --types $3 --fns glsl --paths auto --reps 20 > $R/$1.txt 2>&1; }
for r in 1 2; do
  run base-k-$r 8,16,32 keys
  run base-p-$r 3,5,8 pairs
  VKALGO_EXP_KEYS_TILES=8 run kt8-$r 8,16,32 keys
  VKALGO_EXP_KEYS_TILES=2 run kt2-$r 8,16,32 keys
  VKALGO_EXP_PAIRS_TWO_MAX=8 run ptwo8-$r 5,8 pairs
  VKALGO_EXP_PAIRS_TILES=4 run pt4-$r 3 pairs
done
tar -czf $OUT/r6.tar.gz -C /tmp r6
for f in $R/*.txt; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| glsl" $f | awk -F'|' '{printf "%s%s %s %s %s; ", $2, $4, $5, $6, $7}'; echo; done
