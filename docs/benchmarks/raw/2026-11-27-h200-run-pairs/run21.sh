#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r21
for round in 1 2; do
  for v in main rp; do
    timeout 100 .vx/bench-$v set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r21/$v-$round.txt 2>&1
  done
done
timeout 100 .vx/bench-rp set --log2n 24 --cases clustered --reps 10 --pass-times > $OUT/r21/rp-passes.txt 2>&1
VKALGO_PIPELINE_STATS=1 timeout 60 .vx/bench-rp set --log2n 16 --cases clustered --reps 1 2>&1 | grep "set_\(run_pairs\|classify\|chunk_update\|small_pairs\)" | sed 's/Binary Size.*Shared/Shared/' | sort -u
VARS="main rp" python3 .vx/cmp.py $OUT/r21/*-[12].txt | grep -v "copy_\|memory_plain"
