#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r23
for round in 1 2; do
  for v in main rp2 rp3; do
    timeout 100 .vx/bench-$v set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r23/$v-$round.txt 2>&1
  done
done
timeout 100 .vx/bench-rp3 set --log2n 24 --cases clustered --reps 10 --pass-times > $OUT/r23/rp3-passes.txt 2>&1
VKALGO_PIPELINE_STATS=1 timeout 60 .vx/bench-rp3 set --log2n 16 --cases clustered --reps 1 2>&1 | grep "set_\(trivial\|classify\|chunk_update\|small_pairs\)" | sed 's/Binary Size.*Shared/Shared/' | sort -u
VARS="main rp2 rp3" python3 .vx/cmp.py $OUT/r23/*-[12].txt | grep -v "copy_\|memory_\|contains\|filter\|to_array"
