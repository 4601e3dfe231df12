#!/usr/bin/env bash
# Hash-map benchmark on the GPU machine: the CUDA baselines (the linear-probing table of
# bench/cuda/hash_bench.cu and cuCollections, bench/cuda/cuco_bench.cu: prebuilt by
# bench/build_cuda.sh, else built here, cuco then from a carried .cuco/), `vkalgo-bench hash`,
# all in one command, and the comparison (bench/compare.py hash) last. Run from the repository root. Arguments
# are passed to `vkalgo-bench hash` after VK_ARGS (a later option wins).
#
# Environment:
#   OUT           output folder (default /tmp/out): cuda_lp.txt, vkalgo.txt, table.md
#   VKALGO_BENCH  the vkalgo-bench binary (default .devbin/vkalgo-bench)
#   CUDA_SRC      the CUDA source (default bench/cuda/hash_bench.cu)
#   COMPARE       the comparison script (default bench/compare.py hash)
#   LP_ARGS       arguments of the linear-probing CUDA table, bench/cuda/hash_bench.cu (default
#                 empty: not run; cuCollections is the yardstick; e.g. "26 10 27 22 0.95")
#   CUCO_RUNS     cuco_bench runs, ';'-separated (default "map 27 0.5,0.8 10;apply 26 27
#                 0,10,20,26 10;multimap 24 4 25 10"; empty: none)
#   VK_ARGS       options of `vkalgo-bench hash` that run cuco_bench's workloads of the default
#                 CUCO_RUNS (default "--log2cap 27 --loads 0.5,0.8 --reps 10 --log2n 26
#                 --apply-distinct 0,10,20,26 --multimap 4 --multimap-log2n 24
#                 --multimap-log2cap 25 --no-sweep --no-churn": per load L, L * 2^27 keys in a
#                 map of 2^27 slots; the group-by of 2^26 keys into 2^27 slots; 2^24 multimap
#                 pairs in 2^25 slots; the load sweep and the churn are on the device page)
#   ARCH          nvcc target (default sm_90)
#   HASH_TESTS    the hash integration-test binary (built here with
#                 `cargo test --release --test hash --no-run`: target/release/deps/hash-<hash>,
#                 carried e.g. as .devbin/hash-tests); when set, it runs first on the GPU with
#                 the ignored large test included (one batch of 2^31 + 5 keys in a map of
#                 2^31 - 12 slots: about 35 GiB of device and 60 GiB of host memory), output in
#                 $OUT/hash-tests.txt
set -euo pipefail

VKALGO_BENCH="${VKALGO_BENCH:-.devbin/vkalgo-bench}"
CUDA_SRC="${CUDA_SRC:-bench/cuda/hash_bench.cu}"
COMPARE="${COMPARE:-bench/compare.py}"
LP_ARGS="${LP_ARGS:-}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"

tests_rc=0
if [ -n "${HASH_TESTS:-}" ]; then
  VKALGO_TEST_NO_VALIDATION=1 "$HASH_TESTS" --include-ignored --test-threads=1 2>&1 \
    | tee "$OUT/hash-tests.txt" || tests_rc=$?
fi

[ -n "$LP_ARGS" ] && cuda_build hash_bench "$CUDA_SRC"
CUCO_RUNS="${CUCO_RUNS-map 27 0.5,0.8 10;apply 26 27 0,10,20,26 10;multimap 24 4 25 10}"
cuco_rc=0
: > "$OUT/cuco.txt"
if [ -n "$CUCO_RUNS" ]; then
  cuda_build cuco_bench bench/cuda/cuco_bench.cu --expt-extended-lambda -I bench/cuda -I .cuco/include
  IFS=';' read -ra runs <<< "$CUCO_RUNS"
  for run in "${runs[@]}"; do
    t0=$SECONDS
    # shellcheck disable=SC2086
    /tmp/cuco_bench $run | tee -a "$OUT/cuco.txt" || cuco_rc=$?
    echo "cuco_bench $run: $((SECONDS - t0)) s"
  done
fi

lp_rc=0
: > "$OUT/cuda_lp.txt"
if [ -n "$LP_ARGS" ]; then
  t0=$SECONDS
  # LP_ARGS is split into separate arguments on purpose.
  # shellcheck disable=SC2086
  /tmp/hash_bench $LP_ARGS | tee "$OUT/cuda_lp.txt" || lp_rc=$?
  echo "hash_bench: $((SECONDS - t0)) s"
fi

VK_ARGS="${VK_ARGS-"--log2cap 27 --loads 0.5,0.8 --reps 10 --log2n 26 --apply-distinct 0,10,20,26 --multimap 4 --multimap-log2n 24 --multimap-log2cap 25 --no-sweep --no-churn"}"
vk_rc=0
# VK_ARGS is split into separate arguments on purpose.
# shellcheck disable=SC2086
t0=$SECONDS
"$VKALGO_BENCH" hash $VK_ARGS "$@" | tee "$OUT/vkalgo.txt" || vk_rc=$?
echo "vkalgo-bench hash: $((SECONDS - t0)) s"

echo
python3 "$COMPARE" hash "$OUT/cuda_lp.txt" "$OUT/cuco.txt" "$OUT/vkalgo.txt" | tee "$OUT/table.md"
[ "$lp_rc" -eq 0 ] || echo "hash_bench exited with status $lp_rc" >&2
[ "$cuco_rc" -eq 0 ] || echo "cuco_bench exited with status $cuco_rc" >&2
[ "$vk_rc" -eq 0 ] || echo "vkalgo-bench exited with status $vk_rc" >&2
[ "$tests_rc" -eq 0 ] || echo "the hash tests exited with status $tests_rc" >&2
exit $((lp_rc | cuco_rc | vk_rc | tests_rc))
