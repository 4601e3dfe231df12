#!/usr/bin/env bash
# The set benchmark again with 7879b4d's script (CRoaring on the last core, five repetitions,
# the CPU recorded); vkalgo build d8ed1c1 (the same code as 3195c6b), set tests of 7879b4d.
set -u
tar -xJf .var/exp.tar.xz
mkdir -p /tmp/final
OUT=/tmp/final VKALGO_BENCH=.vx/bench SET_TESTS=.vx/set-tests timeout 480 bash bench/gpu_set.sh --reps 10 > /tmp/final/log.txt 2>&1; echo "gpu_set rc $?"
tar -czf $OUT/final.tar.gz -C /tmp final
grep "test result" /tmp/final/set_tests.txt
head -1 /tmp/final/croaring.txt
grep -E "clustered|sparse \| (cuda thrust)" /tmp/final/table.md | head -40
