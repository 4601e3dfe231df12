#!/usr/bin/env bash
# o (review mends: free_chunk_slots shared by both frees, pool_ring_id) vs n (234f9b6); set tests with o first.
set -uo pipefail
. bench/gpu_setup.sh >/dev/null 2>&1
for v in n o; do xz -dc .vx/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
xz -dc .vx/set-tests.xz > /tmp/set-tests; chmod +x /tmp/set-tests
VKALGO_TEST_NO_VALIDATION=1 /tmp/set-tests --test-threads=1 > $OUT/set_tests.txt 2>&1
R=$OUT/exp45.txt
{
for r in 1 2; do
  for v in n o; do
    /tmp/bench-$v set --log2n 24 --reps 10 --cases sparse,clustered,dense | grep RESULT | sed "s/^RESULT/RESULT\t$v/"
  done
done
} > $R 2>&1
VKALGO_PIPELINE_STATS=1 /tmp/bench-o set --log2n 16 --reps 1 --cases sparse 2>&1 | grep "pipeline statistics" | grep -E "small_pairs|medium|chunk_update" > $OUT/stats-o.txt
cat $OUT/stats-o.txt | cut -c1-110
grep -E "test result" $OUT/set_tests.txt
grep -ciE "panicked|wrong|error" $R
awk -F'\t' '$1=="RESULT" {k=$4"|"$5; s[k" "$2]+=$7; c[k" "$2]++} END {for (k in s) printf "%s %.4f\n", k, s[k]/c[k]}' $R | sort > $OUT/avg.txt
awk '{split($1,a,"|"); key=a[1]"|"a[2]; v[key" "$2]=$3; keys[key]=1} END {for (k in keys) printf "%-34s n %.4f o %.4f  x%.3f\n", k, v[k" n"], v[k" o"], v[k" n"]/v[k" o"]}' $OUT/avg.txt | sort | grep -v "memory_ratio\|copy_"
