#!/usr/bin/env bash
# Command 89: the match table on the staged path (pairs, VKALGO_EXP_MATCH_STAGED=1) against
# ballots; keys on the subgroup-staged path with the table, by items a lane.
set -u
R=$OUT/r89; mkdir -p $R
B=.vx/m89/vkalgo-bench
for round in 1 2; do
  for exp in off 1; do
    s=$SECONDS
    VKALGO_EXP_MATCH_STAGED=$exp timeout 90 $B multisplit --sizes 24,26 --ms 4,8,16,24,32 --types pairs --fns glsl,bits --paths staged --reps 10 > $R/ms-$exp-$round.txt 2>&1
    echo "staged match $exp round $round rc $? $((SECONDS - s))s"
  done
done
for it in 10 12 14 16; do
  VKALGO_EXP_MATCH=1 timeout 60 $B multisplit --sizes 24,26 --ms 16,32 --types keys --fns glsl --paths substaged --tile-items $it --reps 10 > $R/items-$it.txt 2>&1
  echo "items $it rc $?: $(grep -E '^RESULT' $R/items-$it.txt | grep multisplit_keys | awk -F'\t' '{printf "%s/%s=%s ", $3,$5,$6}')"
done
tar -czf $OUT/r89.tgz -C $OUT r89
python3 .vx/cmp87.py $R
