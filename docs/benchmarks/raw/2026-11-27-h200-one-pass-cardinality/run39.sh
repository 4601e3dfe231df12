#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r39; mkdir -p $R
C="--log2n 24 --reps 10 --cases clustered"
for round in 1 2; do
  timeout 60 .vx/bench-base set $C > $R/base-$round.txt 2>&1
  timeout 60 .vx/bench-v1 set $C > $R/v1-$round.txt 2>&1
  timeout 60 .vx/bench-v2 set $C > $R/v2-$round.txt 2>&1
done
VKALGO_BENCH_CARD_PATH=one-pass timeout 60 .vx/bench-v2 set --log2n 24 --reps 10 --cases clustered --pass-times > $R/v2-passes.txt 2>&1
grep -h "panicked\|error" $R/*-[12].txt | head
VARS="base v1 v2" python3 .vx/cmp.py $R/*-[12].txt | grep "cardinality"
OUT=$R/full VKALGO_BENCH=.vx/bench-v2 SET_TESTS=.vx/set-tests-v2 timeout 420 bash bench/gpu_set.sh --reps 10 > $R/gpu_set.log 2>&1
echo "gpu_set rc $?"
grep "test result" $R/full/set_tests.txt
cat $R/full/table.md
