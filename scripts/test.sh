#!/usr/bin/env bash
# The one test command (README.md; .ci/run calls it): installs the system packages it needs
# when missing, then checks formatting and lints, runs the Rust tests on the Vulkan device
# (lavapipe without a GPU) with validation on, under several lavapipe thread counts and
# subgroup sizes, checks the generated files (C header, precompiled SPIR-V), packages the crate,
# and builds + installs the CMake package and runs the C/C++ tests against the installed package.
set -euo pipefail
cd "$(dirname "$0")/.."

# Building the library needs none of them: glslc regenerates the precompiled shaders (the drift
# check below), libshaderc-dev and g++ make the shaderc library the GLSL bucket-function tests
# load (scripts/shaderc-shared.sh), the rest run the tests, the CMake package and the examples.
packages=(mesa-vulkan-drivers libvulkan1 libvulkan-dev vulkan-validationlayers libshaderc-dev cmake pkg-config
  glslc g++ libpng-dev)
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

# pyroaring 1.2.0 (CRoaring 5.2.2's Python binding, from PyPI) for the Roaring interchange test of
# tests/set/ (roaring::roaring_interchange_with_croaring), which fails without it when
# VKALGO_REQUIRE_PYROARING=1.
if ! python3 -c "import pyroaring" 2>/dev/null; then
  step "installing pyroaring"
  if ! python3 -m pip --version >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-pip
  fi
  python3 -m pip install --quiet pyroaring==1.2.0 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages pyroaring==1.2.0
fi
export VKALGO_REQUIRE_PYROARING=1

step "format and lints"
for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    rustup component add "$component"
  fi
done
cargo fmt --all --check
cargo clippy --release --workspace --all-targets -- -D warnings
# The library alone, without the `bench` feature the benchmark turns on in the workspace build.
cargo clippy --release -p vkalgo --all-targets -- -D warnings

step "generated files: the precompiled SPIR-V against glsl/ (the C header: a unit test below)"
cargo xtask shaders --check

step "the published crate: no shader compiler or cbindgen, packages and builds alone, docs without shaderc"
if cargo tree -p vkalgo -e normal,build | grep -E 'shaderc|cbindgen'; then
  echo "error: the vkalgo crate depends on a shader compiler or cbindgen (above)" >&2
  exit 1
fi
package_files=$(cargo package -p vkalgo --list --allow-dirty | wc -l)
echo "cargo package -p vkalgo: $package_files files"
if [ "$package_files" -ge 400 ]; then
  echo "error: the package holds $package_files files (limit 400): check the include list" >&2
  exit 1
fi
cargo package -p vkalgo --allow-dirty  # builds the packaged crate in isolation
DOCS_RS=1 RUSTDOCFLAGS="-D warnings" cargo doc -p vkalgo --no-deps

# The GLSL bucket-function tests load shaderc at run time; Debian 12's own libshaderc.so.1 cannot
# be loaded by programs other than glslc, so they load one linked from libshaderc-dev.
VKALGO_SHADERC_LIBRARY=$(scripts/shaderc-shared.sh)
export VKALGO_SHADERC_LIBRARY

# GPU tests on lavapipe. Every test enables the validation layer with synchronization
# validation and fails on any message; the header drift check is a unit test. Each test binary
# runs under every configuration the issues name: subgroup sizes 8 (LP_NATIVE_VECTOR_WIDTH=256,
# pinned), 4 (128) and 16 (512), and lavapipe thread counts 1 and 4.
#
# Time here is mostly lavapipe compiling pipelines (LLVM), once per vector width: Mesa's shader
# cache keeps what one run compiled for the next run at the same width. So the jobs run two at
# a time (each with LP_NUM_THREADS=1, so two jobs never ask for more threads than the two
# cores: spinning kernels slow down badly past that), the longest first, and the runs with 4
# threads come last, one at a time, when the cache holds their pipelines.
step "Rust unit and doc tests"
LP_NATIVE_VECTOR_WIDTH=256 cargo test --release --workspace --lib --bins -- --test-threads=1
LP_NATIVE_VECTOR_WIDTH=256 cargo test --release --doc -- --test-threads=1

