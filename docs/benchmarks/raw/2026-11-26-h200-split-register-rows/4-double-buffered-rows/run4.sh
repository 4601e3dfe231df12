#!/usr/bin/env bash
# exp (VKALGO_EXP_ROWS): multi-tile subgroup-staged scatter with double-buffered counter rows and
# per-subgroup positions (one workgroup barrier a tile instead of two), against c (06248f2)
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r4; mkdir -p $R
VKALGO_EXP_ROWS=1 VKALGO_TEST_NO_VALIDATION=1 timeout 300 .vx/split-tests > $R/tests-exp.txt 2>&1; echo "tests rc $?"
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms $3 --types $4 --fns glsl --paths auto --reps 20 --pass-times > $R/ab-$1$5-$2.txt 2>&1; }
for r in 1 2; do
  run c $r 8,12,16,32 keys -k
  run c $r 3,4,8 pairs -p
  VKALGO_EXP_ROWS=1 run exp $r 8,12,16,32 keys -k
  VKALGO_EXP_ROWS=1 run exp $r 3,4,8 pairs -p
done
tar -czf $OUT/r4.tar.gz -C /tmp r4
