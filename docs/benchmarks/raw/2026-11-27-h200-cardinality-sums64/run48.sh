#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r48; mkdir -p $R
B=.vx/bench-final
for round in 1 2; do
  for ti in 8 9 10; do
    timeout 90 $B multisplit --sizes 24,26 --ms 32 --types pairs --fns glsl --paths staged --tile-items $ti --reps 20 > $R/p$ti-$round.txt 2>&1
  done
done
for ti in 12 10 14 16; do
  timeout 90 $B multisplit --sizes 24,26 --ms 16,32 --types keys --fns glsl --paths substaged --tile-items $ti --reps 20 > $R/k$ti-1.txt 2>&1
done
grep -h "panicked\|rror" $R/*-[12].txt | head
VARS="p8 p9 p10" python3 .vx/cmp2.py $R/p*-[12].txt | grep multisplit
VARS="k12 k10 k14 k16" python3 .vx/cmp2.py $R/k*-1.txt | grep multisplit
tar -czf $OUT/r48.tar.gz -C /tmp r48
OUT=$R/ms TESTS= MS="16 32" VKALGO_BENCH=$B timeout 300 bash bench/gpu_multisplit.sh --reps 20 > $R/ms.log 2>&1
echo "ms rc $?"
tar -czf $OUT/r48.tar.gz -C /tmp r48
cat $R/ms/multisplit-table.md
