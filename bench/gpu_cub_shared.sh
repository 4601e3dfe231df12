#!/usr/bin/env bash
# CUB's radix sort under less shared memory per SM, on the GPU machine: builds the CUB benchmark
# with its launch hook (bench/cuda/cub_bench.cu, CUB_LAUNCH_HOOK), then sorts with the driver's
# default carveout and with the preferred carveouts in CARVEOUTS. Each run prints its
# kernels' registers, static shared memory and resident blocks per SM, then its RESULT lines.
# Run from the repository root. The vkalgo side is `.devbin/vkalgo-bench sort` as usual.
#
# Environment:
#   SIZES      log2 sizes (default "24 26"; 2^28 takes over 40 s per run in the CPU check)
#   TYPES      CUB cases (default "pairs u64 u32")
#   CARVEOUTS  preferred carveouts in percent of the SM's shared memory (default "28 14": on
#              an H200 the 64 KB and 32 KB configurations)
#   ARCH       nvcc target (default sm_90)
set -euo pipefail

SIZES="${SIZES:-24 26}"
TYPES="${TYPES:-pairs u64 u32}"
CARVEOUTS="${CARVEOUTS:-28 14}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh" > /dev/null
"$NVCC" -O3 -std=c++17 -arch="$ARCH" -DCUB_LAUNCH_HOOK -cudart shared -ldl \
  -o /tmp/cub_hook bench/cuda/cub_bench.cu
for t in $TYPES; do
  for c in default $CARVEOUTS; do
    echo "-- $t, carveout $c"
    carveout=()
    [ "$c" = default ] || carveout=("CUB_CARVEOUT=$c")
    # shellcheck disable=SC2086
    env "${carveout[@]}" /tmp/cub_hook "sort_$t" $SIZES | grep -E "RESULT|blocks/SM"
  done
done
