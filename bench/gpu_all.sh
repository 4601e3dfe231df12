#!/usr/bin/env bash
# Every algorithm in one command on the GPU machine: the CUDA baselines (CUB copy, scan and
# sort, built with nvcc from bench/cuda/), then `.devbin/vkalgo-bench` with no algorithm named
# (every algorithm and size in ONE process, each timed case after a warm-up, the copy on each
# algorithm's own buffers beside the yardstick), then the comparison table. Run from the
# repository root; arguments go to vkalgo-bench (`--markdown $OUT/h200.md --csv $OUT/h200.csv`
# writes the device page, docs/benchmarks/README.md).
#
# The CUDA baselines take minutes to compile: `BUILD_ONLY=1` builds them alone, into
# $OUT/cuda-bench.tar.xz; unpacked into a carried folder named by CUDA_BIN, a later command
# runs them without compiling (one device command then holds both sides).
#
# Environment:
#   OUT    output folder (default /tmp/out): cub-all.txt, vkalgo-all.txt, all-table.md
#   CUDA_BIN    folder with prebuilt cub_bench and merge_bench (default: build them)
#   BUILD_ONLY  1: build the baselines into $OUT/cuda-bench.tar.xz and stop
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
bin="${CUDA_BIN:-}"
if [ -z "$bin" ] || [ ! -x "$bin/cub_bench" ] || [ ! -x "$bin/merge_bench" ]; then
  bin=/tmp/cuda-bench
  mkdir -p "$bin"
  for b in cub_bench merge_bench; do
    t0=$SECONDS
    "$NVCC" -O3 -std=c++17 -arch="$ARCH" -o "$bin/$b" "bench/cuda/$b.cu"
    echo "built $b in $((SECONDS - t0)) s"
  done
  if [ "${BUILD_ONLY:-0}" = 1 ]; then
    tar -cJf "$OUT/cuda-bench.tar.xz" -C "$bin" cub_bench merge_bench
    ls -la "$OUT"
    exit 0
  fi
fi

t0=$SECONDS
# shellcheck disable=SC2086
{
  "$bin/cub_bench" copy 28
  "$bin/cub_bench" scan $SIZES
  for t in $TYPES; do "$bin/cub_bench" "sort_$t" $SORT_SIZES; done
  # Merge (CUB DeviceMerge) and set operations (Thrust) at vkalgo-bench merge's default sizes.
  for m in merge_keys merge_pairs; do "$bin/merge_bench" "$m" 23 26; done
  for op in set_and set_or set_andnot set_xor; do "$bin/merge_bench" "$op" 24; done
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
