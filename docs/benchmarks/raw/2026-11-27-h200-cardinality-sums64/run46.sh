#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r46; mkdir -p $R
for round in 1 2 3; do
  for t in 65536 512 256; do
    timeout 60 .vx/bench-t$t set --log2n 24 --reps 10 --cases clustered > $R/t$t-$round.txt 2>&1
  done
done
grep -h "panicked\|error" $R/*-[123].txt | head
VARS="t65536 t512 t256" python3 .vx/cmp.py $R/*-[123].txt | grep "cardinality"
tar -czf $OUT/r46.tar.gz -C /tmp r46
