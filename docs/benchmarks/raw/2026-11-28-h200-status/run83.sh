#!/usr/bin/env bash
# Command 83: the multisplit and merge tables against CUB/Thrust, final build.
set -u
R=$OUT/r83; mkdir -p $R/ms $R/merge
s=$SECONDS
OUT=$R/ms TESTS= MS="2 3 8 16 32 256" VKALGO_BENCH=.vx/fin/vkalgo-bench timeout 290 bash bench/gpu_multisplit.sh --fns glsl,bits --reps 20 > $R/ms.log 2>&1; echo "multisplit rc $? $((SECONDS - s))s"
s=$SECONDS
OUT=$R/merge PROCESSES=2 VKALGO_BENCH=.vx/fin/vkalgo-bench timeout 260 bash bench/gpu_merge.sh --reps 20 > $R/merge.log 2>&1; echo "merge rc $? $((SECONDS - s))s"
tar -czf $OUT/r83.tgz -C $OUT r83
cat $R/ms/multisplit-table.md 2>/dev/null | head -40
cat $R/merge/merge-table.md 2>/dev/null | head -30
