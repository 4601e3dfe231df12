#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r9
for r in 1 2; do for b in filter copymed; do
  VKALGO_PIPELINE_STATS=1 timeout 200 .vx/bench-$b set --log2n 24 --cases sparse,clustered,dense --reps 10 > $OUT/r9/$b-$r.txt 2>&1
done; done
timeout 100 .vx/bench-copymed set --log2n 24 --cases clustered --reps 10 --pass-times > $OUT/r9/copymed-passes.txt 2>&1
for r in 1 2; do for b in filter copymed; do echo "== $b $r"; grep -E "^(and|or|andnot|xor)" $OUT/r9/$b-$r.txt | grep -v cardinality | awk '{print $1, substr($2,1,1), $4}' | paste -sd' ' ; done; done
grep -h "small_pairs\|array_pairs" $OUT/r9/filter-1.txt $OUT/r9/copymed-1.txt | grep statistics
grep -B8 "^or_reserved" $OUT/r9/copymed-passes.txt
