#!/usr/bin/env bash
# Runs the integration tests (built here by scripts/build-devbin.sh into .devbin/tests/) on the
# GPU machine, one binary at a time, without the validation layer (not installed there), and
# prints a summary table last. Arguments name test binaries (default: all); TEST_ARGS adds
# arguments for every binary (e.g. "--ignored" for the GPU-only large cases).
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
[ ${#names[@]} -eq 0 ] && names=($(ls .devbin/tests))
summary=()
for t in "${names[@]}"; do
  start=$(date +%s)
  # shellcheck disable=SC2086
  out=$(".devbin/tests/$t" --test-threads=1 ${TEST_ARGS:-} 2>&1)
  rc=$?
  echo "$out" | grep -E "^test |panicked|FAILED|test result" | tail -n 40
  result=$(echo "$out" | grep "test result" | tail -n 1)
  summary+=("| $t | $rc | $(( $(date +%s) - start )) s | ${result:-no result} |")
done
echo
echo "| tests | exit | time | result |"
echo "|---|---|---|---|"
printf '%s\n' "${summary[@]}"
