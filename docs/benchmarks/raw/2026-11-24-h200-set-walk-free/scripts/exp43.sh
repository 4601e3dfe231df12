#!/usr/bin/env bash
# Final candidates: k (95ed34b: small pairs load in 16-byte vectors) and m (k + the medium pairs and
# the chunk kernel load their lists in 16-byte vectors). Set tests and the whole set benchmark with
# its baselines for m, then head (27e2f4c), k and m alternating twice.
set -uo pipefail
. bench/gpu_setup.sh >/dev/null 2>&1
for v in head k m; do xz -dc .vx/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
xz -dc .vx/set-tests.xz > /tmp/set-tests; chmod +x /tmp/set-tests
SET_TESTS=/tmp/set-tests VKALGO_BENCH=/tmp/bench-m bash bench/gpu_set.sh > $OUT/set-all.txt 2>&1
VKALGO_PIPELINE_STATS=1 /tmp/bench-m set --log2n 16 --reps 1 --cases sparse 2>&1 | grep "pipeline statistics" | grep -E "set_" > $OUT/stats-m.txt
R=$OUT/exp43.txt
{
for r in 1 2; do
  for v in head k m; do
    /tmp/bench-$v set --log2n 24 --reps 10 --cases sparse,clustered,dense | grep RESULT | sed "s/^RESULT/RESULT\t$v/"
  done
done
} > $R 2>&1
grep -E "test result" $OUT/set-all.txt
grep -ciE "panicked|wrong|error" $R
awk -F'\t' '$1=="RESULT" {k=$4"|"$5; s[k" "$2]+=$7; c[k" "$2]++} END {for (k in s) printf "%s %.4f\n", k, s[k]/c[k]}' $R | sort > $OUT/avg.txt
awk '{split($1,a,"|"); key=a[1]"|"a[2]; v[key" "$2]=$3; keys[key]=1} END {for (k in keys) printf "%-34s head %.4f k %.4f m %.4f  k x%.3f m x%.3f\n", k, v[k" head"], v[k" k"], v[k" m"], v[k" head"]/v[k" k"], v[k" head"]/v[k" m"]}' $OUT/avg.txt | sort | grep -v "memory_ratio\|copy_"
grep -E "^\| set_" $OUT/table.md | grep -E "thrust|flat_bitmap|croaring set_(and|or|xor|andnot)(_cardinality)? " | grep -v "cuda flat_and\|cuda flat_or"
