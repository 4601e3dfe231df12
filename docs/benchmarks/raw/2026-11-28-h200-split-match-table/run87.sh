#!/usr/bin/env bash
# Command 87: the multisplit's match table (VKALGO_EXP_MATCH=1) against ballots, Auto paths.
set -u
R=$OUT/r87; mkdir -p $R
B=.vx/m87/vkalgo-bench
s=$SECONDS
VKALGO_EXP_MATCH=1 VKALGO_TEST_NO_VALIDATION=1 timeout 100 .vx/m87/split --test-threads 1 tile > $R/split-tests-on.txt 2>&1; echo "split tests (on) rc $? $((SECONDS - s))s $(grep 'test result' $R/split-tests-on.txt)"
for round in 1 2; do
  for exp in off 1; do
    s=$SECONDS
    VKALGO_EXP_MATCH=$exp timeout 150 $B multisplit --sizes 24,26 --ms 3,4,8,16,32 --types keys,pairs --fns glsl,bits --reps 10 > $R/ms-$exp-$round.txt 2>&1
    echo "match $exp round $round rc $? $((SECONDS - s))s"
  done
done
tar -czf $OUT/r87.tgz -C $OUT r87
python3 .vx/cmp87.py $R
