#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r32
for round in 1 2; do
  timeout 100 .vx/bench-nofill2 set --log2n 24 --cases dense,clustered --reps 10 > $OUT/r32/base-$round.txt 2>&1
  VKALGO_EXP_SETUP=1 timeout 100 .vx/bench-nofill2 set --log2n 24 --cases dense,clustered --reps 10 > $OUT/r32/setup-$round.txt 2>&1
  VKALGO_EXP_SETUP=1 VKALGO_EXP_NOFILL=1 timeout 100 .vx/bench-nofill2 set --log2n 24 --cases dense,clustered --reps 10 > $OUT/r32/nofill-$round.txt 2>&1
done
grep -h "panicked" $OUT/r32/*-[12].txt | head
VARS="base setup nofill" python3 .vx/cmp.py $OUT/r32/*-[12].txt | grep -v "copy_\|memory_\|contains\|filter\|to_array\|build"
