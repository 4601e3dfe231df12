#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r63; mkdir -p $R
for round in 1 2; do
  for b in base grid; do
    timeout 100 .vx/bench-$b set --log2n 24 --reps 10 --cases clustered > $R/$b-$round.txt 2>&1
  done
done
grep -h "panicked\|rror" $R/*-[12].txt | head
VARS="base grid" python3 .vx/cmp.py $R/*-[12].txt | grep -v "cardinality\|contains\|filter\|to_array"