step "building the integration test binaries"
cargo test --release --tests --no-run  # fails here, with the compiler's messages, on an error
declare -A test_bin
while IFS=$'\t' read -r name path; do
  test_bin[$name]=$path
done < <(cargo test --release --tests --no-run --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "test" in m["target"]["kind"] \
            and m["target"]["name"] != "vkalgo":
        print(m["target"]["name"] + "\t" + m["executable"])
')
# The algorithms' test binaries run under every configuration, every other test binary
# (tests/*.rs) once.
variant_tests=(sort split merge set hash scan reduce histogram select reduce_by_key segmented_sort)
for t in "${variant_tests[@]}"; do
  [ -n "${test_bin[$t]:-}" ] || { echo "error: no test binary for tests/$t/" >&2; exit 1; }
done

# Tests each variant run skips (by name prefix: <layer>::<test>): the 2^21-2^22 cases run once,
# at subgroup size 8, and so do the multisplit's impure-bucket-function cases (canary words on
# every path: about 280 s a run); the sets' model sequences, in-place operations, results over
# old blocks, run chunks, CRoaring exchange, the cardinality batches, packed sets (the longest
# set test: the kernels it reads packed sets with run in the other tests too), the host's
# cardinality cache, the pools' shrink (block moves: about 100 s at width 256, 230 s at 512 with
# a cold shader cache), the C record layer (30 s and 160 s; the Rust record layer's tests
# run the same kernels) and the comparisons against the model (about 85 s at width 512 on a
# busy machine; their XOR and ANDNOT cardinalities run in the path tests) too, and so do the
# order statistics' cases but the small sets' and the record layer's (about 90 s a run at width
# 512; those two run the same kernels, the minima and maxima's subgroup steps included), their
# C calls, the caller's shader (its lookups have no subgroup steps), and the many-set calls (host
# compositions of the kernels the other tests run).
declare -A variant_skips=(
  [sort]="--skip host::large_sort_once"
  [merge]="--skip host::large_merge_once"
  [split]="--skip host::large_split_once --skip impure::inconsistent_bucket_fn"
  [set]="--skip host::model_random --skip host::in_place --skip roaring::roaring_interchange --skip host::ops_against
    --skip host::results_over_destination --skip runs::run_chunks --skip runs::cardinality_batch --skip packed::packed_sets
    --skip host::cardinality_known_on_the_host --skip host::shrink_to_fit_moves_blocks --skip c_abi::record_layer
    --skip compare::equals_and_subset_against_the_model --skip order::order_exhaustive_chunks
    --skip order::order_full_set --skip order::order_every_kind --skip c_abi_order::
    --skip user_shader:: --skip many::"
)
# With four lavapipe threads workgroups run at once: the tests of what workgroups share (look-back
# scans, Onesweep's ring and fallback, the multisplit's look-back and tile paths, the set
# operations' look-back and one-pass paths, the sets' one-pass cardinalities and filter); scan
# and hash run whole.
declare -A threads4_tests=(
  [sort]="onesweep::forced_fallback_and_ring_wrap host::u32_every_path_size_and_distribution
    host::every_key_type_with_special_values_both_directions record::offsets_indirect_counts_and_result_location"
  [split]="paths::onesweep_path paths::matrix_scanned_by_lookback paths::staged_tile_path paths::subgroup_staged_tile_path
    host::every_bucket_fn_bucket_count_and_size record::offsets_indirect_counts_and_status"
  [merge]="set_ops::lookback_path host::merge_both_paths_around_tiles host::merge_sort_every_key_type
    record::set_ops_indirect_counts"
  [set]="paths::op_paths paths::one_pass_and_counting_paths paths::one_kernel_counts_what_the_pair_kernels_count
    paths::filter_paths record::recorded_exhaustion_writes_nothing record::end_to_end"
)
for t in "${!threads4_tests[@]}"; do
  list=$("${test_bin[$t]}" --list 2>/dev/null)
  for name in ${threads4_tests[$t]}; do
    grep -qx "$name: test" <<< "$list" || { echo "error: threads4_tests names $name, not a test of tests/$t/" >&2; exit 1; }
  done
done
# The set tests that run once more without shaderInt16: those whose sets go through the small
# pairs' kernel (builds, inserts and removals, operations on array chunks, its copies), whose
# lists then are 32-bit words instead of u16 halves.
set_int16_tests="pairs::array_pairs_around_the_limits host::ops_against_model host::model_random_sequences
  host::build_contains_and_to_array paths::one_pass_inserts_and_removals host::in_place_operations
  record::batched_operations pairs::int16_lists_follow_the_device_and_environment pairs::copies_many_per_workgroup
  pairs::small_pairs_many_per_workgroup pairs::small_pairs_values_equal_mod_8192 pairs::one_sided_chunks_copied"
set_list=$("${test_bin[set]}" --list 2>/dev/null)
for name in $set_int16_tests; do
  grep -qx "$name: test" <<< "$set_list" || { echo "error: set_int16_tests names $name, not a test of tests/set/" >&2; exit 1; }
done
job_logs=$(mktemp -d)
jobs_file=$job_logs/jobs
# add_job SECONDS TEST "ENV ASSIGNMENTS" [skip|int16|threads4]: one run of a test binary (skip:
# the variant skips; int16: only the tests of set_int16_tests; threads4: only those of
# threads4_tests, where it names any), expected to take about SECONDS on
# CI (cold shader cache, two jobs at a time; the CI log of 2026-11-28).
add_job() {
  local args="--test-threads=1"
  case "${4:-}" in
    skip) args="$args $(echo ${variant_skips[$2]:-})" ;;  # one line: the jobs file has a line per job
    int16) args="$args --exact $(echo $set_int16_tests)" ;;
    threads4) [ -n "${threads4_tests[$2]:-}" ] && args="$args --exact $(echo ${threads4_tests[$2]})" ;;
  esac
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${test_bin[$2]}" "$args" >> "$jobs_file"
}
declare -A seconds_first=([set]=530 [split]=127 [sort]=60 [merge]=19 [hash]=18 [scan]=70 [reduce]=8 [histogram]=35 [select]=12 [reduce_by_key]=60 [segmented_sort]=60)
declare -A seconds_variant=([set]=420 [split]=110 [sort]=55 [merge]=16 [hash]=21 [scan]=85 [reduce]=8 [histogram]=35 [select]=30 [reduce_by_key]=85 [segmented_sort]=27)
for t in "${variant_tests[@]}"; do
  add_job "${seconds_first[$t]}" "$t" "LP_NATIVE_VECTOR_WIDTH=256 LP_NUM_THREADS=1"
  add_job "${seconds_variant[$t]}" "$t" "LP_NATIVE_VECTOR_WIDTH=128 LP_NUM_THREADS=1" skip
  add_job "${seconds_variant[$t]}" "$t" "LP_NATIVE_VECTOR_WIDTH=512 LP_NUM_THREADS=1" skip
