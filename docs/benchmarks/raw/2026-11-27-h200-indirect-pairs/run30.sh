#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r30
for round in 1 2; do
  for v in base u1 ind2; do
    timeout 100 .vx/bench-$v set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r30/$v-$round.txt 2>&1
  done
done
timeout 60 .vx/bench-ind2 set --log2n 24 --cases clustered --reps 10 --pass-times > $OUT/r30/ind2-passes.txt 2>&1
VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests-ind2 --test-threads 4 > $OUT/r30/set_tests.txt 2>&1
echo "tests rc $?"
grep "test result\|FAILED\|panicked" $OUT/r30/set_tests.txt | head
grep -h "panicked" $OUT/r30/*-[12].txt | head
VARS="base u1 ind2" python3 .vx/cmp.py $OUT/r30/*-[12].txt | grep -v "copy_\|memory_\|contains\|filter\|to_array"
