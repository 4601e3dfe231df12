#!/usr/bin/env bash
# 5: the keys merge's tile (workgroup x items, --tuning) and tiles a workgroup (VX_MERGE_TILES)
# on the H200, with CUB's MergeKeys in the same command.
set -u
. bench/gpu_setup.sh > /dev/null 2>&1
R=/tmp/r5; rm -rf $R; mkdir -p $R
"$NVCC" -O3 -std=c++17 -arch=sm_90 -I bench/cuda -o /tmp/merge_bench bench/cuda/merge_bench.cu
B=.vx/bench-new
M="merge --sizes 23,26 --set-sizes none --types keys --reps 20"
/tmp/merge_bench merge_keys 23 26 > $R/cub-1.txt 2>&1
for r in 1 2; do
  timeout 100 $B $M > $R/default-$r.txt 2>&1
  timeout 200 $B $M --tuning 512x5,512x9,512x11,256x11,256x15,1024x5 > $R/tunings-$r.txt 2>&1
  for t in 1 3 4; do VX_MERGE_TILES=$t timeout 100 $B $M > $R/tiles$t-$r.txt 2>&1; done
done
timeout 100 $B $M --pass-times > $R/pass-times.txt 2>&1
/tmp/merge_bench merge_keys 23 26 > $R/cub-2.txt 2>&1
tar -czf $OUT/r5.tar.gz -C /tmp r5
tail -n 4 $R/cub-1.txt $R/cub-2.txt;
for f in $R/[dt]*; do echo "== $(basename $f)"; grep -E "^\| merge_keys" $f | awk -F'|' '{printf "%s%s%s %s; ", $3, $4, $5, $6}'; echo; done
grep "pass" $R/pass-times.txt
