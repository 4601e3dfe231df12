#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r42; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests-v5 --test-threads=1 > $R/set-tests.txt 2>&1
grep "test result" $R/set-tests.txt
for round in 1 2; do
  for l in 13 15 16; do
    for p in passes one-pass auto; do
      VKALGO_BENCH_CARD_PATH=$p timeout 60 .vx/bench-v5 set --log2n $l --reps 10 --cases arrays,long-arrays > $R/${p}$l-$round.txt 2>&1
    done
  done
  for p in passes one-pass auto; do
    VKALGO_BENCH_CARD_PATH=$p timeout 60 .vx/bench-v5 set --log2n 24 --reps 10 --cases clustered > $R/${p}24-$round.txt 2>&1
  done
  timeout 60 .vx/bench-v3 set --log2n 24 --reps 10 --cases clustered > $R/v3_24-$round.txt 2>&1
done
grep -h "panicked\|error" $R/*-[12].txt | head
for l in 13 15 16; do echo "log2n $l"; VARS="passes$l one-pass$l auto$l" python3 .vx/cmp.py $R/*$l-[12].txt | grep cardinality; done
VARS="v3_24 passes24 one-pass24 auto24" python3 .vx/cmp.py $R/*24-[12].txt | grep cardinality
tar -czf $OUT/r42.tar.gz -C /tmp r42
