#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r29
VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/set-tests-ind --test-threads 4 > $OUT/r29/set_tests.txt 2>&1
grep "test result\|FAILED\|panicked" $OUT/r29/set_tests.txt | head
for round in 1 2; do
  for v in base ind; do
    timeout 100 .vx/bench-$v set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r29/$v-$round.txt 2>&1
  done
done
grep -h "panicked" $OUT/r29/*-[12].txt | head
VARS="base ind" python3 .vx/cmp.py $OUT/r29/*-[12].txt | grep -v "copy_\|memory_\|contains\|filter\|to_array"
