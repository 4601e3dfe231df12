#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r1
OUT=$OUT/r1/set VKALGO_BENCH=.vx/bench SET_TESTS=.vx/set-tests SET_CASES=sparse,dense,clustered timeout 520 bash bench/gpu_set.sh --reps 10 > $OUT/r1/gpu_set.log 2>&1; echo "gpu_set rc $?"
grep "test result\|interchange" $OUT/r1/set/set_tests.txt
grep -i "pyroaring read" $OUT/r1/set/*.txt $OUT/r1/gpu_set.log | head -3
grep -E "memory|serializ" $OUT/r1/gpu_set.log | head -12
tail -60 $OUT/r1/set/table.md
