#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r40; mkdir -p $R
for round in 1 2; do
  for l in 13 15 16; do
    VKALGO_BENCH_CARD_PATH=passes timeout 60 .vx/bench-v3 set --log2n $l --reps 10 --cases arrays,clustered > $R/passes$l-$round.txt 2>&1
    VKALGO_BENCH_CARD_PATH=one-pass timeout 60 .vx/bench-v3 set --log2n $l --reps 10 --cases arrays,clustered > $R/onepass$l-$round.txt 2>&1
  done
done
grep -h "panicked\|error" $R/*-[12].txt | head
for l in 13 15 16; do echo "log2n $l"; VARS="passes$l onepass$l" python3 .vx/cmp.py $R/*$l-[12].txt | grep cardinality; done
