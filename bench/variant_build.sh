#!/usr/bin/env bash
# Builds a benchmark binary with an experimental change, for an A/B run on the GPU machine
# (bench/gpu_variants.sh): applies PATCH (a `git diff` of the working tree) to a clean tree,
# builds `vkalgo-bench` in release mode, copies it to .devbin/bench-NAME and reverts the patch.
# Without a patch, builds the current tree as the baseline. Run from the repository root.
#
#   bench/variant_build.sh base
#   bench/variant_build.sh split2 /tmp/split2.patch
set -euo pipefail

name="$1"
patch="${2:-}"
mkdir -p .devbin
if [ -n "$patch" ]; then
  git apply --check "$patch"
  git apply "$patch"
  trap 'git apply -R "$patch"' EXIT
fi
cargo build --release --bin vkalgo-bench
cp target/release/vkalgo-bench ".devbin/bench-$name"
echo "built .devbin/bench-$name"
