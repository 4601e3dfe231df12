#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r11
for round in 1 2; do
  for v in base new v1 v2; do
    timeout 60 .vx/bench-$v set --log2n 24 --cases sparse,dense --reps 10 > $OUT/r11/$v-$round.txt 2>&1
  done
done
VKALGO_PIPELINE_STATS=1 .vx/bench-base set --log2n 16 --cases sparse --reps 1 2>&1 | grep "set_\(to_array\|info\)" | sed 's/Binary Size.*Shared/Shared/' | sort -u
VKALGO_PIPELINE_STATS=1 .vx/bench-new set --log2n 16 --cases sparse --reps 1 2>&1 | grep "set_\(to_array\|info\)" | sed 's/Binary Size.*Shared/Shared/' | sort -u
for v in base new v1 v2; do echo "$v: $(grep -h 'RESULT.*set_to_array' $OUT/r11/$v-*.txt | awk -F'\t' '{print $4, $6}' | tr '\n' ' ')"; done
