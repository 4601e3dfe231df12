#!/usr/bin/env bash
# Runs the CUB baseline and the vkalgo benchmark on the GPU machine and prints a comparison.
# Run from the repository root. Arguments are passed through to .devbin/vkalgo-bench.
#
# Environment:
#   OUT    output folder (default /tmp/out): cub.txt, vkalgo.txt, table.md
#   SIZES  log2 sizes for the CUB scan (default "20 24 28")
#   ARCH   nvcc target (default sm_90)
set -euo pipefail

SIZES="${SIZES:-20 24 28}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"
"$NVCC" -O3 -std=c++17 -arch="$ARCH" -o /tmp/cub_bench bench/cuda/cub_bench.cu

# SIZES is split into separate arguments on purpose.
# shellcheck disable=SC2086
{
  /tmp/cub_bench copy 28
  /tmp/cub_bench scan $SIZES
} | tee "$OUT/cub.txt"

# Keep going if the Vulkan benchmark fails, so the CUB figures still get tabulated;
# its exit status becomes the script's.
vk_rc=0
.devbin/vkalgo-bench "$@" | tee "$OUT/vkalgo.txt" || vk_rc=$?

echo
python3 bench/compare.py "$OUT/cub.txt" "$OUT/vkalgo.txt" | tee "$OUT/table.md"

if [ "$vk_rc" -ne 0 ]; then
  echo "vkalgo-bench exited with status $vk_rc" >&2
fi
exit "$vk_rc"
