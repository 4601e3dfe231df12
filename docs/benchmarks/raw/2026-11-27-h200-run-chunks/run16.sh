#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r16
for round in 1 2; do
  for v in base new; do
    timeout 60 .vx/bench-$v set --log2n 24 --cases clustered --reps 10 --pass-times > $OUT/r16/$v-$round.txt 2>&1
  done
done
VKALGO_PIPELINE_STATS=1 .vx/bench-base set --log2n 16 --cases clustered --reps 1 2>&1 | grep "set_\(chunk_update\|trivial\|boundaries\|classify\|array_pairs\)" | sed 's/Binary Size.*Shared/Shared/' | sort -u
for v in base new; do echo "== $v"; grep -A16 "RESULT.*set_build_sorted" $OUT/r16/$v-2.txt | grep -v "^RESULT" | head -16; grep "RESULT.*build_sorted" $OUT/r16/$v-*.txt | awk -F'\t' '{print $6}' | tr '\n' ' '; echo; done
