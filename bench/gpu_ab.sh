#!/usr/bin/env bash
# A/B run of two benchmark builds on the GPU machine, every algorithm at its default sizes:
# per algorithm the order A B B A (so drift of the machine shows as a difference between the
# two runs of one build), each run its own process; then one table of every RESULT row with
# each build's median and the ratio B/A. Run from the repository root.
#
#   bash bench/gpu_ab.sh .vx/ab/bench-old .vx/ab/bench-new [ALGORITHM...]
#
# Environment: OUT (output folder, default /tmp/out), BUDGET (seconds; no run starts after it,
# default 480), RUN_TIMEOUT (seconds per run, default 150), ARGS (options for every run after
# the algorithm's name, e.g. "--sizes 24,28 --cases rbk"; word-split).
set -uo pipefail

# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"
a="$1"
b="$2"
shift 2
algorithms=("$@")
[ ${#algorithms[@]} -gt 0 ] || algorithms=(scan sort hash merge set multisplit)
budget=${BUDGET:-480}
start=$SECONDS
for alg in "${algorithms[@]}"; do
  for who in A B B A; do
    if [ $((SECONDS - start)) -ge "$budget" ]; then
      echo "budget of ${budget}s spent: $alg $who not run" | tee -a "$OUT/ab-skipped.txt"
      continue
    fi
    bin=$a
    [ "$who" = B ] && bin=$b
    t0=$SECONDS
    # shellcheck disable=SC2086
    timeout "${RUN_TIMEOUT:-150}" "$bin" "$alg" ${ARGS:-} >> "$OUT/ab-$who-$alg.txt" 2>&1 \
      || echo "exit status $?" >> "$OUT/ab-$who-$alg.txt"
    echo "$alg $who: $((SECONDS - t0)) s"
  done
done
a_files=()
b_files=()
for alg in "${algorithms[@]}"; do
  a_files+=("$OUT/ab-A-$alg.txt")
  b_files+=("$OUT/ab-B-$alg.txt")
done
python3 "$(dirname "${BASH_SOURCE[0]}")/compare.py" ab --a "${a_files[@]}" --b "${b_files[@]}"
grep -h "exit status\|panicked\|WRONG\|error" "$OUT"/ab-*.txt | sort | uniq -c | head -20
