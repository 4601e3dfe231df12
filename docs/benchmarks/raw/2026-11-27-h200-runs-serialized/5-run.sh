#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r5
for r in 1 2 3; do for b in base new; do
  timeout 200 .vx/bench-$b set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r5/$b-$r.txt 2>&1
done; done
timeout 200 .vx/bench-new set --log2n 24 --cases clustered --reps 10 --pass-times > $OUT/r5/new-passes.txt 2>&1
timeout 200 .vx/bench-base set --log2n 24 --cases clustered --reps 10 --pass-times > $OUT/r5/base-passes.txt 2>&1
for r in 1 2 3; do for b in base new; do echo "== $b $r"; grep -E "^(and|or|andnot|xor)" $OUT/r5/$b-$r.txt | awk '{print $1, substr($2,1,1), $4}' | paste -sd' ' ; done; done
for b in base new; do echo "== $b classify"; grep "set_classify" $OUT/r5/$b-passes.txt | awk '{print $5}' | paste -sd' '; done
