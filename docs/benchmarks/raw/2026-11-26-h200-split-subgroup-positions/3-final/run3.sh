#!/usr/bin/env bash
# 3: final build (subgroup positions on the subgroup-staged keys path and over several tiles,
# keys into up to 10 buckets direct): multisplit tests and CUB table; A/B against head (9bfe394).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p $OUT/ms $OUT/ab
VKALGO_BENCH=.vx/bench-new TESTS=.vx/split-tests OUT=$OUT/ms timeout 400 bash bench/gpu_multisplit.sh --reps 20 > $OUT/ms/log.txt 2>&1; echo "multisplit rc $?"
for r in 1 2; do
  for b in head new; do
    timeout 100 .vx/bench-$b multisplit --sizes 24,26 --ms 8,9,10,12,16,32 --types keys --fns glsl,bits --paths auto --reps 20 > $OUT/ab/k-$b-$r.txt 2>&1
    timeout 100 .vx/bench-$b multisplit --sizes 24,26 --ms 2 --types pairs --fns glsl,bits,ids --paths auto --reps 20 > $OUT/ab/p-$b-$r.txt 2>&1
  done
done
grep "test result" $OUT/ms/multisplit-tests.txt
for f in $OUT/ab/*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| (glsl|bits|ids)" $f | awk -F'|' '{printf "%s%s%s%s%s %s; ", $2, $3, $4, $5, $6, $7}'; echo; done
cat $OUT/ms/multisplit-table.md | cut -d'|' -f2-9
