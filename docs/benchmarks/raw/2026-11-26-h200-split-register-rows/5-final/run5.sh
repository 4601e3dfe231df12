#!/usr/bin/env bash
# final (06248f2): multisplit tests and table against CUB; merge and set operations against CUB/Thrust
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p $OUT/ms $OUT/merge
VKALGO_BENCH=.vx/bench-final TESTS=.vx/split-tests OUT=$OUT/ms timeout 420 bash bench/gpu_multisplit.sh --reps 20 > $OUT/ms/log.txt 2>&1; echo "multisplit rc $?"
VKALGO_BENCH=.vx/bench-final OUT=$OUT/merge timeout 150 bash bench/gpu_merge.sh --reps 20 > $OUT/merge/log.txt 2>&1; echo "merge rc $?"
grep "test result" $OUT/ms/multisplit-tests.txt
cat $OUT/merge/merge-table.md | head -30
cat $OUT/ms/multisplit-table.md | cut -d'|' -f2-9
