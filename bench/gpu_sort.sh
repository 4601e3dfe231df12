#!/usr/bin/env bash
# Runs CUB DeviceRadixSort and the vkalgo sort benchmark on the GPU machine, in one command,
# and prints a comparison table last. Run from the repository root; arguments go to
# `.devbin/vkalgo-bench sort` (e.g. --reps 20). vkalgo runs every case in one process: each
# timed case starts after a warm-up that brings the GPU out of its post-idle state (the slow
# "memory" of docs/benchmarks/2026-11-21-h200-sort-v6.md; see
# docs/benchmarks/2026-11-22-memory-speed.md).
#
# Environment:
#   OUT    output folder (default /tmp/out): cub-sort.txt, vkalgo-sort.txt, sort-table.md
#   SIZES  log2 sizes for CUB (default "16 20 24 26 28")
#   TYPES  CUB cases (default "u32 pairs u64 f32")
#   ARCH   nvcc target (default sm_90)
#   CUB_BENCH  a CUB benchmark binary built by an earlier run (/tmp/cub_bench there), carried
#              to skip the nvcc build; default: build it
set -euo pipefail

SIZES="${SIZES:-16 20 24 26 28}"
TYPES="${TYPES:-u32 pairs u64 f32}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"
if [ -n "${CUB_BENCH:-}" ]; then
  cp "$CUB_BENCH" /tmp/cub_bench
else
  cuda_build cub_bench bench/cuda/cub_bench.cu
fi

# shellcheck disable=SC2086
{
  for t in $TYPES; do /tmp/cub_bench "sort_$t" $SIZES; done
} | tee "$OUT/cub-sort.txt"

vk_rc=0
.devbin/vkalgo-bench sort "$@" --types "${TYPES// /,}" --sizes "${SIZES// /,}" | tee "$OUT/vkalgo-sort.txt" || vk_rc=$?

# CUB once more after vkalgo: shows whether the machine's speed drifted during the run.
# shellcheck disable=SC2086
{
  for t in $TYPES; do /tmp/cub_bench "sort_$t" $SIZES; done
} > "$OUT/cub-sort-after.txt"
grep -v RESULT "$OUT/cub-sort-after.txt" | sed 's/^/after: /'

echo
python3 bench/compare.py "$OUT/cub-sort.txt" "$OUT/vkalgo-sort.txt" | tee "$OUT/sort-table.md"
exit "$vk_rc"
