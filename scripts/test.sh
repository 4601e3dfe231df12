#!/usr/bin/env bash
# The one test command (README.md; .ci/run calls it): installs the system packages it needs
# when missing, then checks formatting and lints, runs the Rust tests on the Vulkan device
# (lavapipe without a GPU) with validation on, under several lavapipe thread counts and
# subgroup sizes, checks the committed C header, and builds + installs the CMake package and
# runs the C/C++ tests against the installed package.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(mesa-vulkan-drivers libvulkan1 libvulkan-dev vulkan-validationlayers libshaderc-dev cmake pkg-config
  glslc libpng-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

step() { echo; echo "=== $* ($(date +%T))"; }

# pyroaring (CRoaring's Python binding, from PyPI) for the Roaring interchange test of
# tests/set.rs, which fails without it when VKALGO_REQUIRE_PYROARING=1.
if ! python3 -c "import pyroaring" 2>/dev/null; then
  step "installing pyroaring"
  if ! python3 -m pip --version >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-pip
  fi
  python3 -m pip install --quiet pyroaring 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages pyroaring
fi
export VKALGO_REQUIRE_PYROARING=1

step "format and lints"
for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    rustup component add "$component"
  fi
done
cargo fmt --check
cargo clippy --release --all-targets -- -D warnings

# GPU tests run one at a time (two Vulkan processes or more lavapipe threads than cores slow
# spinning kernels down badly). Every test enables the validation layer with synchronization
# validation and fails on any message. The header drift check is a unit test.
step "Rust tests (default lavapipe settings)"
cargo test --release -- --test-threads=1

# lavapipe_variants TEST "THREAD COUNTS" "VECTOR WIDTHS" [test args...]: runs one test file under
# each LP_NUM_THREADS, then each LP_NATIVE_VECTOR_WIDTH (subgroup size = width / 32).
lavapipe_variants() {
  local test=$1 threads_list=$2 widths=$3
  shift 3
  for threads in $threads_list; do
    step "$test tests, LP_NUM_THREADS=$threads"
    LP_NUM_THREADS=$threads cargo test --release --test "$test" -- --test-threads=1 "$@"
  done
  for width in $widths; do
    step "$test tests, LP_NATIVE_VECTOR_WIDTH=$width (subgroup size $((width / 32)))"
    LP_NATIVE_VECTOR_WIDTH=$width cargo test --release --test "$test" -- --test-threads=1 "$@"
  done
}

lavapipe_variants scan "1 4" "128 512"

# The sort's look-back waits on other workgroups: every lavapipe thread count and subgroup
# size the issue names (the 2^22 case is in the default run above).
lavapipe_variants sort "1 2 4" "128 256 512" --skip large_sort_once

step "Rust example: Morton codes sorted with their indices"
cargo run --release --example morton_sort 100000

lavapipe_variants hash "1 4" "128 512"

# Merge, set operations, merge sort (the 2^21 + 2^21 merge is in the default run above).
lavapipe_variants merge "1 4" "128 512" --skip large_merge_once

# Sets: the model sequences, in-place operations and the CRoaring exchange run in the default
# run only (the variants keep CI time down).
lavapipe_variants set "1 4" "128 512" --skip model_random --skip in_place --skip roaring_interchange --skip ops_against

# Multisplit: no inter-workgroup waiting; two thread counts and subgroup sizes 4 and 16 (the
# 2^22 case is in the default run).
lavapipe_variants split "1 4" "128 512" --skip large_split_once

step "Rust example: delta-stepping shortest paths with multisplit buckets, checked against Dijkstra"
cargo run --release --example delta_stepping 20000 8 40

step "CMake package + C/C++ tests against the installed package"
scripts/ffi-test.sh

step "LBVH example (examples/lbvh) against the installed package, checked independently"
examples/lbvh/test.sh build/prefix

step "all tests passed"
