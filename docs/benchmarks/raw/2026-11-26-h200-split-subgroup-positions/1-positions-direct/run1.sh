#!/usr/bin/env bash
# 1: direct path with subgroup positions for keys into 8-32 buckets, against subgroup-staged;
# subgroup positions with several tiles a workgroup (double-buffered rows) for keys and pairs.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r1; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/split-tests > $R/tests-plain.txt 2>&1; echo "tests plain rc $?"
VX_KEYS_DIRECT_TILES=2 VX_MULTI_POSITIONS=1 VX_PAIRS_POSITIONS=1 VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/split-tests > $R/tests-env.txt 2>&1; echo "tests env rc $?"
B=.vx/bench-new
for r in 1 2; do
  timeout 150 $B multisplit --sizes 24,26 --ms 8,12,16,24,32 --types keys --fns glsl --paths direct,substaged --reps 20 > $R/k-plain-$r.txt 2>&1
  for t in 2 4; do
    VX_KEYS_DIRECT_TILES=$t VX_MULTI_POSITIONS=1 timeout 150 $B multisplit --sizes 24,26 --ms 2,3,5,7,8,12,16,24,32 --types keys --fns glsl --paths direct --reps 20 > $R/k-t$t-$r.txt 2>&1
  done
  timeout 150 $B multisplit --sizes 24,26 --ms 2,3,5,7 --types keys --fns glsl --paths direct --reps 20 > $R/k-small-$r.txt 2>&1
  timeout 150 $B multisplit --sizes 24,26 --ms 2,3,4 --types pairs --fns glsl --paths direct,substaged --reps 20 > $R/p-plain-$r.txt 2>&1
  VX_MULTI_POSITIONS=1 VX_PAIRS_POSITIONS=1 timeout 150 $B multisplit --sizes 24,26 --ms 2,3,4 --types pairs --fns glsl --paths direct --reps 20 > $R/p-pos-$r.txt 2>&1
done
tar -czf $OUT/r1.tar.gz -C /tmp r1
tail -3 $R/tests-plain.txt $R/tests-env.txt
for f in $R/[kp]-*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| glsl" $f | awk -F'|' '{printf "%s%s%s %s; ", $4, $5, $6, $7}'; echo; done
