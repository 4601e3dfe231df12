#!/usr/bin/env bash
# Scan default plans: clear + look-back (0) vs aggregates dispatch + look-back (1); GPU sort tests of the committed build.
set -uo pipefail
. bench/gpu_setup.sh >/dev/null 2>&1
xz -dc .vx/bench-exp.xz > /tmp/exp-bench; chmod +x /tmp/exp-bench
R=$OUT/exp22.txt
{
VKALGO_TEST_NO_VALIDATION=1 .devbin/tests/sort --test-threads=1 2>&1 | tail -3
"$NVCC" -O3 -std=c++17 -arch="$ARCH" -o /tmp/cub_bench bench/cuda/cub_bench.cu
S=14,15,16,17,18,19,20,21,22,23,24
/tmp/cub_bench scan 14 15 16 17 18 19 20 21 22 23 24
for r in 1 2; do
  for e in 0 1; do
    VKALGO_EXP_SCAN=$e /tmp/exp-bench scan --sizes $S --paths auto | sed "s/\tauto\t/\te$e\t/"
  done
  /tmp/exp-bench scan --sizes $S --paths auto+z
done
/tmp/cub_bench scan 14 15 16 17 18 19 20 21 22 23 24
} > $R 2>&1
grep -E "test result" $R; grep -c "NO:\|FAIL" $R
grep RESULT $R | grep -E "scan_" | awk -F'\t' '{k=$3" "$5" "$4; s[k]+=$6; c[k]++} END {for (k in s) printf "%s %.4f (%d)\n", k, s[k]/c[k]*1000, c[k]}' | sort -k2n -k3
