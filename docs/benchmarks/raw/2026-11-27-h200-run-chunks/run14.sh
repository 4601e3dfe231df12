#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r14
OUT=$OUT/r14/set VKALGO_BENCH=.vx/bench-new SET_TESTS=.vx/set-tests SET_CASES=sparse,dense,clustered CROARING_PROCESSES=3 timeout 560 bash bench/gpu_set.sh --reps 10 > $OUT/r14/gpu_set.log 2>&1; echo "gpu_set rc $?"
grep "test result\|interchange\|FAILED" $OUT/r14/set/set_tests.txt | head -5
grep -E "memory" $OUT/r14/gpu_set.log | head -8
tail -70 $OUT/r14/set/table.md
