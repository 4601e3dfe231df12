#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r56; mkdir -p $R
for round in 1 2 3; do
  for b in entry early; do
    timeout 100 .vx/bench-$b set --log2n 24 --reps 10 --cases clustered > $R/$b-$round.txt 2>&1
  done
done
grep -h "panicked\|rror" $R/*-[123].txt | head
VARS="entry early" python3 .vx/cmp.py $R/*-[123].txt | grep -i card
tar -czf $OUT/r56.tar.gz -C /tmp r56
