#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r28
for round in 1 2; do
  timeout 60 .vx/bench-exp set --log2n 24 --cases clustered,dense --reps 10 > $OUT/r28/main-$round.txt 2>&1
  VKALGO_EXP_GRID=264 timeout 60 .vx/bench-exp set --log2n 24 --cases clustered,dense --reps 10 > $OUT/r28/g264-$round.txt 2>&1
  VKALGO_EXP_GRID=64 timeout 60 .vx/bench-exp set --log2n 24 --cases clustered,dense --reps 10 > $OUT/r28/g64-$round.txt 2>&1
  VKALGO_EXP_SKIP=1 timeout 60 .vx/bench-exp set --log2n 24 --cases clustered --reps 10 > $OUT/r28/skip-$round.txt 2>&1
done
grep -h "panicked" $OUT/r28/*.txt | head
VARS="main g264 g64 skip" python3 .vx/cmp.py $OUT/r28/*-[12].txt | grep -v "copy_\|memory_\|contains\|filter\|to_array\|build"
