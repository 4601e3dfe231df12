#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r37
VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests-chk --test-threads 4 > $OUT/r37/set_tests.txt 2>&1
echo "tests rc $?"; grep "test result\|FAILED\|panicked" $OUT/r37/set_tests.txt | head
for round in 1 2; do
  for v in base chk; do
    timeout 100 .vx/bench-$v set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r37/$v-$round.txt 2>&1
  done
done
timeout 60 .vx/bench-chk set --log2n 24 --cases dense --reps 10 --pass-times > $OUT/r37/chk-passes.txt 2>&1
grep -h "panicked" $OUT/r37/*-[12].txt | head
VARS="base chk" python3 .vx/cmp.py $OUT/r37/*-[12].txt | grep -v "copy_\|memory_\|contains\|filter\|to_array"
