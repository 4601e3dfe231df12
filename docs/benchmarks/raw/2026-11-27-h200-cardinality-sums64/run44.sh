#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r44; mkdir -p $R
C="--log2n 24 --reps 10 --cases clustered"
for round in 1 2 3; do
  timeout 60 .vx/bench-new set $C > $R/new-$round.txt 2>&1
  timeout 60 .vx/bench-grid64 set $C > $R/grid64-$round.txt 2>&1
  timeout 60 .vx/bench-probe-launch set $C > $R/launch64-$round.txt 2>&1
  VKALGO_BENCH_CARD_PATH=one-pass-slots timeout 60 .vx/bench-probe-launch set $C > $R/launchslots-$round.txt 2>&1
done
VKALGO_BENCH_CARD_PATH=one-pass timeout 60 .vx/bench-new set $C --pass-times > $R/new-passes.txt 2>&1
grep -h "panicked\|error" $R/*-[123].txt | head
VARS="new grid64 launch64 launchslots" python3 .vx/cmp.py $R/*-[123].txt | grep "cardinality"
tar -czf $OUT/r44.tar.gz -C /tmp r44
