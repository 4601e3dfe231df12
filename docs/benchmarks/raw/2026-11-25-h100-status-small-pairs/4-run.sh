#!/usr/bin/env bash
# The set benchmark with 3195c6b's kernel (the build of the working tree after it, same code):
# set tests on the GPU, CUDA baselines, vkalgo, CRoaring; outputs packed into one file.
set -u
tar -xJf .var/exp.tar.xz
mkdir -p /tmp/final
OUT=/tmp/final VKALGO_BENCH=.vx/bench-new SET_TESTS=.vx/set-tests timeout 480 bash bench/gpu_set.sh --reps 10 > /tmp/final/log.txt 2>&1; echo "gpu_set rc $?"
tar -czf $OUT/final.tar.gz -C /tmp final
grep "test result" /tmp/final/set_tests.txt
grep -E "clustered|sparse \| (cuda thrust|croaring set_and )" /tmp/final/table.md | head -60
