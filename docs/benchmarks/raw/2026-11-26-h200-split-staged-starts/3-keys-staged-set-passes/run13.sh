#!/usr/bin/env bash
# 13: keys into 16 / 32 buckets on the staged path (tile items) against subgroup-staged; the
# clustered set operations' pass times.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r13; rm -rf $R; mkdir -p $R
B=.vx/bench-base
for it in 0 12 16; do
  timeout 100 $B multisplit --sizes 24,26 --ms 16,32 --types keys --fns glsl --paths staged --reps 20 --tile-items $it > $R/k-staged-$it.txt 2>&1
done
timeout 100 $B multisplit --sizes 24,26 --ms 16,32 --types keys --fns glsl --paths substaged --reps 20 > $R/k-sub.txt 2>&1
timeout 200 $B set --log2n 24 --reps 10 --cases clustered --pass-times > $R/set-clustered.txt 2>&1
tar -czf $OUT/r13.tar.gz -C /tmp r13
for f in $R/k-*; do echo "== $(basename $f)"; grep -E "^\| keys" $f | awk -F'|' '{printf "%s%s%s %s %s; ", $4, $5, $6, $7, $11}'; echo; done
grep -v "^RESULT" $R/set-clustered.txt | tail -80
