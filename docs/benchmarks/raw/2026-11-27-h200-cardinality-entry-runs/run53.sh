#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r53; mkdir -p $R
for round in 1 2 3; do
  for v in 512:0 256:0 256:1 512:1; do
    w=${v%:*}; c=${v#*:}
    if [ $c = 1 ]; then export VKALGO_EXP_COALESCED=1; else unset VKALGO_EXP_COALESCED; fi
    VKALGO_EXP_ONE_PASS_WG=$w timeout 100 .vx/bench-exp set --log2n 24 --reps 10 --cases clustered > $R/w${w}c${c}-$round.txt 2>&1
  done
done
grep -h "panicked\|rror" $R/*-[123].txt | head
VARS="w512c0 w256c0 w256c1 w512c1" python3 .vx/cmp.py $R/*-[123].txt | grep -i "card"
tar -czf $OUT/r53.tar.gz -C /tmp r53
