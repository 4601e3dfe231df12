#!/usr/bin/env bash
# Multisplit benchmark on the GPU machine, in one command: builds the CUB baselines
# (bench/cuda/multisplit_bench.cu: reduced-bit sort, DevicePartition::If at m = 2) with nvcc,
# runs them and `vkalgo-bench multisplit` (bucket = (k * m) >> 32 as GLSL and, for
# power-of-two m, as BITS; keys and u32 -> u32 pairs), runs the multisplit tests on the GPU
# first, and prints the ratio table (bench/compare.py multisplit) last. Run from the
# repository root; arguments go to `vkalgo-bench multisplit` (e.g. --paths auto,global).
#
# Environment:
#   OUT      output folder (default /tmp/out): cub-multisplit.txt, vkalgo-multisplit.txt,
#            multisplit-table.md, multisplit-tests.txt
#   SIZES    log2 sizes (default "24 26")
#   MS       bucket counts (default "2 3 8 32 256 1024")
#   TESTS    the multisplit test binary (default: .devbin/tests/split from
#            scripts/build-devbin.sh, else target/release/deps/split-*; empty: no tests)
#   TEST_THREADS  tests run side by side (default 8: on an H200 the 21 took 112 s, one at a
#            time over 250 s, most of it compiling pipelines on the CPU)
#   VKALGO_BENCH  the benchmark binary (default .devbin/vkalgo-bench)
#   ARCH     nvcc target (default sm_90)
set -euo pipefail

SIZES="${SIZES:-24 26}"
MS="${MS:-2 3 8 32 256 1024}"
VKALGO_BENCH="${VKALGO_BENCH:-.devbin/vkalgo-bench}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"

if [ -z "${TESTS+x}" ]; then
  if [ -x .devbin/tests/split ]; then
    TESTS=.devbin/tests/split
  else
    TESTS=$(find target/release/deps -maxdepth 1 -name 'split-*' -type f -perm -u+x 2>/dev/null | head -n 1 || true)
  fi
fi
test_rc=0
if [ -n "$TESTS" ]; then
  # No validation layer on the GPU machine; the tests pick the GPU as their device.
  VKALGO_TEST_NO_VALIDATION=1 "$TESTS" --test-threads="${TEST_THREADS:-8}" 2>&1 | tee "$OUT/multisplit-tests.txt" || test_rc=$?
fi

cuda_build multisplit_bench bench/cuda/multisplit_bench.cu
sizes_csv=$(echo "$SIZES" | tr ' ' ',')
ms_csv=$(echo "$MS" | tr ' ' ',')
cub_rc=0
/tmp/multisplit_bench "$sizes_csv" "$ms_csv" | tee "$OUT/cub-multisplit.txt" || cub_rc=$?

vk_rc=0
: > "$OUT/vkalgo-multisplit.txt"
for s in $SIZES; do
  # One process per size (see bench/gpu_sort.sh: long processes drifted on the H200).
  "$VKALGO_BENCH" multisplit --sizes "$s" --ms "$ms_csv" "$@" | tee -a "$OUT/vkalgo-multisplit.txt" || vk_rc=$?
done

echo
python3 bench/compare.py multisplit "$OUT/cub-multisplit.txt" "$OUT/vkalgo-multisplit.txt" |
  tee "$OUT/multisplit-table.md"
[ "$test_rc" -eq 0 ] || echo "multisplit tests exited with status $test_rc" >&2
[ "$cub_rc" -eq 0 ] || echo "multisplit_bench exited with status $cub_rc" >&2
[ "$vk_rc" -eq 0 ] || echo "vkalgo-bench exited with status $vk_rc" >&2
exit $((test_rc | cub_rc | vk_rc))
