#!/usr/bin/env bash
# Command 84: tile lengths of keys into 16 (subgroup-staged) and pairs into 16 and 32 (staged).
set -u
R=$OUT/r84; mkdir -p $R
B=.vx/fin/vkalgo-bench
for round in 1 2; do
  for it in 0 8 10 14 16; do
    timeout 60 $B multisplit --sizes 24,26 --ms 16 --types keys --fns glsl --paths substaged --tile-items $it --reps 10 > $R/keys-$it-$round.txt 2>&1
  done
  for it in 0 6 7 9 10; do
    timeout 60 $B multisplit --sizes 24,26 --ms 16,32 --types pairs --fns glsl --paths staged --tile-items $it --reps 10 > $R/pairs-$it-$round.txt 2>&1
  done
done
tar -czf $OUT/r84.tgz -C $OUT r84
for f in $R/*.txt; do echo "$(basename $f .txt): $(grep -E '^RESULT' $f | awk -F'\t' '{printf "%s/%s/%s=%s ", $3,$4,$5,$6}')"; done
