#!/usr/bin/env bash
# n (m with the vector-word helpers shared: stream_vector, vector_value_word) vs m (acd3302); set tests with n first.
set -uo pipefail
. bench/gpu_setup.sh >/dev/null 2>&1
for v in m n; do xz -dc .vx/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
xz -dc .vx/set-tests.xz > /tmp/set-tests; chmod +x /tmp/set-tests
VKALGO_TEST_NO_VALIDATION=1 /tmp/set-tests --test-threads=1 > $OUT/set_tests.txt 2>&1
R=$OUT/exp44.txt
{
for r in 1 2; do
  for v in m n; do
    /tmp/bench-$v set --log2n 24 --reps 10 --cases sparse,clustered | grep RESULT | sed "s/^RESULT/RESULT\t$v/"
  done
done
} > $R 2>&1
VKALGO_PIPELINE_STATS=1 /tmp/bench-n set --log2n 16 --reps 1 --cases sparse 2>&1 | grep "pipeline statistics" | grep -E "small_pairs|medium|chunk_update" > $OUT/stats-n.txt
cat $OUT/stats-n.txt | cut -c1-110
grep -E "test result" $OUT/set_tests.txt
grep -ciE "panicked|wrong|error" $R
awk -F'\t' '$1=="RESULT" {k=$4"|"$5; s[k" "$2]+=$7; c[k" "$2]++} END {for (k in s) printf "%s %.4f\n", k, s[k]/c[k]}' $R | sort > $OUT/avg.txt
awk '{split($1,a,"|"); key=a[1]"|"a[2]; v[key" "$2]=$3; keys[key]=1} END {for (k in keys) printf "%-34s m %.4f n %.4f  x%.3f\n", k, v[k" m"], v[k" n"], v[k" m"]/v[k" n"]}' $OUT/avg.txt | sort | grep -v "memory_ratio\|copy_"
