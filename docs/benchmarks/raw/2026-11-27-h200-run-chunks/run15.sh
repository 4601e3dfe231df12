#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r15
for round in 1 2; do
  for v in base new v8 v9; do
    timeout 60 .vx/bench-$v set --log2n 24 --cases sparse,dense --reps 10 > $OUT/r15/$v-$round.txt 2>&1
  done
done
VKALGO_PIPELINE_STATS=1 .vx/bench-v8 set --log2n 16 --cases sparse --reps 1 2>&1 | grep "set_info" | sed 's/Binary Size.*Shared/Shared/' | sort -u
VKALGO_PIPELINE_STATS=1 .vx/bench-v9 set --log2n 16 --cases sparse --reps 1 2>&1 | grep "set_info" | sed 's/Binary Size.*Shared/Shared/' | sort -u
for v in base new v8 v9; do echo "$v: $(grep -h 'RESULT.*set_to_array' $OUT/r15/$v-*.txt | awk -F'\t' '{print $4, $6}' | tr '\n' ' ')"; done
