#!/usr/bin/env bash
# A/B run of two benchmark builds on the GPU machine, every algorithm at its default sizes:
# per algorithm the order A B B A (so drift of the machine shows as a difference between the
# two runs of one build), each run its own process; then one table of every RESULT row with
# each build's median and the ratio B/A. Run from the repository root.
#
#   bash bench/gpu_ab.sh .vx/ab/bench-old .vx/ab/bench-new [ALGORITHM...]
#
# Environment: OUT (output folder, default /tmp/out), BUDGET (seconds; no run starts after it,
# default 480), RUN_TIMEOUT (seconds per run, default 150).
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
    timeout "${RUN_TIMEOUT:-150}" "$bin" "$alg" >> "$OUT/ab-$who-$alg.txt" 2>&1 \
      || echo "exit status $?" >> "$OUT/ab-$who-$alg.txt"
    echo "$alg $who: $((SECONDS - t0)) s"
  done
done
python3 - "$OUT" "${algorithms[@]}" <<'PY'
import statistics, sys, os, collections
out, algorithms = sys.argv[1], sys.argv[2:]
rows = collections.OrderedDict()
for alg in algorithms:
    for who in "AB":
        path = os.path.join(out, f"ab-{who}-{alg}.txt")
        if not os.path.exists(path):
            continue
        for line in open(path):
            if not line.startswith("RESULT\t"):
                continue
            f = line.rstrip("\n").split("\t")
            if len(f) < 6:
                continue
            key = (f[2], f[3], f[4])
            rows.setdefault(key, {"A": [], "B": []})[who].append(float(f[5]))
print("| algorithm | variant | N | A ms (median) | B ms (median) | B / A | runs |")
print("|---|---|---|---:|---:|---:|---|")
ratios = []
for (alg, variant, n), t in rows.items():
    if not t["A"] or not t["B"]:
        continue
    ma, mb = statistics.median(t["A"]), statistics.median(t["B"])
    r = mb / ma if ma > 0 else float("nan")
    ratios.append(r)
    print(f"| {alg} | {variant} | {n} | {ma:.4f} | {mb:.4f} | {r:.3f} | {len(t['A'])}+{len(t['B'])} |")
if ratios:
    g = statistics.geometric_mean([r for r in ratios if r > 0])
    print(f"\n{len(ratios)} rows; B / A geometric mean {g:.4f}, min {min(ratios):.3f}, max {max(ratios):.3f}")
PY
grep -h "exit status\|panicked\|WRONG\|error" "$OUT"/ab-*.txt | sort | uniq -c | head -20
