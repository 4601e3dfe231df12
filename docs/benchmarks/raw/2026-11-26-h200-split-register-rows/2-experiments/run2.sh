#!/usr/bin/env bash
# exp: (a) AND/ANDNOT keep ka; VKALGO_EXP_LIVE (set-op walk with one live check, timing only);
# VKALGO_EXP_NO_SCAN (multisplit tile paths without the matrix scan, timing only)
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r2; mkdir -p $R
for r in 1 2; do
  for b in head exp; do
    timeout 120 .vx/bench-$b merge --sizes 23 --set-sizes 24 --types keys --reps 20 --pass-times > $R/m-$b-$r.txt 2>&1
  done
  for op in and andnot or xor; do
    VKALGO_EXP_LIVE=1 timeout 60 .vx/bench-exp merge --sizes "" --set-sizes 24 --types keys --ops $op --reps 20 --pass-times > $R/m-live-$op-$r.txt 2>&1
  done
  for v in base noscan; do
    if [ $v = noscan ]; then export VKALGO_EXP_NO_SCAN=1; else unset VKALGO_EXP_NO_SCAN; fi
    timeout 150 .vx/bench-exp multisplit --sizes 24,26 --ms 2,3,8,32 --types keys --fns glsl --paths auto --reps 20 --pass-times > $R/s-$v-k-$r.txt 2>&1
    timeout 150 .vx/bench-exp multisplit --sizes 24,26 --ms 2,8,32 --types pairs --fns glsl --paths auto --reps 20 --pass-times > $R/s-$v-p-$r.txt 2>&1
  done
  unset VKALGO_EXP_NO_SCAN
done
tar -czf $OUT/r2.tar.gz -C /tmp r2
