#!/usr/bin/env bash
# 14: the staged path with per-subgroup starts (VX_STAGED_POS=1, same binary) against without,
# pairs and keys into 4-32 buckets, two rounds; the split tests with the switch.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r14; rm -rf $R; mkdir -p $R
B=.vx/bench-new
VX_STAGED_POS=1 VKALGO_TEST_NO_VALIDATION=1 timeout 250 .vx/split-tests > $R/tests.txt 2>&1; echo "tests rc $?"
for r in 1 2; do
  timeout 100 $B multisplit --sizes 24,26 --ms 4,8,16,24,32 --types pairs --fns glsl,bits --paths staged --reps 20 > $R/p-base-$r.txt 2>&1
  VX_STAGED_POS=1 timeout 100 $B multisplit --sizes 24,26 --ms 4,8,16,24,32 --types pairs --fns glsl,bits --paths staged --reps 20 > $R/p-pos-$r.txt 2>&1
done
VX_STAGED_POS=1 timeout 100 $B multisplit --sizes 24,26 --ms 16,32 --types keys --fns glsl --paths staged --reps 20 > $R/k-pos.txt 2>&1
tar -czf $OUT/r14.tar.gz -C /tmp r14
grep "test result" $R/tests.txt
for f in $R/*-*.txt; do echo "== $(basename $f)"; grep -E "^\| (pairs|keys) " $f | awk -F'|' '{printf "%s%s%s %s %s; ", $3, $5, $6, $7, $11}'; echo; done
