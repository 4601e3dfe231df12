#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r8
for b in base new new2; do
  VKALGO_PIPELINE_STATS=1 .vx/bench-$b set --log2n 16 --cases dense --reps 1 2>&1 | grep "pipeline statistics: set_bitmap" | sort -u > $OUT/r8/stats-$b.txt
done
for r in 1 2; do for b in base new2; do
  timeout 250 .vx/bench-$b set --cases full,dense --reps 10 > $OUT/r8/$b-$r.txt 2>&1
done; done
for b in base new new2; do echo "== $b"; cut -c1-160 $OUT/r8/stats-$b.txt; done
for r in 1 2; do for b in base new2; do echo "== $b $r"; grep -E "^(and|or|andnot|xor)" $OUT/r8/$b-$r.txt | awk '{print $1, substr($2,1,1), $4}' | paste -sd' ' ; done; done
