#!/usr/bin/env bash
# Does Thrust show the lower-clock state? 24 processes of each Thrust set operation (2^24 + 2^24)
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r15; mkdir -p $R
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
"$NVCC" -O3 -std=c++17 -arch=sm_90 -I bench/cuda -o /tmp/merge_bench bench/cuda/merge_bench.cu
for p in $(seq 1 24); do
  echo "# process $p" >> $R/thrust.txt
  for op in set_and set_andnot set_xor; do /tmp/merge_bench $op 24 >> $R/thrust.txt 2>&1; done
done
tar -czf $OUT/r15.tar.gz -C /tmp r15
grep "^RESULT" $R/thrust.txt | awk -F'\t' '{print $3, $6}' | sort | awk '{k=$1; v=$2+0; n[k]++; if (!(k in mn) || v<mn[k]) mn[k]=v; if (v>mx[k]) mx[k]=v; s[k]+=v} END{for (k in n) printf "%s n=%d min %.4f max %.4f mean %.4f\n", k, n[k], mn[k], mx[k], s[k]/n[k]}'
