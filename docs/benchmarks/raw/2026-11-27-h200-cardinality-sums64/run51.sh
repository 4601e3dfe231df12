#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r51; mkdir -p $R
for round in 1 2; do
  for p in auto one-pass; do
    VKALGO_BENCH_CARD_PATH=$p timeout 60 .vx/bench-b set --log2n 13 --reps 10 --cases arrays,long-arrays > $R/${p}13-$round.txt 2>&1
    VKALGO_BENCH_CARD_PATH=$p timeout 60 .vx/bench-b set --log2n 16 --reps 10 --cases arrays,long-arrays > $R/${p}16-$round.txt 2>&1
    VKALGO_BENCH_CARD_PATH=$p timeout 60 .vx/bench-b set --log2n 18 --reps 10 --cases arrays,long-arrays > $R/${p}18-$round.txt 2>&1
  done
done
grep -h "panicked\|rror" $R/*-[12].txt | head
for l in 13 16 18; do echo "log2n $l"; VARS="auto$l one-pass$l" python3 .vx/cmp.py $R/*$l-[12].txt | grep "batch16"; done
tar -czf $OUT/r51.tar.gz -C /tmp r51
