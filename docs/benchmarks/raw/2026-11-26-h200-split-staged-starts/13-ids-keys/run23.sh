#!/usr/bin/env bash
# 23: keys alone by IDS into 3-32 buckets, direct (Auto) against staged (per-subgroup starts),
# two rounds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r23; rm -rf $R; mkdir -p $R
for r in 1 2; do
timeout 100 .vx/bench-new multisplit --sizes 24,26 --ms 3,4,8,16,32 --types keys --fns ids --paths direct,staged --reps 20 > $R/ids-keys-$r.txt 2>&1
done
tar -czf $OUT/r23.tar.gz -C /tmp r23
for f in $R/*; do grep -E "^\| keys +\| ids" $f | awk -F'|' '{printf "%s%s%s %s %s; ", $4, $5, $6, $7, $11}'; echo; done
