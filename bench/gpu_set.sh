#!/usr/bin/env bash
# Set benchmark on the GPU machine, in one command: the set tests on the GPU, the CUDA
# baselines (bench/cuda/set_bench.cu: flat 2^32-bit bitmaps, array <-> flat bitmap, Thrust
# set operations on sorted arrays) built with nvcc, `vkalgo-bench set`, and CRoaring on this
# machine's CPU through pyroaring (a wheel carried in .pywheels/, which git ignores: fetch it
# with `pip download pyroaring==1.2.0 --no-deps --only-binary=:all: --python-version 3.12
# --platform manylinux_2_28_x86_64 -d .pywheels` (CRoaring 5.2.2; manylinux2014 wheels stop at
# pyroaring 1.0.3, CRoaring 4.2.3) and pass `.pywheels` in the run's carry), then
# the ratio table (bench/compare.py set). Run from the repository root; arguments go to
# `vkalgo-bench set`.
#
# Environment:
#   OUT          output folder (default /tmp/out): set_tests.txt, cuda.txt, pipeline_stats.txt,
#                vkalgo.txt, croaring.txt, table.md
#   VKALGO_BENCH the vkalgo-bench binary (default .devbin/vkalgo-bench)
#   SET_TESTS    the set tests binary (default: .devbin/set-tests if present; copy it from
#                target/release/deps/set-<hash> after `cargo test --release --test set --no-run`)
#   LOG2N        set size (default 24)
#   SET_CASES    the benchmark's cases (default sparse,dense,clustered,full; `full`: every
#                chunk of the universe a bitmap, against the flat 2^32-bit bitmaps)
#   ARCH         nvcc target (default sm_90)
#   CROARING_PROCESSES  how many processes run CRoaring's timings, one after the other
#                (default 3; the table keeps each row's fastest)
set -euo pipefail

VKALGO_BENCH="${VKALGO_BENCH:-.devbin/vkalgo-bench}"
SET_TESTS="${SET_TESTS:-.devbin/set-tests}"
LOG2N="${LOG2N:-24}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"

# pyroaring from the carried wheel, for the tests' CRoaring exchange and the CRoaring timings.
if [ -d .pywheels ]; then
  rm -rf /tmp/pyroaring_pkg
  mkdir -p /tmp/pyroaring_pkg
  python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg
  export PYTHONPATH=/tmp/pyroaring_pkg
fi
have_pyroaring=0
python3 -c "import pyroaring" 2>/dev/null && have_pyroaring=1

rc=0
if [ -x "$SET_TESTS" ]; then
  [ "$have_pyroaring" -eq 1 ] && export VKALGO_REQUIRE_PYROARING=1
  VKALGO_TEST_NO_VALIDATION=1 "$SET_TESTS" --test-threads=1 2>&1 | tee "$OUT/set_tests.txt" || rc=1
fi

cuda_build set_bench bench/cuda/set_bench.cu
/tmp/set_bench "$LOG2N" 5 | tee "$OUT/cuda.txt" || rc=1

# The set kernels' registers and shared memory (the driver's pipeline statistics), beside the
# times: a few more registers can cost a kernel resident workgroups (the small-pair kernel at
# 72 instead of 64 made sparse operations 1.35x slower on an H100,
# docs/benchmarks/2026-11-25-h100-set-copies.md).
VKALGO_PIPELINE_STATS=1 "$VKALGO_BENCH" set --log2n 16 --cases sparse --reps 1 2>&1 \
  | grep "pipeline statistics: set_" | sort -u | tee "$OUT/pipeline_stats.txt" || true

"$VKALGO_BENCH" set --log2n "$LOG2N" --cases "${SET_CASES:-sparse,dense,clustered,full}" "$@" | tee "$OUT/vkalgo.txt" || rc=1

if [ "$have_pyroaring" -eq 1 ]; then
  # One core, the last one (core 0 usually takes most interrupts), and the CPU it ran on:
  # CRoaring's times moved 1.3-1.6x between device commands on 2026-11-25 while vkalgo's did
  # not, and ran fastest on the last core (docs/benchmarks/2026-11-25-h100-status-small-pairs.md).
  # Several processes, the table keeping each row's fastest (bench/compare.py set), so that a
  # slow process does not flatter vkalgo's ratios.
  core=$(($(nproc) - 1))
  : > "$OUT/croaring.txt"
  for process in $(seq 1 "${CROARING_PROCESSES:-3}"); do
    echo "# CRoaring process $process on core $core: $(lscpu | sed -n 's/^Model name: *//p'), $(grep -m1 'cpu MHz' /proc/cpuinfo | sed 's/.*: //') MHz"
    taskset -c "$core" python3 bench/croaring_set.py "$LOG2N" 5
  done | tee -a "$OUT/croaring.txt" || rc=1
else
  echo "pyroaring not importable (no .pywheels/ or another Python version): CRoaring not measured" >&2
fi

echo
python3 bench/compare.py set "$OUT/cuda.txt" "$OUT/vkalgo.txt" "$OUT/croaring.txt" | tee "$OUT/table.md"
exit "$rc"
