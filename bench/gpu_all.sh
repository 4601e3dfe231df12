#!/usr/bin/env bash
# Every algorithm in one command on the GPU machine: the CUDA baselines (CUB copy, scan,
# reduce, select and sort, built with nvcc from bench/cuda/), then `.devbin/vkalgo-bench` with no algorithm named
# (every algorithm and size in ONE process, each timed case after a warm-up, the copy on each
# algorithm's own buffers beside the yardstick), then the comparison table. Run from the
# repository root; arguments go to vkalgo-bench (`--markdown $OUT/h200.md --csv $OUT/h200.csv`
# writes the device page, docs/benchmarks/README.md).
#
# The CUDA baselines take minutes to compile: build them here first (bench/build_cuda.sh) and
# carry .cuda, so that the device command only measures.
#
# Environment:
#   OUT    output folder (default /tmp/out): cub-all.txt, vkalgo-all.txt, all-table.md
#   SIZES  log2 sizes for CUB's scan (default "16 20 24 28")
#   SORT_SIZES  log2 sizes for CUB's sort (default "16 20 24 26 28")
#   TYPES  CUB sort cases (default "u32 pairs u64 f32")
#   ARCH   nvcc target (default sm_90)
set -euo pipefail

SIZES="${SIZES:-16 20 24 28}"
SORT_SIZES="${SORT_SIZES:-16 20 24 26 28}"
TYPES="${TYPES:-u32 pairs u64 f32}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"
cuda_build cub_bench bench/cuda/cub_bench.cu
cuda_build merge_bench bench/cuda/merge_bench.cu
cuda_build reduce_bench bench/cuda/reduce_bench.cu
cuda_build histogram_bench bench/cuda/histogram_bench.cu
cuda_build select_bench bench/cuda/select_bench.cu
cuda_build reduce_by_key_bench bench/cuda/reduce_by_key_bench.cu
cuda_build segmented_sort_bench bench/cuda/segmented_sort_bench.cu

t0=$SECONDS
# shellcheck disable=SC2086
{
  /tmp/cub_bench copy 28
  /tmp/cub_bench scan $SIZES
  for c in sum_u32 min_u32 max_u32 sum_u64 max_u64 min_i32; do /tmp/reduce_bench "$c" $SIZES; done
  for c in rbk rle; do for l in 1 8 64; do /tmp/reduce_by_key_bench "$c" "$l" $SIZES; done; done
  for c in even_u32_b256 even_u32_b4096 even_u32_b65536 range_u32_b256 range_u32_b4096 even_u64_b256; do
    /tmp/histogram_bench "$c" $SIZES
  done
  for c in flagged_u32 if_u32 unique_u32 flagged_u32_pairs unique_u32_pairs; do /tmp/select_bench "$c" $SIZES; done
  for t in $TYPES; do /tmp/cub_bench "sort_$t" $SORT_SIZES; done
  for c in tiny_u32 huge_u32 power_u32 tiny_u32_pairs huge_u32_pairs power_u32_pairs; do
    /tmp/segmented_sort_bench "$c" 24 26
  done
  # Merge (CUB DeviceMerge) and set operations (Thrust) at vkalgo-bench merge's default sizes.
  for m in merge_keys merge_pairs; do /tmp/merge_bench "$m" 23 26; done
  for op in set_and set_or set_andnot set_xor; do /tmp/merge_bench "$op" 24; done
} | tee "$OUT/cub-all.txt"
echo "CUDA baselines: $((SECONDS - t0)) s"

t0=$SECONDS
vk_rc=0
.devbin/vkalgo-bench "$@" | tee "$OUT/vkalgo-all.txt" || vk_rc=$?
echo "vkalgo-bench: $((SECONDS - t0)) s"

echo
python3 bench/compare.py "$OUT/cub-all.txt" "$OUT/vkalgo-all.txt" | tee "$OUT/all-table.md"
grep -A100 "^copy on each algorithm" "$OUT/vkalgo-all.txt" | grep "^|" || true
exit "$vk_rc"
