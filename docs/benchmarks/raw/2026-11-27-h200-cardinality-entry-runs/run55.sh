#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r55; mkdir -p $R
for round in 1 2; do
  for b in entry agg; do
    timeout 200 .vx/bench-$b set --log2n 24 --reps 10 --cases clustered,sparse,dense > $R/$b-$round.txt 2>&1
  done
done
grep -h "panicked\|rror" $R/*-[12].txt | head
python3 .vx/cmp2.py 2>/dev/null | head -0
VARS="entry agg" python3 .vx/cmp.py $R/*-[12].txt
tar -czf $OUT/r55.tar.gz -C /tmp r55
