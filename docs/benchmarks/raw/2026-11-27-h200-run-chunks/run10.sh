#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r10
(VKALGO_VALIDATION=0 timeout 200 .vx/set-tests --test-threads 4 > $OUT/r10/set_tests.txt 2>&1; echo "tests rc $?")
grep "test result\|FAILED\|panicked" $OUT/r10/set_tests.txt | head
for round in 1 2; do
  timeout 100 .vx/bench-base set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r10/base-$round.txt 2>&1
  VKALGO_PIPELINE_STATS=1 timeout 100 .vx/bench-new set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r10/new-$round.txt 2>&1
  timeout 100 .vx/bench-new set --log2n 24 --cases sparse,dense,clustered --reps 10 --no-run-optimize > $OUT/r10/plain-$round.txt 2>&1
done
grep "pipeline statistics: set_\(to_array\|trivial\|classify\|chunk_update\)" $OUT/r10/new-1.txt | sed 's/Binary Size.*Shared/Shared/' | sort -u
python3 .vx/cmp.py $OUT/r10/*-[12].txt | grep -v "copy_\|memory_plain"
