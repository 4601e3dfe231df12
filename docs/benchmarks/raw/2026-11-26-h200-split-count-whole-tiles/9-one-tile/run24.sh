#!/usr/bin/env bash
# the tile scatter with one tile a workgroup loaded and split straight (one) against HEAD 36435ba (fast2), f83a8b7
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r24; mkdir -p $R
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms 2,3,8,16,32 --types keys,pairs --fns glsl --paths auto --reps 20 > $R/ab-$1-$2.txt 2>&1; }
for r in 1 2; do for b in f83a8b7 fast2 one; do run $b $r; done; done
tar -czf $OUT/r24.tar.gz -C /tmp r24
for f in $R/ab-*; do echo "== $f"; grep -E "^\| (keys|pairs) +\| glsl" $f | awk -F'|' '{printf "%s%s %s %s; ", $2, $5, $6, $7}'; echo; done
