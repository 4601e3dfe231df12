#!/usr/bin/env bash
# 21: pairs by IDS into 2-5 buckets, direct against staged (per-subgroup starts), two rounds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r21; rm -rf $R; mkdir -p $R
for r in 1 2; do
timeout 100 .vx/bench-new multisplit --sizes 24,26 --ms 2,3,4,5 --types pairs --fns ids --paths direct,staged --reps 20 > $R/ids-$r.txt 2>&1
done
tar -czf $OUT/r21.tar.gz -C /tmp r21
for f in $R/*; do grep -E "^\| pairs" $f | awk -F'|' '{printf "%s%s%s%s %s %s; ", $3, $4, $5, $6, $7, $11}'; echo; done
