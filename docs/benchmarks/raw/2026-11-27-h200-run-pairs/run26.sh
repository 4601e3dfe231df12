#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r26
OUT=$OUT/r26 VKALGO_BENCH=.vx/bench SET_TESTS=.vx/set-tests SET_CASES=sparse,dense,clustered CROARING_PROCESSES=3 VKALGO_TEST_NO_VALIDATION=1 bash bench/gpu_set.sh --reps 10 > $OUT/r26/gpu_set.txt 2>&1
echo "rc $?"
grep "test result\|FAILED\|panicked" $OUT/r26/set_tests.txt | head
tail -60 $OUT/r26/gpu_set.txt
