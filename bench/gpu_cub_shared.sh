#!/usr/bin/env bash
# CUB and Thrust under less shared memory per SM, on the GPU machine: builds the CUDA baselines
# with their launch hook (bench/cuda/launch_hook.h, CUB_LAUNCH_HOOK), then runs each case with
# the driver's default carveout and with the preferred carveouts in CARVEOUTS. Each run prints
# its kernels' registers, static shared memory and resident blocks per SM, then its RESULT
# lines. Run from the repository root. The vkalgo side is `.devbin/vkalgo-bench` as usual.
#
# Environment:
#   SIZES        log2 sizes of the sorts (default "24 26"; 2^28 takes over 40 s per run in the
#                CPU check)
#   TYPES        CUB radix sort cases (default "pairs u64 u32"; empty: none)
#   MERGE_CASES  merge benchmark cases (bench/cuda/merge_bench.cu: merge_keys merge_pairs
#                set_and set_or set_andnot set_xor; default none)
#   MERGE_SIZES  log2 sizes of each run for the merges (default "23 26")
#   SET_SIZES    log2 sizes of each run for the set operations (default "24")
#   SPLIT_MS     bucket counts for the multisplit baselines (bench/cuda/multisplit_bench.cu:
#                CUB's reduced-bit sort, and its partition at m = 2), comma-separated (default
#                none)
#   SPLIT_SIZES  their log2 sizes, comma-separated (default "24,26")
#   CARVEOUTS    preferred carveouts in percent of the SM's shared memory (default "28 14": on
#                an H200 the 64 KB and 32 KB configurations)
#   ARCH         nvcc target (default sm_90)
set -euo pipefail

SIZES="${SIZES:-24 26}"
TYPES="${TYPES-pairs u64 u32}"
MERGE_CASES="${MERGE_CASES:-}"
MERGE_SIZES="${MERGE_SIZES:-23 26}"
SET_SIZES="${SET_SIZES:-24}"
SPLIT_MS="${SPLIT_MS:-}"
SPLIT_SIZES="${SPLIT_SIZES:-24,26}"
CARVEOUTS="${CARVEOUTS:-28 14}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh" > /dev/null
hooked() {
  "$NVCC" -O3 -std=c++17 -arch="$ARCH" -DCUB_LAUNCH_HOOK -cudart shared -ldl -o "$1" "$2"
}
# Runs `binary case sizes...` with every carveout.
carveouts() {
  local binary=$1 case=$2
  shift 2
  for c in default $CARVEOUTS; do
    echo "-- $case, carveout $c"
    carveout=()
    [ "$c" = default ] || carveout=("CUB_CARVEOUT=$c")
    env "${carveout[@]}" "$binary" "$case" "$@" | grep -E "RESULT|blocks/SM"
  done
}
if [ -n "$TYPES" ]; then
  hooked /tmp/cub_hook bench/cuda/cub_bench.cu
  for t in $TYPES; do
    # shellcheck disable=SC2086
    carveouts /tmp/cub_hook "sort_$t" $SIZES
  done
fi
if [ -n "$MERGE_CASES" ]; then
  hooked /tmp/merge_hook bench/cuda/merge_bench.cu
  for m in $MERGE_CASES; do
    sizes=$MERGE_SIZES
    [ "${m#set_}" = "$m" ] || sizes=$SET_SIZES
    # shellcheck disable=SC2086
    carveouts /tmp/merge_hook "$m" $sizes
  done
fi
if [ -n "$SPLIT_MS" ]; then
  hooked /tmp/multisplit_hook bench/cuda/multisplit_bench.cu
  carveouts /tmp/multisplit_hook "$SPLIT_SIZES" "$SPLIT_MS"
fi
