#!/usr/bin/env bash
# Small-pair kernel: f (c + the old chunk freed by every invocation after the barrier) vs c vs head. Was: c vs d (lists unpacked to a word per value) vs datom (d + a same-address atomic per pair in the counting path) vs head. Was: ab (per-op loops, entries one pair ahead) vs c (lean walk without per-step guard, pools read once) vs head.
set -uo pipefail
. bench/gpu_setup.sh >/dev/null 2>&1
for v in head c f; do xz -dc .vx/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
R=$OUT/exp36.txt
{
for r in 1 2 3; do
  for v in head c f; do
    /tmp/bench-$v set --log2n 24 --reps 10 --cases sparse,clustered | grep RESULT | sed "s/^RESULT/RESULT\t$v/"
  done
done
} > $R 2>&1
for v in f; do
  mkdir -p /tmp/gl-$v
  __GL_SHADER_DISK_CACHE_PATH=/tmp/gl-$v __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 VKALGO_PIPELINE_STATS=1 /tmp/bench-$v set --log2n 16 --reps 1 --cases sparse > $OUT/stats-$v.txt 2>&1
  mkdir -p $OUT/cache-$v; find /tmp/gl-$v -name '*.bin' -exec cp {} $OUT/cache-$v/ \;
  grep "pipeline statistics" $OUT/stats-$v.txt | grep small_pairs
done
grep -ciE "panicked|wrong|error" $R
awk -F'\t' '$1=="RESULT" {k=$4"|"$5; s[k" "$2]+=$7; c[k" "$2]++} END {for (k in s) printf "%s %.4f\n", k, s[k]/c[k]}' $R | sort > $OUT/avg.txt
awk '{split($1,a,"|"); key=a[1]"|"a[2]; v[key" "$2]=$3; keys[key]=1} END {for (k in keys) printf "%-34s head %.4f c %.4f f %.4f  c x%.3f f x%.3f\n", k, v[k" head"], v[k" c"], v[k" f"], v[k" head"]/v[k" c"], v[k" head"]/v[k" f"]}' $OUT/avg.txt | sort
