#!/usr/bin/env bash
# Keys into 2-4 buckets: paths and tile items (build d8ed1c1).
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r7; mkdir -p $R
for s in 24 26; do
  timeout 60 .vx/bench multisplit --sizes $s --ms 2,3,4 --types keys --fns glsl --paths auto,substaged --reps 20 > $R/paths-$s.txt 2>&1
  for t in 4 12 16; do
    timeout 60 .vx/bench multisplit --sizes $s --ms 2,3,4 --types keys --fns glsl --paths direct --tile-items $t --reps 20 > $R/items$t-$s.txt 2>&1
  done
done
tar -czf $OUT/r7.tar.gz -C /tmp r7
for f in $R/*.txt; do echo "== $f"; grep -E "^\| keys" $f | awk -F'|' '{print $3,$4,$5,$6,$7}' | paste -sd';'; done
