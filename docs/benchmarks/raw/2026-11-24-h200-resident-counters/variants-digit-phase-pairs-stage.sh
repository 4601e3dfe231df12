#!/usr/bin/env bash
# Resident kernel variants (VKALGO_EXP_RESIDENT bits: 1 split per-digit phase, 2 unrolled scan, 4 together rule B) vs dad58c5.
set -uo pipefail
. bench/gpu_setup.sh >/dev/null 2>&1
xz -dc .vx/bench-base.xz > /tmp/old-bench; chmod +x /tmp/old-bench
xz -dc .vx/bench-exp.xz > /tmp/exp-bench; chmod +x /tmp/exp-bench
R=$OUT/exp20.txt
{
"$NVCC" -O3 -std=c++17 -arch="$ARCH" -o /tmp/cub_bench bench/cuda/cub_bench.cu
for t in u32 pairs; do /tmp/cub_bench sort_$t 10 11 12; done
for r in 1 2; do
  /tmp/old-bench sort --types u32,pairs --sizes 10,11,12 --reps 40 | sed "s/\tresident\t/\told\t/"
  for e in 0 1 2 3 4 6; do
    VKALGO_EXP_RESIDENT=$e /tmp/exp-bench sort --types u32,pairs --sizes 10,11,12 --reps 40 | sed "s/\tresident\t/\te$e\t/"
  done
done
for t in u32 pairs; do /tmp/cub_bench sort_$t 10 11 12; done
} > $R 2>&1
grep -c NO: $R
grep RESULT $R | grep -E "sort_" | awk -F'\t' '{k=$3" "$5" "$4; s[k]+=$6; c[k]++} END {for (k in s) printf "%s %.4f (%d)\n", k, s[k]/c[k]*1000, c[k]}' | sort
