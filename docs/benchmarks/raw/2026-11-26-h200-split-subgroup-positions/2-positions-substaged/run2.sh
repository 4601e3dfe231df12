#!/usr/bin/env bash
# 2: subgroup positions on the subgroup-staged path (VX_SUBSTAGED_POSITIONS: double-buffered
# counter rows, no rows-to-positions step), keys 8-32 and pairs 3-12; direct keys 8-12.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r2; mkdir -p $R
export VKALGO_TEST_NO_VALIDATION=1
E="env VX_SUBSTAGED_POSITIONS=1 VX_MULTI_POSITIONS=1 VX_PAIRS_POSITIONS=1"
$E timeout 200 .vx/split-tests > $R/tests-env.txt 2>&1; echo "tests env rc $?"
B=.vx/bench-new
for r in 1 2; do
  timeout 150 $B multisplit --sizes 24,26 --ms 8,9,10,11,12,16,24,32 --types keys --fns glsl --paths direct,substaged --reps 20 > $R/k-plain-$r.txt 2>&1
  $E timeout 150 $B multisplit --sizes 24,26 --ms 8,9,10,11,12,16,24,32 --types keys --fns glsl --paths substaged --reps 20 > $R/k-pos-$r.txt 2>&1
  timeout 150 $B multisplit --sizes 24,26 --ms 2,3,4,5,8,12 --types pairs --fns glsl --paths substaged --reps 20 > $R/p-plain-$r.txt 2>&1
  $E timeout 150 $B multisplit --sizes 24,26 --ms 2,3,4,5,8,12 --types pairs --fns glsl --paths substaged --reps 20 > $R/p-pos-$r.txt 2>&1
done
timeout 150 $B multisplit --sizes 24,26 --ms 8,16 --types keys,pairs --fns bits --paths direct,substaged --reps 20 > $R/b-plain.txt 2>&1
$E timeout 150 $B multisplit --sizes 24,26 --ms 8,16 --types keys,pairs --fns bits --paths substaged --reps 20 > $R/b-pos.txt 2>&1
tar -czf $OUT/r2.tar.gz -C /tmp r2
tail -n 3 $R/tests-env.txt
for f in $R/[kpb]-*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| (glsl|bits)" $f | awk -F'|' '{printf "%s%s%s%s %s; ", $2, $4, $5, $6, $7}'; echo; done
