#!/usr/bin/env bash
# 16: the final build (311171f, new) against a202754 (old) with Auto, pairs into 4-32 buckets,
# two rounds; then the multisplit tests and the table against CUB (bench/gpu_multisplit.sh).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r16; rm -rf $R; mkdir -p $R/ms
for r in 1 2; do
  for b in old new; do
    timeout 100 .vx/bench-$b multisplit --sizes 24,26 --ms 4,5,8,12,16,24,32 --types pairs --fns glsl,bits --paths auto --reps 20 > $R/p-$b-$r.txt 2>&1
  done
done
MS="2 3 8 16 32 256 1024" VKALGO_BENCH=.vx/bench-new TESTS=.vx/split-tests OUT=$R/ms bash bench/gpu_multisplit.sh --reps 20 > $R/table-run.txt 2>&1; echo "table rc $?"
tar -czf $OUT/r16.tar.gz -C /tmp r16
for f in $R/p-*; do echo "== $(basename $f)"; grep -E "^\| pairs" $f | awk -F'|' '{printf "%s%s%s %s; ", $3, $5, $6, $7}'; echo; done
grep "test result" $R/ms/multisplit-tests.txt
cat $R/ms/multisplit-table.md
