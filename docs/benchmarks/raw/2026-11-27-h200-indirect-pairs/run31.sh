#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r31
for round in 1 2; do
  timeout 100 .vx/bench-nofill set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r31/fill-$round.txt 2>&1
  VKALGO_EXP_NOFILL=1 timeout 100 .vx/bench-nofill set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r31/nofill-$round.txt 2>&1
done
grep -h "panicked" $OUT/r31/*-[12].txt | head
VARS="fill nofill" python3 .vx/cmp.py $OUT/r31/*-[12].txt | grep -v "copy_\|memory_\|contains\|filter\|to_array\|build"
