#!/usr/bin/env bash
# pairs into 8 buckets slower on the H200 than on 2026-11-25? builds along the history
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r22; mkdir -p $R
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms 3,8 --types keys,pairs --fns glsl --paths auto --reps 20 > $R/ab-$1-$2.txt 2>&1; }
for r in 1 2; do for b in f83a8b7 be5787f a88f347 441e364 base fast2; do run $b $r; done; done
for b in f83a8b7 a88f347 base; do VKALGO_PIPELINE_STATS=1 timeout 60 .vx/bench-$b multisplit --sizes 20 --ms 8 --types pairs --fns glsl --paths auto --reps 2 2>&1 | grep -i "tile_scatter" | sort -u > $R/stats-$b.txt; done
tar -czf $OUT/r22.tar.gz -C /tmp r22
for f in $R/ab-*; do echo "== $f"; grep -E "^\| (keys|pairs) +\| glsl" $f | awk -F'|' '{printf "%s m%s %s %s; ", $2, $5, $6, $7}'; echo; done
head -50 $R/stats-*.txt | cut -c1-140
