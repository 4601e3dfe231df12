#!/usr/bin/env bash
# Command 85: u32 -> u32 pairs on the staged path, 7 against 8 items a lane, by bucket count.
set -u
R=$OUT/r85; mkdir -p $R
B=.vx/fin/vkalgo-bench
for round in 1 2; do
  for it in 8 7; do
    timeout 120 $B multisplit --sizes 24,26 --ms 4,8,12,16,20,24,28,32 --types pairs --fns glsl,bits,ids --paths staged --tile-items $it --reps 10 > $R/pairs-$it-$round.txt 2>&1
    echo "items $it round $round rc $?"
  done
done
tar -czf $OUT/r85.tgz -C $OUT r85
for it in 8 7; do for round in 1 2; do echo "== items $it round $round"; grep -E '^RESULT' $R/pairs-$it-$round.txt | grep multisplit_pairs | awk -F'\t' '{printf "%s/%s/%s=%s\n", $3,$4,$5,$6}' | tr '\n' ' '; echo; done; done
