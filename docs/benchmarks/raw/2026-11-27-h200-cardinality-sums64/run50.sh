#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r50; mkdir -p $R
for round in 1 2; do
  for v in final ro; do
    VKALGO_BENCH_CARD_PATH=one-pass timeout 60 .vx/bench-$v set --log2n 16 --reps 10 --cases arrays,long-arrays > $R/${v}16-$round.txt 2>&1
    timeout 60 .vx/bench-$v set --log2n 24 --reps 10 --cases clustered > $R/${v}24-$round.txt 2>&1
  done
done
grep -h "panicked\|rror" $R/*-[12].txt | head
VARS="final16 ro16" python3 .vx/cmp.py $R/*16-[12].txt | grep "cardinality |"
VARS="final24 ro24" python3 .vx/cmp.py $R/*24-[12].txt | grep "cardinality"
tar -czf $OUT/r50.tar.gz -C /tmp r50
