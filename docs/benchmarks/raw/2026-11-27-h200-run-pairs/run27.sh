#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r27
for round in 1 2; do
  for v in main rp5 rp6; do
    timeout 60 .vx/bench-$v set --log2n 24 --cases dense,clustered --reps 10 > $OUT/r27/$v-$round.txt 2>&1
  done
done
VARS="main rp5 rp6" python3 .vx/cmp.py $OUT/r27/*-[12].txt | grep -v "copy_\|memory_\|contains\|filter\|to_array\|build"
