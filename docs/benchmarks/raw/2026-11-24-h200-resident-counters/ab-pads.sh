#!/usr/bin/env bash
# Resident kernel: pads (new) vs counters apart without pads (7199366, old); GPU sort tests.
set -uo pipefail
. bench/gpu_setup.sh >/dev/null 2>&1
xz -dc .vx/bench-base.xz > /tmp/old-bench; chmod +x /tmp/old-bench
R=$OUT/exp23.txt
{
VKALGO_TEST_NO_VALIDATION=1 .devbin/tests/sort --test-threads=1 2>&1 | tail -3
"$NVCC" -O3 -std=c++17 -arch="$ARCH" -o /tmp/cub_bench bench/cuda/cub_bench.cu
for t in u32 f32 pairs; do /tmp/cub_bench sort_$t 10 11 12; done
for r in 1 2 3; do
  for b in old new; do
    B=.devbin/vkalgo-bench; [ $b = old ] && B=/tmp/old-bench
    $B sort --types u32,f32,pairs,u64 --sizes 10,11,12 --reps 40 | sed "s/\tresident\t/\t$b\t/"
    $B sort --types u64 --sizes 12 --end-bits 48 --reps 40 | sed "s/\tresident\t/\t${b}48\t/"
  done
done
for t in u32 f32 pairs; do /tmp/cub_bench sort_$t 10 11 12; done
} > $R 2>&1
grep -E "test result" $R; grep -c "NO:" $R
grep RESULT $R | grep -E "sort_" | awk -F'\t' '{k=$3" "$5" "$4; s[k]+=$6; c[k]++} END {for (k in s) printf "%s %.4f (%d)\n", k, s[k]/c[k]*1000, c[k]}' | sort
