#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r69; mkdir -p $R
for round in 1 2; do
  for b in and cl3; do
    timeout 90 .vx/bench-$b set --log2n 24 --reps 10 --cases clustered,sparse,dense > $R/$b-$round.txt 2>&1
  done
done
grep -h "panicked\|rror" $R/*-[12].txt | head
VARS="and cl3" python3 .vx/cmp.py $R/*-[12].txt | grep -v "contains\|filter\|to_array\|_x16\|batch16"
