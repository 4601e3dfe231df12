#!/usr/bin/env bash
# Command 97: the build with keys into 32 on two tiles a workgroup: the multisplit tests on the
# GPU (8 at a time), then Auto against CUB into 16, 24 and 32.
set -u
R=$OUT/r97; mkdir -p $R/ms
s=$SECONDS
OUT=$R/ms TESTS=.vx/m97/split MS="16 24 32" VKALGO_BENCH=.vx/m97/vkalgo-bench timeout 500 bash bench/gpu_multisplit.sh --fns glsl,bits --reps 20 > $R/ms.log 2>&1; echo "multisplit rc $? $((SECONDS - s))s"
grep "test result" $R/ms/multisplit-tests.txt
grep -E "FAILED|panicked" $R/ms/multisplit-tests.txt | head -5
tar -czf $OUT/r97.tgz -C $OUT r97
cat $R/ms/multisplit-table.md
