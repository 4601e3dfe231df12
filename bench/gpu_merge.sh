#!/usr/bin/env bash
# Merge benchmark on the GPU machine, in one command: builds the CUB/Thrust baseline
# (bench/cuda/merge_bench.cu) with nvcc, runs it (cub::DeviceMerge::MergeKeys / MergePairs,
# thrust::set_intersection / set_union / set_difference / set_symmetric_difference, a copy
# kernel as the bandwidth yardstick) and `vkalgo-bench merge`, and prints the comparison
# (bench/compare.py merge: ratios to CUB/Thrust at the same sizes, and every row as % of its
# own copy bandwidth) last. Run from the repository root. Arguments go to `vkalgo-bench merge`
# (e.g. --reps 20 --tuning 256x11,256x7,128x15).
#
# Environment:
#   OUT           output folder (default /tmp/out): cuda-merge.txt, vkalgo-merge.txt, merge-table.md
#   VKALGO_BENCH  the vkalgo-bench binary (default .devbin/vkalgo-bench)
#   CUDA_SRC      the CUDA source (default bench/cuda/merge_bench.cu; cuda_check.h next to it)
#   COMPARE       the comparison script (default bench/compare.py merge)
#   SIZES         log2 sizes of EACH run for the merges (default "23 26": 2^23 + 2^23, 2^26 + 2^26)
#   SET_SIZES     log2 sizes of each run for the set operations (default "24")
#   ARCH          nvcc target (default sm_90)
#   PROCESSES     how many times each program runs, in turn, each in a process of its own
#                 (default 3); the table keeps each row's fastest median (bench/compare.py merge)
set -euo pipefail

VKALGO_BENCH="${VKALGO_BENCH:-.devbin/vkalgo-bench}"
CUDA_SRC="${CUDA_SRC:-bench/cuda/merge_bench.cu}"
COMPARE="${COMPARE:-bench/compare.py}"
SIZES="${SIZES:-23 26}"
SET_SIZES="${SET_SIZES:-24}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"
cuda_build merge_bench "$CUDA_SRC" -I "$(dirname "$CUDA_SRC")"

PROCESSES="${PROCESSES:-3}"
cuda_rc=0
vk_rc=0
: >"$OUT/cuda-merge.txt"
: >"$OUT/vkalgo-merge.txt"
for process in $(seq 1 "$PROCESSES"); do
  echo "# process $process of $PROCESSES" | tee -a "$OUT/cuda-merge.txt" "$OUT/vkalgo-merge.txt"
  # The size lists are split into separate arguments on purpose.
  # shellcheck disable=SC2086
  {
    /tmp/merge_bench copy 28
    /tmp/merge_bench merge_keys $SIZES
    /tmp/merge_bench merge_pairs $SIZES
    for op in set_and set_or set_andnot set_xor; do /tmp/merge_bench "$op" $SET_SIZES; done
  } | tee -a "$OUT/cuda-merge.txt" || cuda_rc=$?

  "$VKALGO_BENCH" merge --sizes "$(echo "$SIZES" | tr ' ' ,)" --set-sizes "$(echo "$SET_SIZES" | tr ' ' ,)" "$@" \
    | tee -a "$OUT/vkalgo-merge.txt" || vk_rc=$?
done

echo
python3 "$COMPARE" merge "$OUT/cuda-merge.txt" "$OUT/vkalgo-merge.txt" | tee "$OUT/merge-table.md"
[ "$cuda_rc" -eq 0 ] || echo "merge_bench exited with status $cuda_rc" >&2
[ "$vk_rc" -eq 0 ] || echo "vkalgo-bench exited with status $vk_rc" >&2
exit $((cuda_rc | vk_rc))
