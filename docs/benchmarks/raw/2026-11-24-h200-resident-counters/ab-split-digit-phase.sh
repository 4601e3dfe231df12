#!/usr/bin/env bash
# A/B: resident kernel counters apart + no clear between passes (new) vs dad58c5 (old).
set -uo pipefail
. bench/gpu_setup.sh >/dev/null 2>&1
xz -dc .vx/bench-base.xz > /tmp/old-bench; chmod +x /tmp/old-bench
R=$OUT/exp19.txt
{
VKALGO_TEST_NO_VALIDATION=1 .devbin/tests/sort --test-threads=1 2>&1 | tail -3
"$NVCC" -O3 -std=c++17 -arch="$ARCH" -o /tmp/cub_bench bench/cuda/cub_bench.cu
for t in u32 f32 pairs; do /tmp/cub_bench sort_$t 10 11 12; done
for r in 1 2 3; do
  for b in old new; do
    B=.devbin/vkalgo-bench; [ $b = old ] && B=/tmp/old-bench
    $B sort --types u32,f32,pairs --sizes 10,11,12,13 --reps 40 | sed "s/\tresident\t/\t$b\t/"
  done
done
for t in u32 f32 pairs; do /tmp/cub_bench sort_$t 10 11 12; done
} > $R 2>&1
grep -E "test result" $R
grep RESULT $R | grep -E "sort_" | awk -F'\t' '{k=$3" "$5" "$4; s[k]+=$6; c[k]++} END {for (k in s) printf "%s %.4f (%d)\n", k, s[k]/c[k]*1000, c[k]}' | sort
