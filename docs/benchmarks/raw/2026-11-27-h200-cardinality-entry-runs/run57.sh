#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r57; mkdir -p $R
OUT=$R/full SET_CASES=clustered,sparse,dense VKALGO_BENCH=.vx/bench-final SET_TESTS=.vx/set-tests-final timeout 560 bash bench/gpu_set.sh --reps 10 > $R/gpu_set.log 2>&1
echo "gpu_set rc $?"
grep "test result" $R/full/set_tests.txt
tar -czf $OUT/r57.tar.gz -C /tmp r57
cat $R/full/table.md
