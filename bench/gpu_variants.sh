#!/usr/bin/env bash
# A/B run of benchmark variants on the GPU machine (built by bench/variant_build.sh): runs
# `.devbin/bench-NAME sort ARGS` for every NAME, in two alternating rounds, so drift of the
# machine shows as a difference between rounds, then prints every variant's table. Run from the
# repository root; compare rows only within one command.
#
#   bash bench/gpu_variants.sh "--types u32,pairs --sizes 24,26 --reps 15" base split2
#
# Environment: OUT (output folder, default /tmp/out).
set -uo pipefail

# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"
export VKALGO_TEST_NO_VALIDATION=1
args="$1"
shift
for round in 1 2; do
  for name in "$@"; do
    # ARGS is split into separate arguments on purpose.
    # shellcheck disable=SC2086
    timeout 300 ".devbin/bench-$name" sort $args > "$OUT/$name-$round.txt" 2>&1 \
      || echo "exit status $?" >> "$OUT/$name-$round.txt"
  done
done
for name in "$@"; do
  for round in 1 2; do
    echo "== $name, round $round"
    grep -E "^\| (u32|pairs|pairs64|u64|f32) |^exit status|error|panicked" "$OUT/$name-$round.txt"
  done
done
