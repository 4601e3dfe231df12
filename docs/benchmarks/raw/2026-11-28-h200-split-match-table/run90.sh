#!/usr/bin/env bash
# Command 90: the match-table build: the multisplit tests on the GPU, then Auto against CUB.
set -u
R=$OUT/r90; mkdir -p $R/ms
s=$SECONDS
VKALGO_TEST_NO_VALIDATION=1 timeout 250 .vx/m90/split --test-threads 1 > $R/split-tests.txt 2>&1; echo "split tests rc $? $((SECONDS - s))s $(grep 'test result' $R/split-tests.txt)"
grep -E "^test .*(FAILED|ok)$" $R/split-tests.txt | grep -c ok
grep -E "FAILED|panicked" $R/split-tests.txt | head -5
s=$SECONDS
OUT=$R/ms TESTS= MS="8 16 24 32" VKALGO_BENCH=.vx/m90/vkalgo-bench timeout 240 bash bench/gpu_multisplit.sh --fns glsl,bits --reps 20 > $R/ms.log 2>&1; echo "multisplit rc $? $((SECONDS - s))s"
tar -czf $OUT/r90.tgz -C $OUT r90
cat $R/ms/multisplit-table.md
