#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r54; mkdir -p $R
for round in 1 2 3; do
  for g in 0 4 8 32; do
    VKALGO_EXP_GROUP=$g timeout 100 .vx/bench-exp set --log2n 24 --reps 10 --cases clustered > $R/g$g-$round.txt 2>&1
  done
done
for g in 0 4 32; do
  VKALGO_BENCH_CARD_PATH=one-pass VKALGO_EXP_GROUP=$g timeout 100 .vx/bench-exp set --log2n 24 --reps 5 --cases dense,long-arrays > $R/d$g-1.txt 2>&1
done
grep -h "panicked\|rror" $R/*-[123].txt | head
VARS="g0 g4 g8 g32" python3 .vx/cmp.py $R/g*-[123].txt | grep -i "card"
VARS="d0 d4 d32" python3 .vx/cmp.py $R/d*-1.txt | grep -i "card"
tar -czf $OUT/r54.tar.gz -C /tmp r54
