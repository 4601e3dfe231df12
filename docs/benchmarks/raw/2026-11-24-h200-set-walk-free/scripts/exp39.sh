#!/usr/bin/env bash
# Final set build (h: lean small-pair walk, pools read once, old chunks freed by whole workgroups):
# set tests and the whole set benchmark with its baselines, then head vs h alternating.
set -uo pipefail
. bench/gpu_setup.sh >/dev/null 2>&1
for v in head h; do xz -dc .vx/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
xz -dc .vx/set-tests.xz > /tmp/set-tests; chmod +x /tmp/set-tests
SET_TESTS=/tmp/set-tests VKALGO_BENCH=/tmp/bench-h bash bench/gpu_set.sh > $OUT/set-all.txt 2>&1
VKALGO_PIPELINE_STATS=1 /tmp/bench-h set --log2n 16 --reps 1 --cases sparse 2>&1 | grep "pipeline statistics" | grep -E "small_pairs|chunk_update|array_pairs|bitmap_pairs|trivial" > $OUT/stats-h.txt
R=$OUT/exp39.txt
{
for r in 1 2; do
  for v in head h; do
    /tmp/bench-$v set --log2n 24 --reps 10 --cases sparse,clustered,dense | grep RESULT | sed "s/^RESULT/RESULT\t$v/"
  done
done
} > $R 2>&1
cat $OUT/stats-h.txt
grep -E "test result" $OUT/set-all.txt
grep -ciE "panicked|wrong|error" $R
awk -F'\t' '$1=="RESULT" {k=$4"|"$5; s[k" "$2]+=$7; c[k" "$2]++} END {for (k in s) printf "%s %.4f\n", k, s[k]/c[k]}' $R | sort > $OUT/avg.txt
awk '{split($1,a,"|"); key=a[1]"|"a[2]; v[key" "$2]=$3; keys[key]=1} END {for (k in keys) printf "%-34s head %.4f h %.4f  x%.3f\n", k, v[k" head"], v[k" h"], v[k" head"]/v[k" h"]}' $OUT/avg.txt | sort | grep -v "memory_ratio\|copy_"
grep -E "^\| set_" $OUT/table.md | grep -v "cuda flat"
