#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r2
for r in 1 2; do for b in base reuse; do
  timeout 200 .vx/bench-$b set --log2n 24 --cases sparse,clustered --reps 10 > $OUT/r2/$b-$r.txt 2>&1
done; done
for r in 1 2; do for b in base reuse; do echo "== $b $r"; grep -E "^(build|and|or|andnot|xor)" $OUT/r2/$b-$r.txt | grep -v cardinality | awk '{print $1, $2, $4}' | paste -sd' ' ; done; done
