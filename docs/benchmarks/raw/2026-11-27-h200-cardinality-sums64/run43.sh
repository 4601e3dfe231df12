#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r43; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 100 .vx/set-tests-new --test-threads=1 cardinality > $R/card-tests.txt 2>&1
grep "test result" $R/card-tests.txt
C="--log2n 24 --reps 10 --cases clustered"
for round in 1 2; do
  timeout 60 .vx/bench-new set $C > $R/new-$round.txt 2>&1
  VKALGO_BENCH_CARD_PATH=one-pass-slots timeout 60 .vx/bench-new set $C > $R/slots-$round.txt 2>&1
  VKALGO_BENCH_CARD_PATH=passes timeout 60 .vx/bench-new set $C > $R/passes-$round.txt 2>&1
  timeout 60 .vx/bench-probe-entries set $C > $R/entries64-$round.txt 2>&1
  timeout 60 .vx/bench-probe-launch set $C > $R/launch64-$round.txt 2>&1
  VKALGO_BENCH_CARD_PATH=one-pass-slots timeout 60 .vx/bench-probe-launch set $C > $R/launchslots-$round.txt 2>&1
done
grep -h "panicked\|error" $R/*-[12].txt | head
VARS="slots new passes entries64 launch64 launchslots" python3 .vx/cmp.py $R/*-[12].txt | grep "cardinality"
tar -czf $OUT/r43.tar.gz -C /tmp r43
OUT=$R/full SET_CASES=clustered VKALGO_BENCH=.vx/bench-new SET_TESTS=.vx/set-tests-new timeout 400 bash bench/gpu_set.sh --reps 10 > $R/gpu_set.log 2>&1
echo "gpu_set rc $?"
grep "test result" $R/full/set_tests.txt
tar -czf $OUT/r43.tar.gz -C /tmp r43
cat $R/full/table.md
