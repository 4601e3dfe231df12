#!/usr/bin/env bash
# the tile scatter's first tile with one barrier (bar) against HEAD 36435ba (fast2), 684af86 (base), f83a8b7
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r23; mkdir -p $R
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms 2,3,8,32 --types keys,pairs --fns glsl --paths auto --reps 20 > $R/ab-$1-$2.txt 2>&1; }
for r in 1 2; do for b in f83a8b7 base fast2 bar; do run $b $r; done; done
tar -czf $OUT/r23.tar.gz -C /tmp r23
for f in $R/ab-*; do echo "== $f"; grep -E "^\| (keys|pairs) +\| glsl" $f | awk -F'|' '{printf "%s%s %s %s; ", $2, $5, $6, $7}'; echo; done
