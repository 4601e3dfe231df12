#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r9
(timeout 200 .vx/set-tests --test-threads 4 > $OUT/r9/set_tests.txt 2>&1; echo "tests rc $?")
grep "test result\|FAILED\|panicked" $OUT/r9/set_tests.txt | head
for round in 1; do
  timeout 130 .vx/bench-base set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r9/base-$round.txt 2>&1
  VKALGO_PIPELINE_STATS=1 timeout 130 .vx/bench-new set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r9/new-$round.txt 2>&1
  timeout 130 .vx/bench-new set --log2n 24 --cases sparse,dense,clustered --reps 10 --no-run-optimize > $OUT/r9/plain-$round.txt 2>&1
done
grep -i "registers\|set_classify\|chunk_update" $OUT/r9/new-1.txt | head -12
python3 .vx/cmp.py $OUT/r9/*-[12].txt
