#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r7
for r in 1 2; do for b in base new; do
  timeout 250 .vx/bench-$b set --cases full,dense --reps 10 > $OUT/r7/$b-$r.txt 2>&1
done; done
for r in 1 2; do for b in base new; do echo "== $b $r"; grep -E "^(and|or|andnot|xor)" $OUT/r7/$b-$r.txt | awk '{print $1, substr($2,1,1), $4, $7}' | paste -sd' ' ; done; done
