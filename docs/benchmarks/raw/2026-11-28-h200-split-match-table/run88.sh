#!/usr/bin/env bash
# Command 88: the match table in the subgroup's staging run (VKALGO_EXP_MATCH=1) against ballots.
set -u
R=$OUT/r88; mkdir -p $R
B=.vx/m88/vkalgo-bench
for round in 1 2; do
  for exp in off 1; do
    s=$SECONDS
    VKALGO_EXP_MATCH=$exp timeout 100 $B multisplit --sizes 24,26 --ms 8,12,16,20,24,28,32 --types keys --fns glsl,bits --paths substaged --reps 10 > $R/ms-$exp-$round.txt 2>&1
    VKALGO_EXP_MATCH=$exp timeout 60 $B multisplit --sizes 24,26 --ms 3,4,8 --types pairs --fns glsl,bits --paths substaged --reps 10 > $R/ms-$exp-$round-pairs.txt 2>&1
    echo "match $exp round $round rc $? $((SECONDS - s))s"
  done
done
for exp in off 1; do VKALGO_EXP_MATCH=$exp timeout 60 $B multisplit --sizes 26 --ms 16,32 --types keys --fns bits --paths substaged --reps 10 --pass-times > $R/passes-$exp.txt 2>&1; done
tar -czf $OUT/r88.tgz -C $OUT r88
python3 .vx/cmp87.py $R
grep -h -i "pass\|scatter" $R/passes-*.txt | head -20