done
# The binaries run once that take much longer than most.
declare -A seconds_once=([set64]=90)
for t in $(printf '%s\n' "${!test_bin[@]}" | sort); do
  [[ " ${variant_tests[*]} " == *" $t "* ]] || add_job "${seconds_once[$t]:-15}" "$t" "LP_NATIVE_VECTOR_WIDTH=256 LP_NUM_THREADS=1"
done
# The sets once more without shaderInt16 (lavapipe has it): the small pairs' 32-bit-word lists.
add_job 150 set "LP_NATIVE_VECTOR_WIDTH=256 LP_NUM_THREADS=1 VKALGO_SHADER_INT16=off" int16
# Longest first, so that the two workers finish together (the set runs take most of the time).
sort -t $'\t' -k1,1nr -o "$jobs_file" "$jobs_file"
if awk -F'\t' 'NF != 5 { bad = 1 } END { exit !bad }' "$jobs_file"; then
  echo "error: a job line of $jobs_file does not have its five fields:" >&2
  cat "$jobs_file" >&2
  exit 1
fi

# run_job LINE: runs one job line, its output into its own log; prints one line (and the
# whole log on failure).
run_job() {
  local seconds name env bin args
  IFS=$'\t' read -r seconds name env bin args <<< "$1"
  local log
  log="$JOB_LOGS/$name $(echo "$env" | tr ' =' '_-').log"
  local start=$SECONDS
  # Each job its own validation-layer cache (two processes must not write one file); Mesa's
  # shader cache is shared (it is safe for concurrent processes).
  local cache
  cache=$(mktemp -d "$JOB_LOGS/cache.XXXX")
  # shellcheck disable=SC2086
  if env XDG_CACHE_HOME="$cache" MESA_SHADER_CACHE_DIR="$MESA_CACHE" $env "$bin" $args > "$log" 2>&1; then
    echo "ok     $(( SECONDS - start ))s  $name  $env  $(grep 'test result' "$log" | tail -n 1)"
  else
    echo "FAILED $(( SECONDS - start ))s  $name  $env"
    cat "$log"
    return 1
  fi
}
export -f run_job
export JOB_LOGS=$job_logs
export MESA_CACHE="${MESA_SHADER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mesa_shader_cache}"

