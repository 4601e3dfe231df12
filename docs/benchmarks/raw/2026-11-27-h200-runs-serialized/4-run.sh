#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r4
for b in base new; do
  VKALGO_PIPELINE_STATS=1 .vx/bench-$b set --log2n 16 --cases sparse --reps 1 2>&1 | grep "pipeline statistics: set_small" | sort -u > $OUT/r4/stats-$b.txt
done
for r in 1 2; do for b in base new; do
  timeout 200 .vx/bench-$b set --log2n 24 --cases sparse,clustered --reps 10 > $OUT/r4/$b-$r.txt 2>&1
done; done
timeout 200 .vx/bench-new set --log2n 24 --cases clustered --reps 10 --pass-times > $OUT/r4/new-passes.txt 2>&1
for b in base new; do echo "== $b"; cat $OUT/r4/stats-$b.txt | cut -c1-200; done
for r in 1 2; do for b in base new; do echo "== $b $r"; grep -E "^(and|or|andnot|xor)" $OUT/r4/$b-$r.txt | grep -v cardinality | awk '{print $1, substr($2,1,1), $4}' | paste -sd' ' ; done; done
grep -B8 "^or_reserved" $OUT/r4/new-passes.txt | grep pass
