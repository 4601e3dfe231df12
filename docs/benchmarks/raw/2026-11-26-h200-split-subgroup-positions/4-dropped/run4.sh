#!/usr/bin/env bash
# 4: final build's tests; pairs by IDS into 2 against head (9bfe394); keys counted in registers
# into 5-8 buckets (VX_COUNT_REG_KEYS=8); the subgroup-staged keys path with per-subgroup starts
# at 2 / 8 tiles a workgroup (VX_KEYS_STAGED_TILES) and 8 / 16 items a lane (--tile-items).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r4; rm -rf $R; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 250 .vx/split-tests > $R/tests.txt 2>&1; echo "tests rc $?"
B=.vx/bench-new
K="multisplit --sizes 24,26 --types keys --fns glsl --paths auto --reps 20"
for r in 1 2; do
  timeout 60 .vx/bench-head multisplit --sizes 24,26 --ms 2 --types pairs --fns ids --reps 20 > $R/p-head-$r.txt 2>&1
  timeout 60 $B multisplit --sizes 24,26 --ms 2 --types pairs --fns ids --reps 20 > $R/p-new-$r.txt 2>&1
  timeout 100 $B $K --ms 5,8,10,12,16,32 > $R/k-new-$r.txt 2>&1
  VX_COUNT_REG_KEYS=8 timeout 100 $B $K --ms 5,8,10 > $R/k-countreg-$r.txt 2>&1
  VX_KEYS_STAGED_TILES=2 timeout 100 $B $K --ms 12,16,32 > $R/k-t2-$r.txt 2>&1
  VX_KEYS_STAGED_TILES=8 timeout 100 $B $K --ms 12,16,32 > $R/k-t8-$r.txt 2>&1
  timeout 100 $B $K --ms 12,16,32 --tile-items 8 > $R/k-i8-$r.txt 2>&1
  timeout 100 $B $K --ms 12,16,32 --tile-items 16 > $R/k-i16-$r.txt 2>&1
done
tar -czf $OUT/r4.tar.gz -C /tmp r4
grep "test result" $R/tests.txt
for f in $R/[kp]-*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| (glsl|bits|ids)" $f | awk -F'|' '{printf "%s%s%s%s %s; ", $2, $4, $5, $6, $7}'; echo; done
