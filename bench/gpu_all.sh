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
#   ALGOS  the algorithms to run (default: all, in one vkalgo-bench process); a list such as
#          "reduce select histogram reduce_by_key" runs those baselines and one vkalgo-bench
#          process per name, so that the whole table can be split over device commands of
#          600 s (names: scan reduce reduce_by_key histogram select sort segmented_sort merge set)
#   ARCH   nvcc target (default sm_90)
set -euo pipefail

SIZES="${SIZES:-16 20 24 28}"
SORT_SIZES="${SORT_SIZES:-16 20 24 26 28}"
TYPES="${TYPES:-u32 pairs u64 f32}"
ALGOS="${ALGOS:-all}"
# wants NAME: whether ALGOS names NAME (or is "all").
wants() { [ "$ALGOS" = all ] || [[ " $ALGOS " == *" $1 "* ]]; }
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"
cuda_build cub_bench bench/cuda/cub_bench.cu
cuda_build merge_bench bench/cuda/merge_bench.cu
cuda_build reduce_bench bench/cuda/reduce_bench.cu
cuda_build scan_typed_bench bench/cuda/scan_typed_bench.cu
cuda_build histogram_bench bench/cuda/histogram_bench.cu
cuda_build select_bench bench/cuda/select_bench.cu
cuda_build reduce_by_key_bench bench/cuda/reduce_by_key_bench.cu
cuda_build segmented_sort_bench bench/cuda/segmented_sort_bench.cu

t0=$SECONDS
# shellcheck disable=SC2086
{
  /tmp/cub_bench copy 28
  if wants scan; then
    /tmp/cub_bench scan $SIZES
    for c in sum_u64 sum_f32 max_i32 min_u64; do /tmp/scan_typed_bench "$c" $SIZES; done
  fi
  if wants reduce; then
    for c in sum_u32 min_u32 max_u32 sum_u64 max_u64 min_i32; do /tmp/reduce_bench "$c" $SIZES; done
  fi
  if wants reduce_by_key; then
    for c in rbk rle; do for l in 1 8 64; do /tmp/reduce_by_key_bench "$c" "$l" $SIZES; done; done
  fi
  if wants histogram; then
    for c in even_u32_b256 even_u32_b4096 even_u32_b65536 range_u32_b256 range_u32_b4096 even_u64_b256; do
      /tmp/histogram_bench "$c" $SIZES
    done
  fi
  if wants select; then
    for c in flagged_u32 if_u32 unique_u32 flagged_u32_pairs unique_u32_pairs; do /tmp/select_bench "$c" $SIZES; done
  fi
  if wants sort; then for t in $TYPES; do /tmp/cub_bench "sort_$t" $SORT_SIZES; done; fi
  if wants segmented_sort; then
    for c in tiny_u32 huge_u32 power_u32 tiny_u32_pairs huge_u32_pairs power_u32_pairs; do
      /tmp/segmented_sort_bench "$c" 24 26
    done
  fi
  # Merge (CUB DeviceMerge) and set operations (Thrust) at vkalgo-bench merge's default sizes.
  if wants merge; then for m in merge_keys merge_pairs; do /tmp/merge_bench "$m" 23 26; done; fi
  if wants set; then for op in set_and set_or set_andnot set_xor; do /tmp/merge_bench "$op" 24; done; fi
} | tee "$OUT/cub-all.txt"
echo "CUDA baselines: $((SECONDS - t0)) s"

t0=$SECONDS
vk_rc=0
if [ "$ALGOS" = all ]; then
  .devbin/vkalgo-bench "$@" | tee "$OUT/vkalgo-all.txt" || vk_rc=$?
else
  : > "$OUT/vkalgo-all.txt"
  # The merge benchmark runs the merges and the set operations (Thrust's rows).
  for a in $(echo "$ALGOS" | sed 's/\bset\b/merge/' | tr ' ' '\n' | awk '!seen[$0]++'); do
    .devbin/vkalgo-bench "$a" "$@" | tee -a "$OUT/vkalgo-all.txt" || vk_rc=$?
  done
fi
echo "vkalgo-bench: $((SECONDS - t0)) s"

echo
python3 bench/compare.py "$OUT/cub-all.txt" "$OUT/vkalgo-all.txt" | tee "$OUT/all-table.md"
grep -A100 "^copy on each algorithm" "$OUT/vkalgo-all.txt" | grep "^|" || true
exit "$vk_rc"
