#!/usr/bin/env bash
# The engine's small-count measurements in one command on the GPU machine: CUB's scan and
# radix sort at 2^10..2^28 / 2^10..2^20, then vkalgo's scan (default plans, `keep_scratch_zeroed`
# plans, the one-workgroup path) and sort at the same sizes, CUB once more after vkalgo (drift),
# and the comparison table last (ratio = vkalgo rate / CUB rate, above 1.00 is faster).
# Run from the repository root after scripts/build-devbin.sh (carry .gl and .devpack).
#
# Environment:
#   OUT          output folder (default /tmp/out): small-n-cub.txt, small-n-vkalgo.txt,
#                small-n-cub-after.txt, small-n-table.md
#   SCAN_SIZES   log2 sizes of the scans (default "10 12 13 14 15 16 18 20 22 24 28")
#   SMALL_SIZES  log2 sizes for the one-workgroup scan path (default "10 12 13 14 16")
#   SORT_SIZES   log2 sizes of the sorts (default "10 12 13 14 16 18 20")
#   TYPES        sort cases (default "u32 pairs u64 f32")
set -euo pipefail

SCAN_SIZES="${SCAN_SIZES:-10 12 13 14 15 16 18 20 22 24 28}"
SMALL_SIZES="${SMALL_SIZES:-10 12 13 14 16}"
SORT_SIZES="${SORT_SIZES:-10 12 13 14 16 18 20}"
TYPES="${TYPES:-u32 pairs u64 f32}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"
"$NVCC" -O3 -std=c++17 -arch="$ARCH" -o /tmp/cub_bench bench/cuda/cub_bench.cu

cub() {
  # shellcheck disable=SC2086
  /tmp/cub_bench scan $SCAN_SIZES
  # shellcheck disable=SC2086
  for t in $TYPES; do /tmp/cub_bench "sort_$t" $SORT_SIZES; done
}
cub | tee "$OUT/small-n-cub.txt"
{
  .devbin/vkalgo-bench scan --sizes "${SCAN_SIZES// /,}" --paths auto,auto+z
  .devbin/vkalgo-bench scan --sizes "${SMALL_SIZES// /,}" --paths small
  .devbin/vkalgo-bench sort --types "${TYPES// /,}" --sizes "${SORT_SIZES// /,}"
} | tee "$OUT/small-n-vkalgo.txt"
cub > "$OUT/small-n-cub-after.txt"

echo
python3 bench/compare.py "$OUT/small-n-cub.txt" "$OUT/small-n-vkalgo.txt" 2>/dev/null |
  grep -E "^\| (algo|---|scan|sort)" | tee "$OUT/small-n-table.md"
