#!/usr/bin/env bash
# Builds every CUDA baseline of bench/cuda here (no GPU needed: nvcc from
# scripts/cuda-toolchain.sh, the release the GPU machine has) and packs them into
# .cuda/cuda-bench.tar.xz (git-ignored). Name .cuda in the device tool's `carry`: bench/gpu_setup.sh
# unpacks it there and the bench/gpu_*.sh scripts run the binaries instead of compiling.
# The flags are those the scripts' cuda_build calls pass.
#
# Environment: NVCC (default: scripts/cuda-toolchain.sh's), ARCH (default sm_90), JOBS (2),
# CUCO (cuCollections, default ../shared/third_party/cuco: the vendored snapshot).
set -euo pipefail
cd "$(dirname "$0")/.."
NVCC="${NVCC:-$(scripts/cuda-toolchain.sh)}"
ARCH="${ARCH:-sm_90}"
CUCO="${CUCO:-../shared/third_party/cuco}"
lib="$(dirname "$(dirname "$NVCC")")/lib"
out=build/cuda-bench
mkdir -p "$out" .cuda
# name, extra flags (as the scripts' cuda_build lines).
builds=(
  "cub_bench"
  "reduce_bench"
  "scan_typed_bench"
  "histogram_bench"
  "select_bench"
  "reduce_by_key_bench"
  "segmented_sort_bench"
  "merge_bench -I bench/cuda"
  "hash_bench"
  "multisplit_bench"
  "set_bench"
  "lbvh_cuda -Xcompiler -ffp-contract=off"
  "cuco_bench --expt-extended-lambda -I bench/cuda -I $CUCO/include"
  "cuco_join --expt-extended-lambda -I bench/cuda -I $CUCO/include"
)
build_one() {
  local name=${1%% *} flags=""
  [ "$1" != "$name" ] && flags=${1#* }
  local t0=$SECONDS
  # shellcheck disable=SC2086
  "$NVCC" -O3 -std=c++17 -arch="$ARCH" $flags -L"$lib" -o "$out/$name" "bench/cuda/$name.cu"
  echo "built $name in $((SECONDS - t0)) s"
}
export -f build_one
export NVCC ARCH lib out
printf '%s\n' "${builds[@]}" | xargs -d '\n' -P "${JOBS:-2}" -n 1 bash -c 'build_one "$0"'
tar -cJf .cuda/cuda-bench.tar.xz -C "$out" "${builds[@]%% *}"
ls -la .cuda/cuda-bench.tar.xz
