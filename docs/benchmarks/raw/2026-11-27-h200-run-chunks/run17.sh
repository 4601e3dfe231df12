#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r17
(VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests --test-threads 4 > $OUT/r17/set_tests.txt 2>&1; echo "tests rc $?")
grep "test result\|FAILED\|panicked" $OUT/r17/set_tests.txt | head
for round in 1 2; do
  for v in base final; do
    timeout 60 .vx/bench-$v set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r17/$v-$round.txt 2>&1
  done
done
VKALGO_PIPELINE_STATS=1 .vx/bench-final set --log2n 16 --cases clustered --reps 1 2>&1 | grep "pipeline statistics: set_" | sed 's/Binary Size.*Shared/Shared/' | sort -u
VKALGO_PIPELINE_STATS=1 .vx/bench-base set --log2n 16 --cases clustered --reps 1 2>&1 | grep "pipeline statistics: set_" | sed 's/Binary Size.*Shared/Shared/' | sort -u
sed -i 's/^vars_ = .*/vars_ = ["base", "final"]/' .vx/cmp.py
python3 .vx/cmp.py $OUT/r17/*-[12].txt | grep -v "copy_\|memory_plain"
