#!/usr/bin/env bash
# Runs the integration tests (built here by scripts/build-devbin.sh into .devbin/tests/) on the
# GPU machine, one binary at a time, without the validation layer (not installed there), and
# prints a summary table last. Arguments name test binaries (default: all); TEST_ARGS adds
# arguments for every binary (e.g. "--ignored" for the GPU-only large cases). With OUT set (the
# device tool's output folder), each binary's whole output goes to $OUT/tests/<name>.txt and
# the table, row by row as binaries finish, to $OUT/tests/summary.md, so that a command that
# runs out of time still brings back what finished.
set -uo pipefail
if [ -f .devpack/devbin.tar.xz ]; then
  tar -xJf .devpack/devbin.tar.xz
fi
if [ -d .gl ]; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
export VKALGO_TEST_NO_VALIDATION=1
names=("$@")
[ ${#names[@]} -eq 0 ] && mapfile -t names < <(ls .devbin/tests)
summary=()
log_dir=""
if [ -n "${OUT:-}" ]; then
  log_dir="$OUT/tests"
  mkdir -p "$log_dir"
  printf '| tests | exit | time | result |\n|---|---|---|---|\n' > "$log_dir/summary.md"
fi
for t in "${names[@]}"; do
  start=$(date +%s)
  # shellcheck disable=SC2086
  out=$(".devbin/tests/$t" --test-threads=1 ${TEST_ARGS:-} 2>&1)
  rc=$?
  [ -n "$log_dir" ] && printf '%s\n' "$out" > "$log_dir/$t.txt"
  echo "$out" | grep -E "^test |panicked|FAILED|test result" | tail -n 40
  result=$(echo "$out" | grep "test result" | tail -n 1)
  summary+=("| $t | $rc | $(( $(date +%s) - start )) s | ${result:-no result} |")
  [ -n "$log_dir" ] && printf '%s\n' "${summary[-1]}" >> "$log_dir/summary.md"
done
echo
echo "| tests | exit | time | result |"
echo "|---|---|---|---|"
printf '%s\n' "${summary[@]}"
