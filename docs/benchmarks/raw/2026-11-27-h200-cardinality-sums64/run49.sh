#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r49; mkdir -p $R
B=.vx/bench-final
for round in 1 2; do
  for p in passes one-pass; do
    VKALGO_BENCH_CARD_PATH=$p timeout 60 $B set --log2n 13 --reps 10 --cases arrays,long-arrays > $R/${p}13-$round.txt 2>&1
    VKALGO_BENCH_CARD_PATH=$p timeout 60 $B set --log2n 16 --reps 10 --cases arrays,long-arrays > $R/${p}16-$round.txt 2>&1
    VKALGO_BENCH_CARD_PATH=$p timeout 60 $B set --log2n 16 --reps 10 --cases arrays --pass-times > $R/${p}16-passes.txt 2>&1
  done
done
grep -h "panicked\|rror" $R/*-[12].txt | head
for l in 13 16; do echo "log2n $l"; VARS="passes$l one-pass$l" python3 .vx/cmp.py $R/*$l-[12].txt | grep cardinality; done
tar -czf $OUT/r49.tar.gz -C /tmp r49
