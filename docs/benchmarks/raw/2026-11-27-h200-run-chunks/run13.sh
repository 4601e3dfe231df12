#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r13
for round in 1 2; do
  for v in base new v5 v6; do
    timeout 60 .vx/bench-$v set --log2n 24 --cases sparse,dense --reps 10 > $OUT/r13/$v-$round.txt 2>&1
  done
done
VKALGO_PIPELINE_STATS=1 .vx/bench-v5 set --log2n 16 --cases sparse --reps 1 2>&1 | grep "set_info" | sed 's/Binary Size.*Shared/Shared/' | sort -u
VKALGO_PIPELINE_STATS=1 .vx/bench-v6 set --log2n 16 --cases sparse --reps 1 2>&1 | grep "set_info" | sed 's/Binary Size.*Shared/Shared/' | sort -u
for v in base new v5 v6; do echo "$v: $(grep -h 'RESULT.*set_to_array' $OUT/r13/$v-*.txt | awk -F'\t' '{print $4, $6}' | tr '\n' ' ')"; done