step "Rust integration tests: $(wc -l < "$jobs_file") runs, two at a time"
xargs -d '\n' -P 2 -n 1 bash -c 'run_job "$0"' < "$jobs_file"

step "Rust integration tests with LP_NUM_THREADS=4 (pipelines from the shader cache; what workgroups share)"
: > "$jobs_file"
for t in "${variant_tests[@]}"; do
  add_job 0 "$t" "LP_NATIVE_VECTOR_WIDTH=256 LP_NUM_THREADS=4" threads4
done
xargs -d '\n' -P 1 -n 1 bash -c 'run_job "$0"' < "$jobs_file"
rm -rf "$job_logs"

step "Rust example: Morton codes sorted with their indices"
cargo run --release --example morton_sort 100000

step "Rust example: delta-stepping shortest paths with multisplit buckets, checked against Dijkstra"
cargo run --release --example delta_stepping 20000 8 40

step "Rust example: a hash join (multimap build, count, retrieve, pairs) and group-by, checked against the CPU"
cargo run --release --example hash_join -- --log2r 12 --log2s 14

step "Rust example: a particle system's frame (compact, sort by cell, run-length encode, scan), checked against the CPU"
cargo run --release --example particles -- 50000 3

step "large-count checks at 2^16 + 5 (the GPU machine runs them at 2^31 + 5; their self-tests ran with the integration tests above)"
# The checks are the #[ignore]d tests of crates/vkalgo-bench/tests/large_*.rs; each has a
# normal self-test (every result corrupted: every check must fail), run in the step above.
large_tests=$(cd crates/vkalgo-bench/tests && printf -- '--test %s ' $(ls large_*.rs | sed 's/\.rs$//'))
# shellcheck disable=SC2086
LP_NATIVE_VECTOR_WIDTH=256 VKALGO_LARGE_COUNT=2^16+5 cargo test --release -p vkalgo-bench $large_tests \
  -- --ignored --test-threads=1 2>&1 | grep -v '^RESULT'

step "CMake package + C/C++ tests against the installed package"
scripts/ffi-test.sh

step "LBVH example (examples/lbvh) against the installed package, checked independently"
examples/lbvh/test.sh build/prefix

step "all tests passed"
