#!/usr/bin/env bash
# Runs the integration tests (built here by scripts/build-devbin.sh into .devbin/tests/) on the
# GPU machine, one binary at a time, without the validation layer (not installed there), and
# prints a summary table last. Arguments name test binaries (default: all); TEST_ARGS adds
# arguments for every binary (e.g. "--ignored" for the GPU-only large cases). The argument
# `large` names the large-count checks (crates/vkalgo-bench/tests/large_*.rs, run with
# --ignored: counts past 2^31, VKALGO_LARGE_COUNT to change it, see
# crates/vkalgo-bench/src/large/mod.rs); without it they run their self-tests only. With OUT set (the
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
# The shaderc library the GLSL bucket functions and select predicates load (packed by
# scripts/build-devbin.sh; it needs libshaderc1, carried in .gl).
if [ -f .devbin/lib/libshaderc_shared.so.1 ]; then
  export VKALGO_SHADERC_LIBRARY=$PWD/.devbin/lib/libshaderc_shared.so.1
fi
names=()
large_args=""
for a in "$@"; do
  if [ "$a" = large ]; then
    mapfile -t -O "${#names[@]}" names < <(cd .devbin/tests && ls large_*)
    large_args="--ignored"
  else
    names+=("$a")
  fi
done
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
  extra=""
  [[ $t == large_* ]] && extra=$large_args
  # shellcheck disable=SC2086
  out=$(".devbin/tests/$t" --test-threads=1 ${TEST_ARGS:-} $extra 2>&1)
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
