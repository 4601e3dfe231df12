#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r36
for round in 1 2; do
VKALGO_EXP_CHAIN=1 timeout 100 .vx/bench-chain set --log2n 24 --reps 20 > $OUT/r36/chain-$round.txt 2>&1
done
grep -h "^RESULT.*chain" $OUT/r36/chain-*.txt | sort -t$'\t' -k3,3 -k4,4n
